import type { Option } from "effect"
import type { AttemptResult } from "./attempt.js"
import type { WebhookEnvelope } from "./envelope.js"
import type { WebhookEventType } from "./event-types.js"
import type { Webhook } from "./schema.js"

/** A webhook with its signing secret in clear: made, or its secret rolled; the only times the secret is shown. */
export interface WebhookWithSecretValue {
  readonly webhook: Webhook
  readonly secret: string
}

/** A rolled secret: the webhook with its new secret, and until when the old one signs too. */
export interface RolledSecret extends WebhookWithSecretValue {
  /** None when the old secret stopped at once. */
  readonly previousSecretExpiresAt: Option.Option<Date>
}

/** A sample event sent to a webhook: its id (never in the event log) and how the try ended. */
export interface TestSend {
  readonly eventId: string
  readonly result: AttemptResult
}

/** A delivery put back in the queue by a resend: pending, tried next at `nextAttemptAt`. */
export interface RequeuedDelivery {
  readonly id: string
  readonly webhookId: string
  readonly eventId: string
  readonly nextAttemptAt: Date
}

/** An event of the log with the envelope it is sent as (the events' wire, by design: its bytes never change). */
export interface LoggedEvent {
  readonly id: string
  readonly createdAt: Date
  readonly envelope: WebhookEnvelope
}

/** One group of the event catalog, each type saying whether something emits it today. */
export interface EventTypeGroup {
  readonly group: string
  readonly events: ReadonlyArray<{ readonly type: WebhookEventType; readonly emitted: boolean }>
}
