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
 * The envelope's text on either side of the store handle's JSON: `head + JSON.stringify(handle) + tail` is the
 * body. Storage that reads the handle itself can splice it in, writing the event in one statement with the very
 * bytes {@link envelopeBody} makes. The keys come in the order of {@link WebhookEnvelope}, as `JSON.stringify`
 * of the envelope object would write them.
 */
export const envelopeAround = (event: EventRecord): { readonly head: string; readonly tail: string } => ({
  head: `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"created_at":${JSON.stringify(
    event.createdAt.toISOString()
  )},"store":{"handle":`,
  tail: `},"data":${JSON.stringify(event.data)}}`
})

/**
 * The body bytes of an event, made once when the event is written and sent unchanged on every
 * attempt, so a signature a receiver checked once stays checkable on a resend.
 */
export const envelopeBody = (event: EventRecord, storeHandle: string | null): string => {
  const { head, tail } = envelopeAround(event)
  return `${head}${JSON.stringify(storeHandle)}${tail}`
}

/** The string a delivery's signature covers: `<timestamp ms>.<raw body>`. */
export const signedPayload = (timestampMs: number, body: string): string => `${timestampMs}.${body}`
