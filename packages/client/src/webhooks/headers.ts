// The client cannot import the core, so it keeps its own copy of the delivery's header names; a test holds them equal
// to `@svc/core/webhook-contract`.

/** `sha256=<hex>` signatures of `<timestamp>.<raw body>`, comma-separated while a rolled secret's grace period lasts. */
export const SIGNATURE_HEADER = "X-Svc-Signature"
/** When the attempt was signed, in milliseconds since the epoch. */
export const TIMESTAMP_HEADER = "X-Svc-Timestamp"
/** The event type; must match the body's `type`. */
export const EVENT_HEADER = "X-Svc-Event"
/** The event id; must match the body's `id`. */
export const EVENT_ID_HEADER = "X-Svc-Event-Id"

/** Request headers as fetch (`Headers`) or Node's `IncomingMessage.headers` give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** One header's value, whatever the case of its name. */
export const headerValue = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof Headers !== "undefined" && headers instanceof Headers) return headers.get(name) ?? undefined
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return typeof value === "string" ? value : value?.[0]
  }
  return undefined
}
