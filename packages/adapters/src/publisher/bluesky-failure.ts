/** How a failed call to a PDS becomes an adapter's failure: which failures a later try can fix. */
import type { XRPCError } from "@atproto/api"
import { CallTimedOut, type FailureFields } from "./network-call.js"

/**
 * An error answer of the PDS, as `@atproto/api` throws it (`XRPCError`: the HTTP status, the XRPC error name, the
 * headers). Recognised by its shape rather than its class: the library is loaded only when first used
 * (bluesky-session.ts), and a second copy of `@atproto/xrpc` in a tree would fail an `instanceof` without a word.
 */
export const isXrpcError = (cause: unknown): cause is Pick<XRPCError, "status" | "error" | "headers" | "message"> =>
  cause instanceof Error &&
  "status" in cause &&
  typeof cause.status === "number" &&
  "error" in cause &&
  typeof cause.error === "string" &&
  "success" in cause &&
  cause.success === false

/**
 * XRPC error names that mean the account's credentials no longer open it, whatever the status they came with: a PDS
 * answers an expired or revoked token with 400 `ExpiredToken`/`InvalidToken`, a suspended account with
 * `AccountTakedown`, and an account with email sign-in codes with `AuthFactorTokenRequired` (never for an app password).
 */
const CREDENTIAL_ERRORS = new Set([
  "AuthenticationRequired",
  "ExpiredToken",
  "InvalidToken",
  "AccountTakedown",
  "AccountDeactivated",
  "AuthFactorTokenRequired"
])

/**
 * Maps what an `@atproto/api` call threw: 429 is `temporary` with the wait the PDS asked for; 401 and the credential
 * errors above are `credentials`; 5xx (and 408) are `temporary`; every other 4xx is `rejected` (an invalid record, a
 * blob over the lexicon's size). Anything that is not an answer (the connection refused or cut, a timeout) is
 * `temporary`.
 */
export const blueskyFailureOf = (doing: string, cause: unknown, nowMs: number): FailureFields => {
  if (cause instanceof CallTimedOut) {
    return {
      kind: "temporary",
      message: `${doing}: the server did not answer within ${Math.round(cause.afterMs / 1000)} s`
    }
  }
  if (isXrpcError(cause) && cause.status >= 400) {
    const status: number = cause.status
    const message = `${doing}: the server answered ${status} (${[cause.error, cause.message].filter(Boolean).join(": ")})`
    if (status === 429) {
      const retryAfterMs = retryAfter(cause.headers, nowMs)
      return { kind: "temporary", message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }
    }
    if (status === 401 || CREDENTIAL_ERRORS.has(cause.error)) return { kind: "credentials", message }
    if (status >= 500 || status === 408) return { kind: "temporary", message }
    return { kind: "rejected", message }
  }
  return { kind: "temporary", message: `${doing}: ${describe(cause)}` }
}

/** Whether a write was refused because a record is already at its key (`putRecord` with `swapRecord: null`). */
export const isRecordPresent = (cause: unknown): boolean => isXrpcError(cause) && cause.error === "InvalidSwap"

/** Whether a read found no record at its key. */
export const isRecordMissing = (cause: unknown): boolean =>
  isXrpcError(cause) && cause.status === 400 && cause.error === "RecordNotFound"

/**
 * The wait a 429 asks for: `Retry-After` (seconds or an HTTP date) where a proxy sent one, else the PDS's own
 * `RateLimit-Reset` (the end of the window, in seconds since the epoch; see `@atproto/xrpc-server`'s rate limiter).
 */
export const retryAfter = (
  headers: Readonly<Record<string, string | undefined>> | undefined,
  nowMs: number
): number | undefined => {
  if (headers === undefined) return undefined
  const header = (name: string) =>
    Object.entries(headers)
      .find(([key]) => key.toLowerCase() === name)?.[1]
      ?.trim()
  const retry = header("retry-after")
  if (retry !== undefined) {
    if (/^\d+$/.test(retry)) return Number(retry) * 1000
    const at = Date.parse(retry)
    if (Number.isFinite(at)) return Math.max(0, at - nowMs)
  }
  const reset = header("ratelimit-reset")
  if (reset !== undefined && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - nowMs)
  return undefined
}

/** The message of a network failure, with the system's code (`ECONNREFUSED`) that undici keeps in its cause. */
const describe = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause)
  let code = ""
  for (let inner: unknown = cause.cause; inner instanceof Error || isObject(inner); inner = causeOf(inner)) {
    if (isObject(inner) && typeof inner.code === "string") {
      code = ` (${inner.code})`
      break
    }
  }
  return `${cause.message}${code}`
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const causeOf = (value: unknown): unknown => (isObject(value) ? value.cause : undefined)
