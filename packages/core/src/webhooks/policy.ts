/** The numbers of webhook delivery, in one place (spec: "Delivery", "Limits"). */

/** Webhooks one workspace may have; the next create answers 422. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20

/** One deadline over DNS, connect, TLS and the answer; a 2xx inside it completes a delivery. */
export const DELIVERY_DEADLINE_MS = 10_000

/** Waits before each retry after the first attempt: 1 m, 5 m, 30 m, 2 h, 6 h, 12 h, 24 h; then it has failed. */
export const RETRY_DELAYS_MS: ReadonlyArray<number> = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000
]

/** Attempts a delivery gets from the schedule: the first plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1

/** A webhook whose deliveries have done nothing but fail for this long is turned off and its owner emailed. */
export const DISABLE_AFTER_FAILING_MS = 3 * 86_400_000

/** How much of a receiver's answer is kept in the delivery log. */
export const RESPONSE_KEEP_BYTES = 4096

/** Events and deliveries older than this are purged. */
export const RETENTION_MS = 30 * 86_400_000

/** Header names of a delivery. */
export const SIGNATURE_HEADER = "X-Svc-Signature"
export const TIMESTAMP_HEADER = "X-Svc-Timestamp"
export const EVENT_HEADER = "X-Svc-Event"
export const EVENT_ID_HEADER = "X-Svc-Event-Id"

/** The PostgreSQL NOTIFY channel that wakes delivery workers when new deliveries commit. */
export const DELIVERY_WAKE_CHANNEL = "svc_webhook_deliveries"
