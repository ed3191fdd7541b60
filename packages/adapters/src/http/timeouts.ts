import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http"

/** How long the HTTP server waits on a slow client, in milliseconds. */
export interface HttpTimeouts {
  /** From the connection (or the end of the previous request) to the last header line (Node's `headersTimeout`). */
  readonly headersMs: number
  /** From the connection to the last byte of the request, body included (Node's `requestTimeout`). */
  readonly requestMs: number
  /** Longest pause between two pieces of a request body; a body that stalls longer is cut off. */
  readonly bodyIdleMs: number
  /**
   * From the connection to the last byte of a media upload (`POST /v1/media`, a PUT to an upload URL): up to 100 MB,
   * which a slow link sends in minutes. Other requests keep `requestMs`. Optional: `requestMs` when left out.
   */
  readonly uploadMs?: number | undefined
}

/**
 * The defaults: far above what a real client needs (a request body is at most 1 MiB), short enough that
 * half-sent requests cannot hold connections open for minutes (Node's own defaults are 60 s and 300 s).
 */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  bodyIdleMs: 10_000,
  // 100 MB at 1 MB/s, with room; a stalled upload is still cut off after `bodyIdleMs`.
  uploadMs: 900_000
}

/** Why a set of timeouts cannot be used, else `undefined` (Node refuses a header timeout above the request one). */
export const timeoutsProblem = (timeouts: HttpTimeouts): string | undefined => {
  for (const [name, ms] of Object.entries(timeouts)) {
    if (ms === undefined) continue
    if (!Number.isInteger(ms) || ms < 1) return `the ${name} timeout must be a whole number of milliseconds, at least 1`
  }
  if (timeouts.headersMs > timeouts.requestMs) return "the headers timeout cannot be longer than the request timeout"
  return timeouts.uploadMs !== undefined && timeouts.uploadMs < timeouts.requestMs
    ? "the upload timeout cannot be shorter than the request timeout"
    : undefined
}

/**
 * The `node:http` options for `timeouts`. Node checks the header and request deadlines on a timer
 * (`connectionsCheckingInterval`, 30 s by default, which would let a 1 s deadline run to 30 s); it runs here at a
 * quarter of the shorter deadline, at most every 5 s.
 */
export const serverTimeoutOptions = (timeouts: HttpTimeouts): ServerOptions => ({
  headersTimeout: timeouts.headersMs,
  // Node's deadline is the whole server's: the longest, the uploads'; `guardRequestDeadline` holds the others to theirs.
  requestTimeout: Math.max(timeouts.requestMs, timeouts.uploadMs ?? timeouts.requestMs),
  connectionsCheckingInterval: Math.max(
    10,
    Math.min(5_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4))
  )
})

const announcesBody = (request: IncomingMessage): boolean => {
  const length = request.headers["content-length"]
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length.trim() !== "0")
}

const ignore = () => {}

/**
 * Cuts off the connection of a request whose body pauses longer than `bodyIdleMs`, with Node's documented socket
 * timeout: armed when a request announcing a body arrives, disarmed when the body has been read. A request that
 * has arrived whole and waits for its answer is never cut (a slow tool call is not a slow client): Node destroys a
 * timed-out socket only when nobody listens on the request, the response or the server, and the request is
 * told only while it is incomplete.
 */
export const guardBodyIdle = (request: IncomingMessage, response: ServerResponse, bodyIdleMs: number): void => {
  if (!announcesBody(request)) return
  const socket = request.socket
  request.setTimeout(bodyIdleMs, () => socket.destroy())
  response.on("timeout", ignore)
  request.once("end", () => socket.setTimeout(0))
}

const UPLOAD = /\/v1\/media(?:\/uploads\/[^?]+)?(?:\?|$)/

/** Whether a request is a media upload, which gets `uploadMs` (its path may sit under a public URL's base path). */
export const isUpload = (request: IncomingMessage): boolean =>
  (request.method === "POST" || request.method === "PUT") && UPLOAD.test(request.url ?? "")

/**
 * Holds a request that is not an upload to `requestMs` while Node's own deadline is the uploads' longer one: a body
 * still arriving `requestMs` after the request came in is cut off, as Node would. Disarmed once the body is read.
 */
export const guardRequestDeadline = (request: IncomingMessage, timeouts: HttpTimeouts): void => {
  if ((timeouts.uploadMs ?? timeouts.requestMs) <= timeouts.requestMs || !announcesBody(request) || isUpload(request)) {
    return
  }
  const socket = request.socket
  const timer = setTimeout(() => socket.destroy(), timeouts.requestMs)
  const disarm = () => clearTimeout(timer)
  request.once("end", disarm)
  request.once("close", disarm)
}
