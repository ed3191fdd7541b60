import type { IncomingMessage, ServerResponse } from "node:http"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { Effect, Either } from "effect"
import { type BodyError, readBodyText, readNodeBodyText } from "./body.js"

/**
 * What the tool faces read of a request, whichever HTTP stack carried it: the platform's router (when the
 * faces are embedded in another Effect backend) or the server's own `node:http` lane (see `lanes.ts`).
 */
export interface FaceRequest {
  readonly method: string
  /** A header by its lower-case name; repeated headers come joined with `, ` as Node joins them. */
  readonly header: (name: string) => string | undefined
  /** A query parameter by name (the first one when repeated); `undefined` when absent. */
  readonly query: (name: string) => string | undefined
  /** The body as UTF-8 text, failing past `maxBytes` (counted on the bytes received, not `Content-Length`). */
  readonly readBody: (maxBytes: number) => Effect.Effect<string, BodyError>
}

/** An answer of the tool faces, before either HTTP stack sends it. */
export interface Reply {
  readonly status: number
  /**
   * JSON text, its UTF-8 bytes, or the bytes in parts sent one after the other (a cached answer spliced
   * around a per-request head, never copied into one buffer); `undefined` for an empty body (202).
   */
  readonly body: string | Uint8Array | ReadonlyArray<Uint8Array> | undefined
  readonly headers?: Readonly<Record<string, string>>
  /**
   * The request metrics' route label when it is finer than the path's: the served tool's name for a tool call.
   * Set only from a bounded set (served tool names), never from raw input.
   */
  readonly route?: string
}

/**
 * The query parameters of a request target (a path or a whole URL), parsed on the first look only: most tool
 * calls carry no query, and those pay one `indexOf`.
 */
const queryOf = (target: string): ((name: string) => string | undefined) => {
  const start = target.indexOf("?")
  if (start === -1) return () => undefined
  let parsed: URLSearchParams | undefined
  return (name) => {
    parsed ??= new URLSearchParams(target.slice(start + 1))
    return parsed.get(name) ?? undefined
  }
}

/** A platform request seen as a {@link FaceRequest}. */
export const platformFaceRequest = (request: HttpServerRequest): FaceRequest => ({
  method: request.method,
  header: (name) => request.headers[name],
  query: queryOf(request.url),
  readBody: (maxBytes) => readBodyText(request, maxBytes)
})

/**
 * A Node request seen as a {@link FaceRequest}. With `body`, the body was already read (under the same cap the
 * endpoint asks for) and `readBody` answers it at once.
 */
export const nodeFaceRequest = (request: IncomingMessage, body?: Either.Either<string, BodyError>): FaceRequest => ({
  method: request.method ?? "GET",
  header: (name) => {
    const value = request.headers[name]
    return typeof value === "string" || value === undefined ? value : value.join(", ")
  },
  query: queryOf(request.url ?? ""),
  readBody: body === undefined ? (maxBytes) => readNodeBodyText(request, maxBytes) : () => body
})

const isParts = (body: Reply["body"]): body is ReadonlyArray<Uint8Array> => Array.isArray(body)

const byteLengthOf = (body: string | Uint8Array | ReadonlyArray<Uint8Array>): number =>
  typeof body === "string"
    ? Buffer.byteLength(body)
    : isParts(body)
      ? body.reduce((total, part) => total + part.byteLength, 0)
      : body.byteLength

/**
 * A reply as a platform response. JSON text goes to Node as the string itself with its byte length: Node
 * then sends the head and the body in one write, where an encoded body cost a UTF-8 copy.
 */
export const replyResponse = (reply: Reply): HttpServerResponse.HttpServerResponse => {
  const { status, body, headers } = reply
  if (body === undefined) return HttpServerResponse.empty({ status, headers })
  const options = { status, contentType: "application/json", headers }
  if (typeof body === "string") return HttpServerResponse.raw(body, { ...options, contentLength: byteLengthOf(body) })
  return HttpServerResponse.uint8Array(isParts(body) ? Buffer.concat(body) : body, options)
}

/** Sends a reply on a Node response: the head and every part in one write (corked until the end). */
export const writeReply = (response: ServerResponse, reply: Reply): void => {
  const { status, body, headers } = reply
  if (body === undefined) {
    response.writeHead(status, headers)
    response.end()
    return
  }
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": byteLengthOf(body)
  })
  if (!isParts(body)) {
    response.end(body)
    return
  }
  response.cork()
  for (const part of body) response.write(part)
  response.end()
}
