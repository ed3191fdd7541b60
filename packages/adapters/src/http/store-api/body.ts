import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Option } from "effect"
import { type BodyError, BodyTooLarge, declaresTooLarge, readBodyText } from "../body.js"
import { DEFAULT_MAX_BODY_BYTES, HttpFaceSettings } from "../config.js"

const refusal = (status: number, error: string, message: string) =>
  HttpServerResponse.unsafeJson({ ok: false, error, message }, { status })

/** The store API's answer to a body it will not read: 413 naming the cap, or 400 for a broken or non-UTF-8 body. */
const bodyRefusal = (error: BodyError): HttpServerResponse.HttpServerResponse =>
  error._tag === "BodyTooLarge"
    ? refusal(413, "payload_too_large", `${error.message}; send at most ${error.maxBytes} bytes`)
    : refusal(400, "bad_request", error.reason)

// The request the API's handlers see: the same URL, headers and peer, its body the text already read and checked.
// The platform decodes payloads from `request.text`/`request.json`; a web `Request` over that text is the public way
// to hand it a body that is not the socket's.
const withBodyText = (request: HttpServerRequest.HttpServerRequest, text: string) => {
  const web = HttpServerRequest.fromWeb(
    new Request(`http://store.invalid${request.url}`, { method: request.method, headers: request.headers, body: text })
  )
  return web.modify(
    Option.match(request.remoteAddress, {
      onNone: () => ({ url: request.url, headers: request.headers }),
      onSome: (remoteAddress) => ({ url: request.url, headers: request.headers, remoteAddress })
    })
  )
}

const hasBody = (method: string) => method !== "GET" && method !== "HEAD" && method !== "OPTIONS"

/**
 * Reads every store API body through the faces' one bounded reader before the platform decodes it: at most
 * `maxBodyBytes` (the tool faces' cap, 1 MiB by default; 413 past it, refused by `Content-Length` before a byte is
 * read), and UTF-8 text only (400), where the platform's own reader would keep a longer body in memory and turn
 * bytes that are not UTF-8 into U+FFFD silently.
 */
export const StoreBodyLimits = HttpLayerRouter.middleware(
  Effect.map(Effect.serviceOption(HttpFaceSettings), (settings) => {
    // The store API is also served by embedding backends and test harnesses that configure no tool-face settings.
    const maxBytes = Option.match(settings, {
      onNone: () => DEFAULT_MAX_BODY_BYTES,
      onSome: (s) => s.maxBodyBytes
    })
    return (effect) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        if (!hasBody(request.method)) return effect
        if (declaresTooLarge(request.headers["content-length"], maxBytes)) {
          return Effect.succeed(bodyRefusal(new BodyTooLarge({ maxBytes })))
        }
        return readBodyText(request, maxBytes).pipe(
          Effect.matchEffect({
            onFailure: (error) => Effect.succeed(bodyRefusal(error)),
            onSuccess: (text) =>
              Effect.provideService(effect, HttpServerRequest.HttpServerRequest, withBodyText(request, text))
          })
        )
      })
  })
)
