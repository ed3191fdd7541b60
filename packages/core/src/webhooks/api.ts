import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Schema } from "effect"
import { listQueryFields, PageOf, queryChoice, strict } from "../shared/list-wire.js"
import { WEBHOOK_EVENT_TYPES } from "./event-types.js"
import {
  AttemptRow,
  EventEnvelope,
  EventTypeGroups,
  ROLL_GRACE_MAX_SECONDS,
  WEBHOOK_DESCRIPTION_MAX,
  WebhookRow,
  WebhookWithSecret
} from "./schema.js"

const idPath = Schema.Struct({ id: Schema.String })
const ok = Schema.Literal(true)
const webhookAnswer = Schema.Struct({ ok, webhook: WebhookRow })

const events = Schema.Array(Schema.String.pipe(Schema.maxLength(100)))
  .pipe(Schema.maxItems(100))
  .annotations({
    description: 'Event types (GET /webhook-events), or ["*"] for every type including ones added later.'
  })
const url = Schema.String.annotations({
  description: "https address on the public internet (no user:password, no IP address, no local name)."
})
const description = Schema.NullOr(Schema.String.pipe(Schema.maxLength(WEBHOOK_DESCRIPTION_MAX))).annotations({
  description: `Up to ${WEBHOOK_DESCRIPTION_MAX} characters; null or "" clears it.`
})

/** `POST /webhooks/<id>/roll-secret`; the body may be left out. */
export const RollSecretBody = Schema.Struct({
  grace_seconds: Schema.optional(Schema.Int.pipe(Schema.between(0, ROLL_GRACE_MAX_SECONDS))).annotations({
    description: `0 (default): the old secret stops now; up to ${ROLL_GRACE_MAX_SECONDS}: both sign until then.`
  })
}).annotations(strict)

/** `POST /webhooks/<id>/test`; the body may be left out. */
export const TestWebhookBody = Schema.Struct({
  type: Schema.optional(Schema.String).annotations({
    description: "Event type of the sample; purchase.created by default."
  })
}).annotations(strict)

/**
 * Webhook management on the store API: the event catalog, webhooks and their secrets, test sends,
 * the delivery log with resend, and the event log of the last 30 days.
 */
export const WebhooksApiGroup = HttpApiGroup.make("webhooks")
  .add(HttpApiEndpoint.get("eventTypes", "/webhook-events").addSuccess(Schema.Struct({ ok, groups: EventTypeGroups })))
  .add(HttpApiEndpoint.get("list", "/webhooks").addSuccess(Schema.Struct({ ok, webhooks: Schema.Array(WebhookRow) })))
  .add(
    HttpApiEndpoint.post("create", "/webhooks")
      .setPayload(Schema.Struct({ url, events, description: Schema.optional(description) }).annotations(strict))
      .addSuccess(Schema.Struct({ ok, webhook: WebhookWithSecret }), { status: 201 })
  )
  .add(HttpApiEndpoint.get("get", "/webhooks/:id").setPath(idPath).addSuccess(webhookAnswer))
  .add(
    HttpApiEndpoint.patch("update", "/webhooks/:id")
      .setPath(idPath)
      .setPayload(
        Schema.Struct({
          url: Schema.optional(url),
          events: Schema.optional(events),
          description: Schema.optional(description),
          enabled: Schema.optional(Schema.Boolean).annotations({
            description: "false turns it off (reason owner); true turns it on and restarts its failure clock."
          })
        }).annotations(strict)
      )
      .addSuccess(webhookAnswer)
  )
  .add(
    HttpApiEndpoint.del("remove", "/webhooks/:id")
      .setPath(idPath)
      .addSuccess(Schema.Struct({ ok, id: Schema.String, deleted: Schema.Literal(true) }))
  )
  .add(
    HttpApiEndpoint.post("rollSecret", "/webhooks/:id/roll-secret")
      .setPath(idPath)
      .setPayload(RollSecretBody)
      .addSuccess(
        Schema.Struct({
          ok,
          webhook: WebhookWithSecret,
          previous_secret_expires_at: Schema.NullOr(Schema.String).annotations({
            description: "Until when the old secret signs too; null when it stopped at once."
          })
        })
      )
  )
  .add(
    HttpApiEndpoint.post("test", "/webhooks/:id/test")
      .setPath(idPath)
      .setPayload(
        Schema.Struct({
          type: Schema.optional(Schema.String).annotations({
            description: "Event type of the sample; purchase.created by default."
          })
        }).annotations(strict)
      )
      .addSuccess(
        Schema.Struct({
          ok,
          event_id: Schema.String.annotations({ description: "evt_test_…: not in the event log." }),
          delivered: Schema.Boolean,
          outcome: Schema.String,
          response_code: Schema.NullOr(Schema.Int),
          response: Schema.NullOr(Schema.String),
          latency_ms: Schema.Int,
          error: Schema.optional(Schema.String)
        })
      )
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/webhooks/:id/deliveries")
      .setPath(idPath)
      .setUrlParams(Schema.Struct(listQueryFields).annotations(strict))
      .addSuccess(PageOf(AttemptRow))
  )
  .add(
    HttpApiEndpoint.post("resend", "/deliveries/:id/resend")
      .setPath(idPath)
      .addSuccess(
        Schema.Struct({
          ok,
          delivery: Schema.Struct({
            id: Schema.String,
            webhook_id: Schema.String,
            event_id: Schema.String,
            status: Schema.Literal("pending"),
            next_attempt_at: Schema.String
          })
        })
      )
  )
  .add(
    HttpApiEndpoint.get("events", "/events")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          type: Schema.optional(
            queryChoice(WEBHOOK_EVENT_TYPES, "type must be an event type; GET /webhook-events lists them")
          ).annotations({
            description: "Only events of this type."
          })
        }).annotations(strict)
      )
      .addSuccess(PageOf(EventEnvelope))
  )
  .add(
    HttpApiEndpoint.get("event", "/events/:id")
      .setPath(idPath)
      .addSuccess(Schema.Struct({ ok, event: EventEnvelope }))
  )
