import { Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import { creationKey, pageAnswer } from "../shared/list-query.js"
import { normalizedReceiverUrl } from "./address.js"
import type { AttemptView, Webhook } from "./schema.js"
import type {
  EventTypeGroup,
  LoggedEvent,
  RequeuedDelivery,
  RolledSecret,
  TestSend,
  WebhookWithSecretValue
} from "./webhook-view.js"

// The store API's wire form of the webhooks' values (snake_case, ISO times), which GraphQL answers too. Event
// envelopes are already their wire: they go out as they were stored.

/** The webhook's API fields. */
export const webhookJson = (webhook: Webhook) => ({
  id: webhook.id,
  url: normalizedReceiverUrl(webhook.url),
  events: [...webhook.events],
  description: webhook.description,
  enabled: webhook.enabled,
  disabled_reason: webhook.disabledReason,
  failing_since: webhook.failingSince?.toISOString() ?? null,
  created_at: webhook.createdAt.toISOString(),
  updated_at: webhook.updatedAt.toISOString()
})

/** An attempt's API fields. */
export const attemptJson = (a: AttemptView) => ({
  id: a.id,
  delivery_id: a.deliveryId,
  event_id: a.eventId,
  event_type: a.eventType,
  attempt: a.attempt,
  trigger: a.trigger,
  outcome: a.outcome,
  response_code: a.responseCode,
  latency_ms: a.latencyMs,
  response: a.response,
  location: a.location,
  error: a.error,
  attempted_at: a.attemptedAt.toISOString(),
  status: a.deliveryStatus,
  next_attempt_at: a.deliveryStatus === "pending" ? (a.nextAttemptAt?.toISOString() ?? null) : null
})

/** A webhook with its secret, shown only when made or rolled (`WebhookWithSecret`). */
export const webhookWithSecretJson = (made: WebhookWithSecretValue) => ({
  ...webhookJson(made.webhook),
  secret: made.secret
})

/** `GET /webhook-events`. */
export const eventTypesApiAnswer = (groups: ReadonlyArray<EventTypeGroup>) => ({ ok: true as const, groups })

/** `GET /webhooks`. */
export const webhookListApiAnswer = (webhooks: ReadonlyArray<Webhook>) => ({
  ok: true as const,
  webhooks: webhooks.map(webhookJson)
})

/** `GET` and `PATCH /webhooks/<id>`. */
export const webhookApiAnswer = (webhook: Webhook) => ({ ok: true as const, webhook: webhookJson(webhook) })

/** `POST /webhooks`: the new webhook with its secret. */
export const createdWebhookApiAnswer = (made: WebhookWithSecretValue) => ({
  ok: true as const,
  webhook: webhookWithSecretJson(made)
})

/** `DELETE /webhooks/<id>`. */
export const removedWebhookApiAnswer = (id: string) => ({ ok: true as const, id, deleted: true as const })

/** `POST /webhooks/<id>/roll-secret`. */
export const rolledSecretApiAnswer = (rolled: RolledSecret) => ({
  ok: true as const,
  webhook: webhookWithSecretJson(rolled),
  previous_secret_expires_at: Option.match(rolled.previousSecretExpiresAt, {
    onNone: () => null,
    onSome: (until) => until.toISOString()
  })
})

/** `POST /webhooks/<id>/test`: how the sample's one try ended. */
export const testSendApiAnswer = (sent: TestSend) => ({
  ok: true as const,
  event_id: sent.eventId,
  delivered: sent.result.outcome === "delivered",
  outcome: sent.result.outcome,
  response_code: sent.result.responseCode,
  response: sent.result.response,
  latency_ms: Math.round(sent.result.latencyMs),
  ...(sent.result.error === null ? {} : { error: sent.result.error })
})

/** A page of the delivery log, keyed by attempt time as the repository pages it (`GET /webhooks/<id>/deliveries`). */
export const deliveryPageJson = (page: Page<AttemptView>, request: PageRequest) =>
  pageAnswer(page, attemptJson, request, (a) => ({ createdAt: a.attemptedAt, id: a.id }))

/** `POST /deliveries/<id>/resend`. */
export const resentDeliveryApiAnswer = (delivery: RequeuedDelivery) => ({
  ok: true as const,
  delivery: {
    id: delivery.id,
    webhook_id: delivery.webhookId,
    event_id: delivery.eventId,
    status: "pending" as const,
    next_attempt_at: delivery.nextAttemptAt.toISOString()
  }
})

/** A page of the event log (`GET /events`): each event's envelope as sent. */
export const eventPageJson = (page: Page<LoggedEvent>, request: PageRequest) =>
  pageAnswer(page, (event) => event.envelope, request, creationKey)

/** `GET /events/<id>`. */
export const eventApiAnswer = (event: LoggedEvent) => ({ ok: true as const, event: event.envelope })
