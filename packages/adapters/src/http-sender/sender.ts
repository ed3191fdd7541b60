import { promises as dns } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
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
import { makeReceiverConnections, pinnedLookup, type ReceiverConnections, type ResolvedAddress } from "./connections.js"

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
}

/** Default of {@link SenderOptions.keepAliveMs}: under Node's 5 s server default, the shortest common one. */
export const DEFAULT_KEEP_ALIVE_MS = 4_000
// Receivers (origin and address) with connections kept, and idle connections kept per receiver: the worker sends
// at most 4 at once per webhook by default, so 8 idle ones cover two webhooks on one receiver without a handshake.
const MAX_KEPT_ORIGINS = 256
const MAX_IDLE_PER_ORIGIN = 8

/** A kept connection that the receiver closed as it was reused, before any answer. */
class ConnectionLost extends Error {
  readonly code = "ECONNRESET"
  constructor() {
    super("the receiver closed a kept-alive connection before answering")
  }
}

// Node's error code (`ECONNRESET`, `ERR_TLS_…`), or "" for an error without one.
const codeOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error ? String(error.code) : ""

// How a connection closed by the other side shows on a request written to it.
const isClosedUnderUs = (error: unknown): boolean => {
  const code = codeOf(error)
  return code === "ECONNRESET" || code === "EPIPE"
}

const systemResolve = async (host: string): Promise<ReadonlyArray<ResolvedAddress>> =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4
  }))

const reasonOf = (error: unknown): SendFailureReason => {
  const code = codeOf(error)
  if (code === "ABORT_ERR" || code === "ETIMEDOUT") return "timeout"
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") return "dns"
  if (
    code.startsWith("ERR_TLS") ||
    code.startsWith("ERR_SSL") ||
    code.includes("CERT") ||
    code.includes("SELF_SIGNED")
  ) {
    return "tls"
  }
  if (code.startsWith("HPE_") || code === "ERR_INVALID_HTTP_RESPONSE") return "protocol"
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
          maxIdlePerOrigin: MAX_IDLE_PER_ORIGIN
        })
      ),
      (connections) => Effect.sync(connections.closeAll)
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
    const agent = connections.agentFor(url, pinned)
    const outcome = post(url, request, pinned, agent, signal, started, fail)
    if (agent === false) return outcome
    return outcome.catch((error: unknown) => {
      // A kept connection the receiver closed as we reused it: the request never got an answer, so it goes again
      // on a new connection of its own (once; a receiver may see it twice, as deliveries are at least once).
      if (!(error instanceof ConnectionLost) || signal.aborted) throw error
      return post(url, request, pinned, false, signal, started, fail)
    })
  }

  const post = (
    url: URL,
    request: OutgoingRequest,
    pinned: ResolvedAddress,
    agent: http.Agent | false,
    signal: AbortSignal,
    started: number,
    fail: (reason: SendFailureReason, message: string) => SendFailed
  ) =>
    new Promise<SendOutcome>((done, reject) => {
      const client = url.protocol === "https:" ? https : http
      let answered = false
      const outgoing = client.request(
        url,
        {
          method: "POST",
          headers: {
            ...request.headers,
            "user-agent": options.userAgent,
            "content-length": Buffer.byteLength(request.body)
          },
          lookup: pinnedLookup(pinned),
          signal,
          agent
        },
        (response) => {
          answered = true
          const chunks: Array<Buffer> = []
          let size = 0
          let truncated = false
          const finish = () => {
            const headers: Record<string, string> = {}
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value
            }
            done({
              status: response.statusCode ?? 0,
              headers,
              body: Buffer.concat(chunks).toString("utf8"),
              bodyTruncated: truncated,
              durationMs: Math.round(performance.now() - started),
              address: pinned.address
            })
          }
          response.on("data", (chunk: Buffer) => {
            if (truncated) return
            const room = options.maxResponseBytes - size
            if (chunk.length > room) {
              chunks.push(chunk.subarray(0, room))
              size += room
              truncated = true
              // The rest is never read, so the connection cannot be reused: destroyed, not kept.
              response.destroy()
              finish()
              return
            }
            chunks.push(chunk)
            size += chunk.length
          })
          response.on("end", () => {
            if (!truncated) finish()
          })
          response.on("error", (error) => {
            if (!truncated) reject(fail(reasonOf(error), messageOf(error)))
          })
        }
      )
      outgoing.on("error", (error) => {
        if (outgoing.reusedSocket && !answered && isClosedUnderUs(error)) reject(new ConnectionLost())
        else reject(fail(signal.aborted ? "timeout" : reasonOf(error), messageOf(error)))
      })
      outgoing.end(request.body)
    })

  return HttpSender.of({
    send: (request) =>
      Effect.tryPromise({
        try: (interrupted) => {
          const started = performance.now()
          const deadline = AbortSignal.timeout(options.timeoutMs)
          // Interrupting the fiber aborts the request too, so a cancelled delivery holds no socket.
          const signal = AbortSignal.any([deadline, interrupted])
          return sendOnce(request, signal, started).catch((error: unknown) => {
            if (error instanceof SendFailed) {
              throw deadline.aborted
                ? new SendFailed({
                    reason: "timeout",
                    message: `no answer within ${options.timeoutMs} ms`,
                    durationMs: error.durationMs
                  })
                : error
            }
            throw new SendFailed({
              reason: deadline.aborted ? "timeout" : reasonOf(error),
              message: deadline.aborted ? `no answer within ${options.timeoutMs} ms` : messageOf(error),
              durationMs: Math.round(performance.now() - started)
            })
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
