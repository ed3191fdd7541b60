import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Option } from "effect"
import { type BodyError, BodyTooLarge, declaresTooLarge, readBodyText } from "../body.js"
import { DEFAULT_MAX_BODY_BYTES, HttpFaceSettings } from "../config.js"
import { GRAPHQL_PATH, makeGraphqlYoga } from "./yoga.js"

const refusal = (status: number, code: string, message: string) =>
  HttpServerResponse.unsafeJson({ errors: [{ message, extensions: { code } }] }, { status })

const bodyRefusal = (error: BodyError) =>
  error._tag === "BodyTooLarge"
    ? refusal(413, "PAYLOAD_TOO_LARGE", `${error.message}; send at most ${error.maxBytes} bytes`)
    : refusal(400, "BAD_REQUEST", error.reason)

/**
 * `GET` and `POST /graphql` on the shared router: the request is handed to yoga as a web `Request` (the body read
 * first through the faces' bounded reader, so a long body answers 413 before yoga sees it) and yoga's answer,
 * an SSE stream for a subscription included, goes back as it comes.
 */
export const GraphqlRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const yoga = yield* makeGraphqlYoga
    const maxBytes = Option.match(yield* Effect.serviceOption(HttpFaceSettings), {
      onNone: () => DEFAULT_MAX_BODY_BYTES,
      onSome: (settings) => settings.maxBodyBytes
    })
    const handle = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const hasBody = request.method !== "GET" && request.method !== "HEAD"
      let body: string | undefined
      if (hasBody) {
        if (declaresTooLarge(request.headers["content-length"], maxBytes)) {
          return bodyRefusal(new BodyTooLarge({ maxBytes }))
        }
        const read = yield* Effect.either(readBodyText(request, maxBytes))
        if (read._tag === "Left") return bodyRefusal(read.left)
        body = read.right
      }
      const response = yield* Effect.promise((signal) =>
        Promise.resolve(
          yoga.fetch(
            new Request(`http://graphql.invalid${request.url}`, {
              method: request.method,
              headers: request.headers,
              ...(body === undefined ? {} : { body }),
              signal
            })
          )
        )
      )
      return HttpServerResponse.fromWeb(response)
    })
    yield* router.add("*", GRAPHQL_PATH, handle)
  })
)
