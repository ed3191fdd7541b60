import { type Effect, Metric, MetricBoundaries } from "effect"

/**
 * How a recorded try of a delivery ended, as counted: `delivered` (a 2xx), `retrying` (it failed and another try is
 * scheduled), `failed` (it failed and was the last try the schedule allows: the delivery has failed), `gave_up`
 * (nothing was sent: the event is no longer stored, so the delivery failed without a try).
 */
export type DeliveryMetricOutcome = "delivered" | "retrying" | "failed" | "gave_up"

/** Tries of webhook deliveries recorded by this process, by `outcome`. */
export const webhookDeliveries = Metric.counter("svc_webhook_deliveries_total", {
  description: "Webhook delivery tries recorded, by outcome (delivered, retrying, failed, gave_up)",
  incremental: true
})

/** How long each send took, from the first DNS lookup to the answer's end (or the failure), in seconds. */
export const webhookDeliverySeconds = Metric.histogram(
  "svc_webhook_delivery_seconds",
  // 5 ms … ~20 s: a receiver on the same network up to the 10 s deadline.
  MetricBoundaries.exponential({ start: 0.005, factor: 2, count: 12 }),
  "Time of one webhook send, from the address lookup to the end of the answer or the failure, in seconds"
)

const counters = {
  delivered: Metric.tagged(webhookDeliveries, "outcome", "delivered"),
  retrying: Metric.tagged(webhookDeliveries, "outcome", "retrying"),
  failed: Metric.tagged(webhookDeliveries, "outcome", "failed"),
  gave_up: Metric.tagged(webhookDeliveries, "outcome", "gave_up")
} satisfies Record<DeliveryMetricOutcome, Metric.Metric.Counter<number>>

/** Counts `count` recorded tries that ended in `outcome`. */
export const countDeliveries = (outcome: DeliveryMetricOutcome, count = 1): Effect.Effect<void> =>
  Metric.incrementBy(counters[outcome], count)

/** Records how long one send took, in ms. */
export const recordDeliveryTime = (ms: number): Effect.Effect<void> => Metric.update(webhookDeliverySeconds, ms / 1000)
