import { promises as dns } from "node:dns"
import {
  checkReceiverUrl,
  HttpSender,
  isLoopbackHost,
  isPublicAddress,
  refusalMessage,
  SendFailed
} from "@svc/core/webhooks"
import type { OutgoingRequest, SendFailureReason, SendOutcome } from "@svc/core/webhooks"
import { Effect, Layer, type Scope } from "effect"
import { OutboundSettings } from "./config.js"
import { type Dispatcher, errors } from "undici"
import { makeReceiverConnections, type ReceiverConnections, type ResolvedAddress } from "./connections.js"

export type { ResolvedAddress } from "./connections.js"

/** Settings of the SSRF-safe sender. */
export interface SenderOptions {
  /** Test-only: admit loopback receivers over plain http (SVC_WEBHOOKS_ALLOW_LOOPBACK). */
  readonly allowLoopback: boolean
  /** One deadline over DNS, connect, TLS and the body. */
  readonly timeoutMs: number
  /** How much of a response body is read; the rest is never downloaded. */
  readonly maxResponseBytes: number
  readonly userAgent: string
  /** How host names are resolved; the system resolver unless a test supplies one. */
  readonly resolve?: (host: string) => Promise<ReadonlyArray<ResolvedAddress>>
  /**
   * How long an idle connection to a receiver is kept for its next send, in ms (default
   * {@link DEFAULT_KEEP_ALIVE_MS}); 0 opens a new connection per send.
   */
  readonly keepAliveMs?: number
  /**
   * Connections open at once to one receiver (origin and checked address), default
   * {@link DEFAULT_CONNECTIONS_PER_ORIGIN}; further sends to it wait for one, within their deadline.
   */
  readonly maxConnectionsPerOrigin?: number
}

/** Default of {@link SenderOptions.keepAliveMs}: under Node's 5 s server default, the shortest common one. */
export const DEFAULT_KEEP_ALIVE_MS = 4_000
/** Default of {@link SenderOptions.maxConnectionsPerOrigin}. */
export const DEFAULT_CONNECTIONS_PER_ORIGIN = 64
// Receivers (origin and address) with connections kept.
const MAX_KEPT_ORIGINS = 256

/** A kept connection that the receiver closed as it was reused, before any answer. */
class ConnectionLost extends Error {
  readonly code = "ECONNRESET"
  constructor() {
    super("the receiver closed a kept-alive connection before answering")
  }
}

// Node's or undici's error code (`ECONNRESET`, `ERR_TLS_…`, `UND_ERR_…`), or "" for an error without one.
const codeOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error ? String(error.code) : ""

// A connection closed by the other side before it answered, after earlier answers came on it: a kept one, reused.
const isKeptClosedUnderUs = (error: unknown): boolean =>
  error instanceof errors.SocketError && (error.socket?.bytesRead ?? 0) > 0

const systemResolve = async (host: string): Promise<ReadonlyArray<ResolvedAddress>> =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4
  }))

const reasonOf = (error: unknown): SendFailureReason => {
  const code = codeOf(error)
  if (code === "ABORT_ERR" || code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return "timeout"
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") return "dns"
  if (
    code.startsWith("ERR_TLS") ||
    code.startsWith("ERR_SSL") ||
    code.includes("CERT") ||
    code.includes("SELF_SIGNED")
  ) {
    return "tls"
  }
  if (
    code.startsWith("HPE_") ||
    code === "ERR_INVALID_HTTP_RESPONSE" ||
    code === "UND_ERR_INFO" ||
    code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH" ||
    code === "UND_ERR_HEADERS_OVERFLOW"
  ) {
    return "protocol"
  }
  return "connect"
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Builds the sender: check, resolve, check every address, pin, send, read a capped answer. Its kept connections
 * close with the scope.
 */
export const makeSsrfSafeSender = (options: SenderOptions): Effect.Effect<HttpSender["Type"], never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() =>
        makeReceiverConnections({
          idleMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
          maxOrigins: MAX_KEPT_ORIGINS,
          maxPerOrigin: options.maxConnectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN,
          connectTimeoutMs: options.timeoutMs
        })
      ),
      (connections) => Effect.promise(connections.closeAll)
    ),
    (connections) => senderOver(options, connections)
  )

const senderOver = (options: SenderOptions, connections: ReceiverConnections): HttpSender["Type"] => {
  const resolve = options.resolve ?? systemResolve

  const sendOnce = async (request: OutgoingRequest, signal: AbortSignal, started: number): Promise<SendOutcome> => {
    const fail = (reason: SendFailureReason, message: string) =>
      new SendFailed({ reason, message, durationMs: Math.round(performance.now() - started) })
    const checked = checkReceiverUrl(request.url, { allowLoopback: options.allowLoopback })
    if (!checked.ok)
      throw fail(checked.refusal === "not-a-url" ? "invalid-url" : "blocked-address", refusalMessage[checked.refusal])
    const { url } = checked
    const host = url.hostname.replace(/^\[|\]$/g, "")
    const addresses: ReadonlyArray<ResolvedAddress> = /^[\d.]+$|:/.test(host)
      ? [{ address: host, family: host.includes(":") ? 6 : 4 }]
      : await Promise.race([
          resolve(host),
          new Promise<never>((_, reject) =>
            signal.addEventListener("abort", () => reject(signal.reason), { once: true })
          )
        ])
    // Every address must pass: a name that also points inside our network is refused, not half-trusted.
    const admitted = (a: ResolvedAddress) =>
      isPublicAddress(a.address) || (options.allowLoopback && isLoopbackHost(a.address))
    if (addresses.length === 0) throw fail("dns", `${host} has no address`)
    if (!addresses.every(admitted)) throw fail("blocked-address", `${host}: ${refusalMessage["non-public-address"]}`)
    const pinned = addresses[0] as ResolvedAddress
    // The connection goes to the address we checked, whatever DNS says a moment later (DNS rebinding).
    const pool = connections.poolFor(url, pinned)
    if (pool === undefined) return alone(url, request, pinned, signal, started, fail)
    return post(pool, url, request, pinned, signal, started, fail).catch((error: unknown) => {
      // A kept connection the receiver closed as we reused it: the request never got an answer, so it goes again
      // on a new connection of its own (once; a receiver may see it twice, as deliveries are at least once).
      if (!(error instanceof ConnectionLost) || signal.aborted) throw error
      return alone(url, request, pinned, signal, started, fail)
    })
  }

  // One send on a connection of its own, closed after it.
  const alone = async (
    url: URL,
    request: OutgoingRequest,
    pinned: ResolvedAddress,
    signal: AbortSignal,
    started: number,
    fail: (reason: SendFailureReason, message: string) => SendFailed
  ) => {
    const own = connections.ownConnection(url, pinned)
    try {
      return await post(own, url, request, pinned, signal, started, fail, true)
    } finally {
      void own.destroy().catch(() => undefined)
    }
  }

  const post = async (
    dispatcher: Dispatcher,
    url: URL,
    request: OutgoingRequest,
    pinned: ResolvedAddress,
    signal: AbortSignal,
    started: number,
    fail: (reason: SendFailureReason, message: string) => SendFailed,
    own = false
  ): Promise<SendOutcome> => {
    let answer: Dispatcher.ResponseData
    try {
      answer = await dispatcher.request({
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { ...request.headers, "user-agent": options.userAgent },
        body: request.body,
        signal,
        // The one deadline is the signal's; the pool's own timeouts would cut it shorter or longer.
        headersTimeout: 0,
        bodyTimeout: 0,
        // Never follows a redirect (undici does not unless told), and a connection of its own is not kept.
        reset: own
      })
    } catch (error) {
      if (!own && isKeptClosedUnderUs(error)) throw new ConnectionLost()
      throw fail(signal.aborted ? "timeout" : reasonOf(error), messageOf(error))
    }
    const chunks: Array<Buffer> = []
    let size = 0
    let truncated = false
    try {
      for await (const chunk of answer.body) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
        const room = options.maxResponseBytes - size
        if (bytes.length > room) {
          chunks.push(bytes.subarray(0, room))
          size += room
          truncated = true
          // The rest is never read, so the connection cannot be reused: destroyed, not kept.
          answer.body.destroy()
          break
        }
        chunks.push(bytes)
        size += bytes.length
      }
    } catch (error) {
      throw fail(signal.aborted ? "timeout" : reasonOf(error), messageOf(error))
    }
    // undici frees the connection for the next request a turn of the event loop after the answer's end; a send that
    // came right after this one would otherwise find it busy and open another.
    if (!truncated && !own) await new Promise((done) => setImmediate(done))
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value
    }
    return {
      status: answer.statusCode,
      headers,
      body: Buffer.concat(chunks).toString("utf8"),
      bodyTruncated: truncated,
      durationMs: Math.round(performance.now() - started),
      address: pinned.address
    }
  }

  return HttpSender.of({
    send: (request) =>
      Effect.tryPromise({
        try: (interrupted) => {
          const started = performance.now()
          // One controller for the deadline and the fiber's interruption (a cancelled delivery holds no socket), its
          // timer cleared when the send ends: `AbortSignal.timeout` would keep one timer alive per send for 10 s.
          const abort = new AbortController()
          let timedOut = false
          const timer = setTimeout(() => {
            timedOut = true
            abort.abort(new Error(`no answer within ${options.timeoutMs} ms`))
          }, options.timeoutMs)
          const onInterrupt = () => abort.abort(interrupted.reason)
          interrupted.addEventListener("abort", onInterrupt, { once: true })
          return sendOnce(request, abort.signal, started)
            .catch((error: unknown) => {
              if (error instanceof SendFailed) {
                throw timedOut
                  ? new SendFailed({
                      reason: "timeout",
                      message: `no answer within ${options.timeoutMs} ms`,
                      durationMs: error.durationMs
                    })
                  : error
              }
              throw new SendFailed({
                reason: timedOut ? "timeout" : reasonOf(error),
                message: timedOut ? `no answer within ${options.timeoutMs} ms` : messageOf(error),
                durationMs: Math.round(performance.now() - started)
              })
            })
            .finally(() => {
              clearTimeout(timer)
              interrupted.removeEventListener("abort", onInterrupt)
            })
        },
        catch: (error) =>
          error instanceof SendFailed
            ? error
            : new SendFailed({ reason: "connect", message: messageOf(error), durationMs: 0 })
      })
  })
}

/** The sender with the service's defaults: 10 s deadline, 64 KiB read, loopback only with the test switch (`OutboundSettings`). */
export const HttpSenderLive = Layer.scoped(
  HttpSender,
  Effect.gen(function* () {
    const { allowLoopback } = yield* OutboundSettings
    if (allowLoopback) {
      yield* Effect.logWarning(
        "loopback allowed (SVC_WEBHOOKS_ALLOW_LOOPBACK=true, or allowLoopback when embedding): outgoing requests may reach loopback addresses over plain http. Use this only in development and tests."
      )
    }
    return yield* makeSsrfSafeSender({
      allowLoopback,
      timeoutMs: 10_000,
      maxResponseBytes: 64 * 1024,
      userAgent: "svc-webhooks/1.0"
    })
  })
)
