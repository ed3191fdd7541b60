/**
 * What the research sources share about HTTP: a GET whose answer is read up to a size cap, a deadline on every call
 * of a source, and how an outside system's misbehaviour (no answer, 5xx, 429, a refused key) becomes a
 * {@link SourceFailure} rather than a defect.
 */
import { SourceFailure } from "@svc/core/research"
import { Clock, Duration, Effect } from "effect"
import { addressRefusalOf } from "../http-sender/checked-fetch.js"
import { retryAfter } from "../publisher/bluesky-failure.js"

/** The longest a source call may take unless its settings say otherwise. */
export const DEFAULT_DEADLINE: Duration.Duration = Duration.seconds(10)

/** The most of an answer read before it is given up as too large (5 MB). */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024

/** An answer as read: status, headers, the final URL (after redirects) and the body as text. */
export interface HttpAnswer {
  readonly status: number
  readonly headers: Headers
  readonly url: string
  readonly body: string
}

/** A failure of kind `unavailable` with `message`. */
export const unavailable = (message: string) => new SourceFailure({ kind: "unavailable", message })

/** A failure of kind `refused` with `message`. */
export const refused = (message: string) => new SourceFailure({ kind: "refused", message })

/** A failure of kind `rate-limited`, with the wait when one is known. */
export const rateLimited = (message: string, retryAfterMs: number | undefined) =>
  new SourceFailure({
    kind: "rate-limited",
    message,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs: Math.max(0, Math.round(retryAfterMs)) })
  })

/**
 * Bounds a whole source call (every request it makes, discovery included) by `deadline`: past it, the requests in
 * flight are aborted and the call fails `unavailable`.
 */
export const withDeadline =
  (label: string, deadline: Duration.Duration) =>
  <A, R>(effect: Effect.Effect<A, SourceFailure, R>): Effect.Effect<A, SourceFailure, R> =>
    Effect.timeoutFail(effect, {
      duration: deadline,
      onTimeout: () => unavailable(`${label} did not answer within ${Duration.format(deadline)}`)
    })

/** Options of {@link httpGet}. */
export interface HttpGetOptions {
  readonly fetch: typeof fetch
  /** Names the system in messages: `the feed at https://…`, `YouTube`. */
  readonly label: string
  readonly headers?: Readonly<Record<string, string>>
  /** The most of the body read (default {@link DEFAULT_MAX_BYTES}). */
  readonly maxBytes?: number
}

/**
 * GETs `url` and reads the answer whatever its status (the caller decides what a 404 means). Fails `unavailable` when
 * no answer came (refused connection, an address the checked fetch refuses, a cut stream) or the body is over the
 * cap. Interrupting the effect (a deadline) aborts the request.
 */
export const httpGet = (url: string, options: HttpGetOptions): Effect.Effect<HttpAnswer, SourceFailure> => {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  return Effect.tryPromise({
    try: async (signal) => {
      const response = await options.fetch(url, {
        method: "GET",
        headers: options.headers ?? {},
        signal,
        redirect: "follow"
      })
      const body = await readCapped(response, maxBytes)
      return body === undefined
        ? undefined
        : { status: response.status, headers: response.headers, url: response.url || url, body }
    },
    catch: (cause) => unavailable(`${options.label}: ${describe(cause)}`)
  }).pipe(
    Effect.flatMap((answer) =>
      answer === undefined
        ? Effect.fail(unavailable(`${options.label} answered more than ${Math.round(maxBytes / 1024)} KiB`))
        : Effect.succeed(answer)
    )
  )
}

/** The body as UTF-8 text, or undefined when it is over `maxBytes` (the rest is not read). */
const readCapped = async (response: Response, maxBytes: number): Promise<string | undefined> => {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN)
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel()
    return undefined
  }
  if (response.body === null) return ""
  const reader = response.body.getReader()
  const chunks: Array<Uint8Array> = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

/**
 * The failure an error status means: 429 `rate-limited` with the wait from `Retry-After` (or `RateLimit-Reset`);
 * 401 and 403 `refused`; anything else (5xx, an unexpected 4xx) `unavailable`.
 */
export const statusFailure = (label: string, answer: Pick<HttpAnswer, "status" | "headers">) =>
  Effect.map(Clock.currentTimeMillis, (now) => {
    const message = `${label} answered ${answer.status}`
    if (answer.status === 429) return rateLimited(message, retryAfter(Object.fromEntries(answer.headers), now))
    if (answer.status === 401 || answer.status === 403) return refused(message)
    return unavailable(message)
  })

/** What went wrong with a request that got no answer, with the system's code (`ECONNREFUSED`) where there is one. */
export const describe = (cause: unknown): string => {
  const refusal = addressRefusalOf(cause)
  if (refusal !== undefined) return refusal.message
  if (!(cause instanceof Error)) return String(cause)
  if (cause.name === "AbortError" || cause.name === "TimeoutError") return "the request was aborted"
  let detail: string | undefined
  for (let inner: unknown = cause.cause, depth = 0; depth < 6 && isObject(inner); inner = inner.cause, depth++) {
    if (typeof inner.code === "string") return `${cause.message} (${inner.code})`
    if (detail === undefined && typeof inner.message === "string" && inner.message !== "") detail = inner.message
  }
  return detail === undefined ? cause.message : `${cause.message} (${detail})`
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null
