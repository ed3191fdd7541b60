import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Option } from "effect"
import { type BodyError, BodyTooLarge, declaresTooLarge, readBodyText } from "../body.js"
import { DEFAULT_MAX_BODY_BYTES, HttpFaceSettings } from "../config.js"
import { loadOptional } from "../../optional-package.js"
import { GRAPHQL_PATH } from "./path.js"

/**
 * What the GraphQL face runs on. They are optional peers of `@svc/adapters` (`svc serve` installs them all): a
 * backend that leaves them out still serves every other face, and `/graphql` says what to install.
 */
export const GRAPHQL_PACKAGES = [
  "graphql",
  "graphql-yoga",
  "@escape.tech/graphql-armor",
  "@graphql-yoga/render-graphiql",
  "dataloader"
] as const

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
 *
 * The face is built at start, as the other faces are (a subscription's feed starts when its request arrives, so the
 * first one must not wait on a build). Its modules, and graphql, yoga and the armor with them, are loaded only here:
 * without them the route answers 501 naming what to install, and the start says so once.
 */
export const GraphqlRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const loaded = yield* Effect.either(
      loadOptional({ packages: GRAPHQL_PACKAGES, purpose: "The GraphQL face", load: () => import("./yoga.js") })
    )
    if (loaded._tag === "Left") {
      const missing = loaded.left
      yield* Effect.logWarning(`${missing.message}; until then /graphql answers 501`)
      return yield* router.add(
        "*",
        GRAPHQL_PATH,
        Effect.succeed(refusal(501, "GRAPHQL_NOT_INSTALLED", missing.message))
      )
    }
    const yoga = yield* loaded.right.makeGraphqlYoga
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
