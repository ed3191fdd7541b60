// Webhook verification as Effect programs: the Promise face's verification itself (`verifyAt`), with now read from
// `Clock` (so a test moves time with `TestClock`) and a refusal failing as a tagged error.
import { Clock, Effect, Schema } from "effect"
import { eventOf, type WebhookEvent } from "../webhooks/events.js"
import type { WebhookHeaders } from "../webhooks/headers.js"
import { type VerifiedWebhook, type VerifyOptions, verifyAt } from "../webhooks/verify.js"

/** Why a delivery was not accepted. */
export const WebhookRejection = Schema.Literal(
  "missing_header",
  "bad_timestamp",
  "outside_tolerance",
  "bad_signature",
  "bad_body"
)

/** A delivery that must not be trusted; answer it with 400 (or 401) and do not act on it. */
export class WebhookVerificationError extends Schema.TaggedError<WebhookVerificationError>()(
  "WebhookVerificationError",
  { reason: WebhookRejection, message: Schema.String }
) {}

/**
 * Verifies a delivery over its raw body bytes (before any JSON parsing): the timestamp must be within the tolerance
 * of `Clock`'s now, and one of the `sha256=` signatures must equal the HMAC-SHA256 of `<timestamp>.<raw body>` under
 * one of the secrets (give both while a rolled secret's grace period lasts).
 */
export const verifyWebhookEffect = (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | ReadonlyArray<string>,
  options: VerifyOptions = {}
): Effect.Effect<VerifiedWebhook, WebhookVerificationError> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const outcome = yield* Effect.promise(() => verifyAt(rawBody, headers, secret, now, options))
    if (!outcome.ok) return yield* new WebhookVerificationError({ reason: outcome.reason, message: outcome.message })
    return { event: outcome.event, timestampMs: outcome.timestampMs }
  })

/** Verifies a delivery (see `verifyWebhookEffect`) and gives its typed event, as `constructEvent` does. */
export const constructEventEffect = (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | ReadonlyArray<string>,
  options: VerifyOptions = {}
): Effect.Effect<WebhookEvent, WebhookVerificationError> =>
  Effect.map(verifyWebhookEffect(rawBody, headers, secret, options), (verified) => eventOf(verified.event))
