import { Clock, Effect, Either, Option } from "effect"
import { EVENT_HEADER, EVENT_ID_HEADER, RESPONSE_KEEP_BYTES, SIGNATURE_HEADER, TIMESTAMP_HEADER } from "./policy.js"
import { signedPayload } from "./envelope.js"
import { HttpSender } from "./ports.js"
import { signatureHeaderValue, WebhookSecrets } from "./secrets.js"

/** How one try ended; `delivered` is the only success. */
export type AttemptOutcome =
  | "delivered"
  | "http_error"
  | "redirect"
  | "gone"
  | "timeout"
  | "network"
  | "blocked_address"

/** What one try of a delivery did, as the delivery log keeps it. */
export interface AttemptResult {
  readonly outcome: AttemptOutcome
  /** The receiver's HTTP status; null when nothing was answered. */
  readonly responseCode: number | null
  readonly latencyMs: number
  /** The start of the answer's body, at most `RESPONSE_KEEP_BYTES`. */
  readonly response: string | null
  /** Where a 3xx pointed (never followed). */
  readonly location: string | null
  /** Why nothing usable was answered: the sender's failure class and message, or the status. */
  readonly error: string | null
  /** A 429's `Retry-After`, in ms, when it gave one. */
  readonly retryAfterMs: number | null
}

/** The part of a try the delivery log keeps (the `Retry-After` only steers the schedule). */
export type LoggedAttempt = Omit<AttemptResult, "retryAfterMs">

/** What to send: the stored body bytes and the secrets that sign them (current first). */
export interface SignedSend {
  readonly url: string
  readonly eventId: string
  readonly eventType: string
  readonly body: string
  readonly secrets: ReadonlyArray<string>
}

const keep = (text: string) => (text.length > RESPONSE_KEEP_BYTES ? text.slice(0, RESPONSE_KEEP_BYTES) : text)

const retryAfterMs = (value: string | undefined, now: number): number | null => {
  if (value === undefined) return null
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

/**
 * Signs the body with the attempt's own timestamp and sends it once through the SSRF-safe sender.
 * Never fails: every ending is an `AttemptResult` for the log.
 */
export const attemptDelivery = (send: SignedSend): Effect.Effect<AttemptResult, never, HttpSender | WebhookSecrets> =>
  Effect.gen(function* () {
    const sender = yield* HttpSender
    const secrets = yield* WebhookSecrets
    const timestamp = yield* Clock.currentTimeMillis
    const payload = signedPayload(timestamp, send.body)
    const digests = yield* Effect.forEach(send.secrets, (secret) => secrets.hmacSha256Hex(secret, payload))
    const sent = yield* Effect.either(
      sender.send({
        url: send.url,
        body: send.body,
        headers: {
          "content-type": "application/json",
          [SIGNATURE_HEADER]: signatureHeaderValue(digests),
          [TIMESTAMP_HEADER]: String(timestamp),
          [EVENT_HEADER]: send.eventType,
          [EVENT_ID_HEADER]: send.eventId
        }
      })
    )
    if (Either.isLeft(sent)) {
      const failure = sent.left
      const outcome: AttemptOutcome =
        failure.reason === "timeout"
          ? "timeout"
          : failure.reason === "blocked-address" || failure.reason === "invalid-url"
            ? "blocked_address"
            : "network"
      return {
        outcome,
        responseCode: null,
        latencyMs: failure.durationMs,
        response: null,
        location: null,
        error: `${failure.reason}: ${failure.message}`,
        retryAfterMs: null
      }
    }
    const answer = sent.right
    const status = answer.status
    const outcome: AttemptOutcome =
      status >= 200 && status < 300
        ? "delivered"
        : status === 410
          ? "gone"
          : status >= 300 && status < 400
            ? "redirect"
            : "http_error"
    const location = Option.getOrNull(Option.fromNullable(answer.headers.location))
    return {
      outcome,
      responseCode: status,
      latencyMs: answer.durationMs,
      response: keep(answer.body),
      location: outcome === "redirect" ? location : null,
      error:
        outcome === "delivered"
          ? null
          : outcome === "redirect"
            ? `redirect to ${location ?? "(no Location)"} not followed`
            : `HTTP ${status}`,
      retryAfterMs: status === 429 ? retryAfterMs(answer.headers["retry-after"], timestamp) : null
    }
  })
