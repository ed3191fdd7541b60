import type { webhooks } from "../generated/store-api.js"
import type { WebhookHeaders } from "./headers.js"
import { type VerifyOptions, verifyAt, type WebhookEnvelope, WebhookVerificationError } from "./verify.js"

/** Every event type this client knows, from the store API document's `webhooks` section. */
export type WebhookEventType = keyof webhooks & string

/** The delivery of one event type: the envelope with its `type` fixed and its `data` typed. */
export type WebhookEventOf<T extends WebhookEventType> = webhooks[T]["post"] extends {
  readonly requestBody: { readonly content: { readonly "application/json": infer Body } }
}
  ? Body
  : never

/**
 * An event of a type this client does not know, sent by a newer server (a webhook subscribed to `*` gets every
 * type, including ones added later). Its `type` reads `"unknown"`, so that a `switch` on `event.type` still narrows
 * the known ones; the type the server sent is `received_type`, and `data` is left untyped.
 */
export interface UnknownWebhookEvent extends Omit<WebhookEnvelope, "type"> {
  readonly type: "unknown"
  readonly received_type: string
}

/** What `constructEvent` returns: one member per event type, narrowed by `event.type`, or an unknown one. */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType] | UnknownWebhookEvent

// The client's own list of the event types, held to the generated contract both ways: a type missing here or one
// the contract lacks fails the type check.
const KNOWN: { readonly [T in WebhookEventType]: true } = {
  "purchase.created": true,
  "purchase.refunded": true,
  "purchase.membership_ended": true,
  "membership.renewed": true,
  "membership.cancelled": true,
  "customer.created": true,
  "affiliate_sale.created": true,
  "lead.created": true,
  "contact.tagged": true,
  "form.completed": true,
  "booking.created": true,
  "booking.cancelled": true,
  "booking.rescheduled": true,
  "coaching_application.created": true,
  "lesson.completed": true,
  "lesson_question.created": true,
  "cohort_signup.created": true,
  "review.created": true,
  "testimonial.created": true,
  "paid_question.created": true,
  "post.published": true,
  "post.failed": true
}

/** Whether `type` is an event type this client knows. */
export const isWebhookEventType = (type: string): type is WebhookEventType => Object.hasOwn(KNOWN, type)

// The signature covers the body the server made from the contract's schemas, so a verified envelope of a known
// type is that type's event; its fields are not checked one by one.
const isEventOf = <T extends WebhookEventType>(
  envelope: WebhookEnvelope,
  type: T
): envelope is WebhookEventOf<T> & WebhookEnvelope => envelope.type === type

/** The typed event of a verified envelope; an unknown type becomes an `UnknownWebhookEvent`. */
export const eventOf = (envelope: WebhookEnvelope): WebhookEvent => {
  const { type } = envelope
  if (isWebhookEventType(type) && isEventOf(envelope, type)) return envelope
  return {
    id: envelope.id,
    type: "unknown",
    received_type: type,
    created_at: envelope.created_at,
    store: envelope.store,
    data: envelope.data
  }
}

/**
 * Verifies a delivery (as `verifyWebhook` does) and returns its typed event: `switch (event.type)` narrows `data`
 * to that type's fields. Rejects with a `WebhookVerificationError` when the delivery must not be trusted.
 */
export const constructEvent = async (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | ReadonlyArray<string>,
  options: VerifyOptions = {}
): Promise<WebhookEvent> => {
  const outcome = await verifyAt(rawBody, headers, secret, Date.now(), options)
  if (!outcome.ok) throw new WebhookVerificationError(outcome.reason, outcome.message)
  return eventOf(outcome.event)
}
