import { Readable } from "node:stream"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Data, Effect, Either, Stream } from "effect"

/** The body is longer than the face accepts. */
export class BodyTooLarge extends Data.TaggedError("BodyTooLarge")<{ readonly maxBytes: number }> {
  override get message() {
    return `the request body is larger than ${this.maxBytes} bytes`
  }
}

/** The body could not be read to the end, or is not UTF-8 text. */
export class BodyUnreadable extends Data.TaggedError("BodyUnreadable")<{ readonly reason: string }> {}

/** Whether a `Content-Length` value already announces more than `maxBytes` (checked before any byte is read). */
export const declaresTooLarge = (contentLength: string | undefined, maxBytes: number): boolean =>
  contentLength !== undefined && /^\d+$/.test(contentLength.trim()) && Number(contentLength.trim()) > maxBytes

// A web `Request` built without a body has none to stream; the platform's stream would fail on it.
const hasNoBody = (request: HttpServerRequest): boolean =>
  request.source instanceof globalThis.Request && request.source.body === null

// One decoder for every body: a whole-buffer `decode` keeps no state between calls, and making a decoder per
// request showed in the bench's CPU profile.
const utf8 = new TextDecoder("utf-8", { fatal: true })

/** The `BodyUnreadable` reason of a body that is not UTF-8 text. */
export const NOT_UTF8_BODY = "the request body is not UTF-8 text"

const decodeUtf8 = (bytes: Uint8Array): Either.Either<string, BodyUnreadable> => {
  try {
    return Either.right(utf8.decode(bytes))
  } catch {
    return Either.left(new BodyUnreadable({ reason: NOT_UTF8_BODY }))
  }
}

// The Node request itself when the platform serves over node:http (a web `Request` otherwise).
const nodeSource = (request: HttpServerRequest): Readable | undefined =>
  request.source instanceof Readable ? request.source : undefined

/** Why a body was not read: too long, or broken off / not UTF-8. */
export type BodyError = BodyTooLarge | BodyUnreadable

/**
 * Reads a Node request's body to the end over the stream's own events and hands `done` the UTF-8 text or
 * why there is none; answers a function that stops listening (for a caller that gives up first). A tool
 * call's body is one small chunk, and the platform's `Stream` cost more per request than the rest of a cached
 * call (measured with the bench). Past twice the cap the listeners go and the request is left unread, for the
 * server to cut off.
 */
export const readNodeBodyThen = (
  source: Readable,
  maxBytes: number,
  done: (result: Either.Either<string, BodyError>) => void
): (() => void) => {
  if (source.readableEnded) {
    done(Either.right(""))
    return () => {}
  }
  const parts: Array<Uint8Array> = []
  let size = 0
  const stop = () => {
    source.off("data", onData)
    source.off("end", onEnd)
    source.off("error", onError)
    source.off("close", onClose)
  }
  const onData = (chunk: Uint8Array) => {
    size += chunk.byteLength
    if (size > 2 * maxBytes) {
      stop()
      source.pause()
      done(Either.left(new BodyTooLarge({ maxBytes })))
    } else if (size <= maxBytes) parts.push(chunk)
  }
  const onEnd = () => {
    stop()
    done(size > maxBytes ? Either.left(new BodyTooLarge({ maxBytes })) : decodeUtf8(Buffer.concat(parts, size)))
  }
  const onError = () => {
    stop()
    done(Either.left(new BodyUnreadable({ reason: "the request body could not be read" })))
  }
  // A client that goes away mid-body closes the stream without an end.
  const onClose = () => {
    if (!source.readableEnded) onError()
  }
  source.on("data", onData)
  source.on("end", onEnd)
  source.on("error", onError)
  source.on("close", onClose)
  return stop
}

/** {@link readBodyText} straight from a Node request. */
export const readNodeBodyText = (source: Readable, maxBytes: number): Effect.Effect<string, BodyError> =>
  Effect.async<string, BodyError>((resume) => {
    const stop = readNodeBodyThen(source, maxBytes, (result) => resume(result))
    return Effect.sync(stop)
  })

/**
 * Reads the body as UTF-8 text, failing when it passes `maxBytes`: `Content-Length` may be absent
 * (chunked uploads) or wrong, so the cap is enforced on the bytes actually received. Past the cap the
 * bytes are read and dropped up to the cap once more: the platform destroys a half-read request and
 * its socket with it, so a client that sent a little too much would see a reset instead of the 413.
 * A longer flood is cut off there.
 */
export const readBodyText = (
  request: HttpServerRequest,
  maxBytes: number
): Effect.Effect<string, BodyTooLarge | BodyUnreadable> =>
  Effect.suspend(() => {
    if (hasNoBody(request)) return Effect.succeed("")
    const node = nodeSource(request)
    if (node !== undefined) return readNodeBodyText(node, maxBytes)
    const parts: Array<Uint8Array> = []
    let size = 0
    return request.stream.pipe(
      Stream.mapError(() => new BodyUnreadable({ reason: "the request body could not be read" })),
      Stream.runForEach((chunk): Effect.Effect<void, BodyTooLarge> => {
        size += chunk.byteLength
        if (size > 2 * maxBytes) return Effect.fail(new BodyTooLarge({ maxBytes }))
        if (size <= maxBytes) parts.push(chunk)
        return Effect.void
      }),
      Effect.flatMap((): Effect.Effect<string, BodyTooLarge | BodyUnreadable> => {
        if (size > maxBytes) return Effect.fail(new BodyTooLarge({ maxBytes }))
        const bytes = new Uint8Array(size)
        let offset = 0
        for (const part of parts) {
          bytes.set(part, offset)
          offset += part.byteLength
        }
        return decodeUtf8(bytes)
      })
    )
  })

/** Whether a JSON value is a plain object (not an array, not null). */
export const isJsonObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Parses JSON text; `undefined` when it is not JSON (JSON itself has no `undefined`). */
export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * A JSON answer from its text, handed to Node as the string itself with its byte length: Node then sends the
 * head and the body in one write, where an encoded `Uint8Array` body cost a UTF-8 copy and a two-buffer write.
 */
export const jsonText = (
  status: number,
  body: string,
  headers?: Readonly<Record<string, string>>
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.raw(body, {
    status,
    contentType: "application/json",
    contentLength: Buffer.byteLength(body),
    headers
  })
