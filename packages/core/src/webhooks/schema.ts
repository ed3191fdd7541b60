import { Schema } from "effect"
import type { EventRecord } from "../events/schema.js"
import type { AttemptOutcome, LoggedAttempt } from "./attempt.js"
import { WEBHOOK_EVENT_GROUPS, type WebhookEventType } from "./event-types.js"

/**
 * Why a webhook is off: its owner turned it off, or it failed for 3 days. `gone` is only found on webhooks an
 * earlier version turned off at a 410; nothing sets it now.
 */
export type DisabledReason = "owner" | "failing" | "gone"

/** A workspace's webhook as stored; the secrets stay sealed (see `WebhookSecrets`). */
export interface Webhook {
  readonly id: string
  readonly workspaceId: string
  readonly url: string
  /** Event types, or `["*"]` for every type including ones added later. */
  readonly events: ReadonlyArray<string>
  readonly description: string | null
  readonly enabled: boolean
  readonly disabledReason: DisabledReason | null
  readonly secretSealed: string
  /** The secret before the last roll, signing too until `previousSecretUntil`. */
  readonly previousSecretSealed: string | null
  readonly previousSecretUntil: Date | null
  /** The first failed attempt since the last success; null while healthy. */
  readonly failingSince: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** The columns a management call may change; a field left out is kept. */
export interface WebhookChanges {
  readonly url?: string
  readonly events?: ReadonlyArray<string>
  readonly description?: string | null
  /** `true` turns it on (clearing the reason and the failing clock), `false` turns it off with reason `owner`. */
  readonly enabled?: boolean
}

/** A delivery of one event to one webhook, as the management routes need it. */
export interface DeliveryState {
  readonly id: string
  readonly webhookId: string
  readonly workspaceId: string
  readonly eventId: string
  readonly status: "pending" | "sending" | "done" | "failed"
  readonly leaseUntil: Date | null
  readonly webhookEnabled: boolean
}

/** One try of a delivery with its delivery's current state (the delivery log). */
export interface AttemptView extends Omit<LoggedAttempt, "outcome"> {
  readonly id: string
  readonly deliveryId: string
  readonly eventId: string
  readonly eventType: string
  readonly attempt: number
  readonly trigger: "scheduled" | "resend"
  // As stored: a log row written by a later version may carry an outcome this one does not know.
  readonly outcome: AttemptOutcome | string
  readonly attemptedAt: Date
  readonly deliveryStatus: DeliveryState["status"]
  readonly nextAttemptAt: Date | null
}

/** An event of the log with the envelope bytes it was sent as (null for events written before webhooks). */
export interface StoredEvent extends EventRecord {
  readonly body: string | null
}

/**
 * Event types whose source exists today; the rest of the catalog can be subscribed to already. A test reads the
 * core's sources for the types events are written with and keeps this list equal to them.
 */
export const EMITTED_EVENT_TYPES: ReadonlySet<WebhookEventType> = new Set<WebhookEventType>([
  "purchase.created",
  "purchase.refunded",
  "purchase.membership_ended",
  "membership.renewed",
  "membership.cancelled",
  "customer.created",
  "affiliate_sale.created",
  "lead.created",
  "contact.tagged",
  "form.completed",
  "cohort_signup.created",
  "lesson.completed",
  "lesson_question.created",
  "review.created",
  "testimonial.created",
  "paid_question.created",
  "post.published",
  "post.failed"
])

/** Longest receiver URL accepted. */
export const WEBHOOK_URL_MAX = 2048
/** Longest description accepted. */
export const WEBHOOK_DESCRIPTION_MAX = 500
/** Longest grace period of a rolled secret, in seconds (one day). */
export const ROLL_GRACE_MAX_SECONDS = 86_400

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })

/** A webhook as the store API answers it (never with its secret, except `WebhookWithSecret`). */
export const WebhookRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Webhook id (wh_…)." }),
  url: Schema.String.annotations({
    description: "The receiver as it is called: https, a public host name, normalised by the URL parser."
  }),
  events: Schema.Array(Schema.String).annotations({
    description: 'Subscribed event types, or ["*"] for every type including ones added later.'
  }),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  disabled_reason: Schema.NullOr(Schema.Literal("owner", "failing", "gone")).annotations({
    description:
      "Why it is off: owner (PATCH enabled false) or failing (3 days of nothing but failures; the owner is emailed). " +
      "gone: turned off at a 410 by an earlier version."
  }),
  failing_since: Schema.NullOr(iso).annotations({
    description: "The first failed attempt since the last success; null while healthy."
  }),
  created_at: iso,
  updated_at: iso
})

/** A webhook with its signing secret: the answer of create and roll, the only times it is shown. */
export const WebhookWithSecret = Schema.Struct({
  ...WebhookRow.fields,
  secret: Schema.String.annotations({ description: "The signing secret (whsec_…); shown only now." })
})

/** One row of `GET /webhooks/<id>/deliveries`. */
export const AttemptRow = Schema.Struct({
  id: Schema.String.annotations({
    description: "The attempt's id (att_…); POST /deliveries/<id>/resend takes it, as it takes delivery_id."
  }),
  delivery_id: Schema.String.annotations({ description: "The delivery (dlv_…) this attempt belongs to." }),
  event_id: Schema.String,
  event_type: Schema.String,
  attempt: Schema.Int.annotations({ description: "1 for the first try; counts again from 1 after a resend." }),
  trigger: Schema.Literal("scheduled", "resend"),
  outcome: Schema.String.annotations({
    description: "delivered, http_error, redirect, gone, timeout, network or blocked_address."
  }),
  response_code: Schema.NullOr(Schema.Int),
  latency_ms: Schema.Int,
  response: Schema.NullOr(Schema.String).annotations({ description: "The answer's body, cut at 4 KB." }),
  location: Schema.NullOr(Schema.String).annotations({ description: "Where a redirect pointed (never followed)." }),
  error: Schema.NullOr(Schema.String),
  attempted_at: iso,
  status: Schema.Literal("pending", "sending", "done", "failed").annotations({
    description: "The delivery's current status."
  }),
  next_attempt_at: Schema.NullOr(iso).annotations({ description: "When a pending delivery is tried next." })
})

const envelopeDescription = "The event envelope as it is sent: id, type, created_at, store { handle }, data."

/** An event envelope: `{ id, type, created_at, store: { handle }, data }`. */
export const EventEnvelope = Schema.Struct({
  id: Schema.String.annotations({ description: "Event id (evt_…)." }),
  type: Schema.String,
  created_at: iso,
  store: Schema.Struct({ handle: Schema.NullOr(Schema.String) }),
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    // The generated schema repeats the `unknown` `$id`, which OpenAPI validators refuse.
    jsonSchema: { type: "object", description: "The fields of the matching feed row." }
  })
}).annotations({ description: envelopeDescription })

/** The catalog of event types, grouped, each saying whether something emits it today. */
export const EventTypeGroups = Schema.Array(
  Schema.Struct({
    group: Schema.String,
    events: Schema.Array(
      Schema.Struct({
        type: Schema.String,
        emitted: Schema.Boolean.annotations({ description: "Whether the service emits this type today." })
      })
    )
  })
)

/** The grouped catalog as `GET /webhook-events` answers it. */
export const eventTypeGroups = () =>
  WEBHOOK_EVENT_GROUPS.map((g) => ({
    group: g.group,
    events: g.types.map((type) => ({ type, emitted: EMITTED_EVENT_TYPES.has(type) }))
  }))
