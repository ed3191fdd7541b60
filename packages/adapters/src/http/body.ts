import { Readable } from "node:stream"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Data, Effect, Stream } from "effect"

/** The body is longer than the face accepts. */
export class BodyTooLarge extends Data.TaggedError("BodyTooLarge")<{ readonly maxBytes: number }> {
  override get message() {
    return `the request body is larger than ${this.maxBytes} bytes`
  }
}

/** The body could not be read to the end, or is not UTF-8 text. */
export class BodyUnreadable extends Data.TaggedError("BodyUnreadable")<{ readonly reason: string }> {}

/** Whether `Content-Length` already announces more than `maxBytes` (checked before any byte is read). */
export const declaresTooLarge = (request: HttpServerRequest, maxBytes: number): boolean => {
  const declared = request.headers["content-length"]
  return declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes
}

// A web `Request` built without a body has none to stream; the platform's stream would fail on it.
const hasNoBody = (request: HttpServerRequest): boolean =>
  request.source instanceof globalThis.Request && request.source.body === null

// One decoder for every body: a whole-buffer `decode` keeps no state between calls, and making a decoder per
// request showed in the bench's CPU profile.
const utf8 = new TextDecoder("utf-8", { fatal: true })

const decodeUtf8 = (bytes: Uint8Array): Effect.Effect<string, BodyUnreadable> => {
  try {
    return Effect.succeed(utf8.decode(bytes))
  } catch {
    return Effect.fail(new BodyUnreadable({ reason: "the request body is not UTF-8 text" }))
  }
}

// The Node request itself when the platform serves over node:http (a web `Request` otherwise).
const nodeSource = (request: HttpServerRequest): Readable | undefined =>
  request.source instanceof Readable ? request.source : undefined

/**
 * The same reading over the Node stream's own events: a tool call's body is one small chunk, and the
 * platform's `Stream` costs more per request than the rest of a cached call (measured with the bench).
 * Past twice the cap the listeners go and the request is left unread, for the platform to cut off.
 */
const readNodeBody = (source: Readable, maxBytes: number): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable> =>
  Effect.async<Uint8Array, BodyTooLarge | BodyUnreadable>((resume) => {
    if (source.readableEnded) {
      resume(Effect.succeed(new Uint8Array(0)))
      return
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
        resume(Effect.fail(new BodyTooLarge({ maxBytes })))
      } else if (size <= maxBytes) parts.push(chunk)
    }
    const onEnd = () => {
      stop()
      resume(size > maxBytes ? Effect.fail(new BodyTooLarge({ maxBytes })) : Effect.succeed(Buffer.concat(parts, size)))
    }
    const onError = () => {
      stop()
      resume(Effect.fail(new BodyUnreadable({ reason: "the request body could not be read" })))
    }
    // A client that goes away mid-body closes the stream without an end.
    const onClose = () => {
      if (!source.readableEnded) onError()
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    source.on("close", onClose)
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
    if (node !== undefined) return Effect.flatMap(readNodeBody(node, maxBytes), decodeUtf8)
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
