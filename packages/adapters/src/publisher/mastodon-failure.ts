/** How a failed call to a Mastodon instance becomes an adapter's failure: which failures a later try can fix. */
import { MastoHttpError, MastoTimeoutError } from "masto"
import { CallTimedOut, type FailureFields } from "./network-call.js"

/**
 * Maps what a masto call threw. The instance's `error` text is kept as the message, prefixed with what was being
 * done: 429 and 5xx (and 408) are `temporary`, 401 and 403 `credentials` (a revoked token, a disabled or unconfirmed
 * login), every other 4xx `rejected` (422 is a validation the post failed). Anything that is not an answer (the
 * connection refused or cut, a timeout, a proxy's HTML error page masto cannot read) is `temporary`.
 */
export const mastodonFailureOf = (doing: string, cause: unknown, nowMs: number): FailureFields => {
  if (cause instanceof MastoHttpError) {
    const status = cause.statusCode
    const message = `${doing}: the instance answered ${status}${cause.message ? ` (${cause.message})` : ""}`
    if (status === 429) {
      const retryAfterMs = retryAfter(headersOf(cause), nowMs)
      return { kind: "temporary", message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }
    }
    if (status === 401 || status === 403) return { kind: "credentials", message }
    if (status >= 500 || status === 408) return { kind: "temporary", message }
    return { kind: "rejected", message }
  }
  if (cause instanceof CallTimedOut || cause instanceof MastoTimeoutError) {
    const after = cause instanceof CallTimedOut ? ` within ${Math.round(cause.afterMs / 1000)} s` : ""
    return { kind: "temporary", message: `${doing}: the instance did not answer${after}` }
  }
  return {
    kind: "temporary",
    message: `${doing}: the instance could not be reached or gave no readable answer (${describe(cause)})`
  }
}

/**
 * The wait a 429 asks for. Mastodon's throttles send `X-RateLimit-Reset` (an ISO 8601 time, see
 * `config/initializers/rack_attack.rb`) and no `Retry-After`; a proxy in front may send `Retry-After` (seconds or an
 * HTTP date) instead.
 */
export const retryAfter = (headers: Headers | undefined, nowMs: number): number | undefined => {
  if (headers === undefined) return undefined
  const reset = headers.get("x-ratelimit-reset")
  if (reset !== null) {
    const at = Date.parse(reset)
    if (Number.isFinite(at)) return Math.max(0, at - nowMs)
  }
  const retry = headers.get("retry-after")
  if (retry !== null) {
    const trimmed = retry.trim()
    if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
    const at = Date.parse(trimmed)
    if (Number.isFinite(at)) return Math.max(0, at - nowMs)
  }
  return undefined
}

/** masto keeps the fetch `Response` of a refused call as the error's standard `cause`. */
const headersOf = (error: MastoHttpError): Headers | undefined =>
  error.cause instanceof Response ? error.cause.headers : undefined

/** The message of a network failure, with the system's code (`ECONNREFUSED`) that undici keeps in its cause. */
const describe = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause)
  const inner = cause.cause
  const code =
    typeof inner === "object" && inner !== null && "code" in inner && typeof inner.code === "string"
      ? ` (${inner.code})`
      : ""
  return `${cause.message}${code}`
}
