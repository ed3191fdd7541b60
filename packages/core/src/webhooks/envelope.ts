import type { EventRecord } from "../events/schema.js"

/** The envelope a receiver gets: `{ id, type, created_at, store: { handle }, data }`. */
export interface WebhookEnvelope {
  readonly id: string
  readonly type: string
  readonly created_at: string
  readonly store: { readonly handle: string | null }
  readonly data: Readonly<Record<string, unknown>>
}

/**
 * The body bytes of an event, made once when the event is written and sent unchanged on every
 * attempt, so a signature a receiver checked once stays checkable on a resend.
 */
export const envelopeBody = (event: EventRecord, storeHandle: string | null): string =>
  JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    store: { handle: storeHandle },
    data: event.data
  } satisfies WebhookEnvelope)

/** The string a delivery's signature covers: `<timestamp ms>.<raw body>`. */
export const signedPayload = (timestampMs: number, body: string): string => `${timestampMs}.${body}`
