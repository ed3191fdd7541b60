/**
 * The process's own gauges, read when `/metrics` is scraped: the event loop's delay and the database pool.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import type { PoolReading } from "@svc/adapters/sql"
import { Effect, Metric, MetricLabel, type Scope } from "effect"

/** The event loop's delay over the time since the previous scrape, by quantile (`1` is the largest seen). */
export const eventLoopDelaySeconds = Metric.gauge("svc_event_loop_delay_seconds", {
  description: "Event loop delay since the previous scrape, in seconds, by quantile (0.5, 0.9, 0.99; 1 is the maximum)"
})

/** Database connections by state. */
export const dbPoolConnections = Metric.gauge("svc_db_pool_connections", {
  description: "Database pool connections by state: max (the pool's size), open, in_use (PostgreSQL only)"
})

/** Statements and transactions waiting for a pooled connection. */
export const dbPoolWaiting = Metric.gauge("svc_db_pool_waiting", {
  description: "Statements and transactions waiting for a database pool connection (PostgreSQL only)"
})

const QUANTILES = [0.5, 0.9, 0.99] as const
const quantileGauges = QUANTILES.map(
  (quantile) =>
    [
      quantile,
      Metric.taggedWithLabels(eventLoopDelaySeconds, [MetricLabel.make("quantile", String(quantile))])
    ] as const
)
const maxGauge = Metric.taggedWithLabels(eventLoopDelaySeconds, [MetricLabel.make("quantile", "1")])
const connectionGauge = (state: string) =>
  Metric.taggedWithLabels(dbPoolConnections, [MetricLabel.make("state", state)])
const poolMax = connectionGauge("max")
const poolOpen = connectionGauge("open")
const poolInUse = connectionGauge("in_use")

/**
 * Samples the event loop's delay while the scope is open (Node's `monitorEventLoopDelay`, every 10 ms) and answers
 * the effect that sets the gauges from the samples since the previous call, then starts a new window. A window
 * without samples leaves the gauges as they were.
 */
export const eventLoopDelayGauges: Effect.Effect<Effect.Effect<void>, never, Scope.Scope> = Effect.map(
  Effect.acquireRelease(
    Effect.sync(() => {
      const histogram = monitorEventLoopDelay({ resolution: 10 })
      histogram.enable()
      return histogram
    }),
    (histogram) => Effect.sync(() => histogram.disable())
  ),
  (histogram) =>
    Effect.suspend(() => {
      if (histogram.count === 0) return Effect.void
      const seconds = (nanoseconds: number) => nanoseconds / 1e9
      const sets = [
        ...quantileGauges.map(([quantile, gauge]) => Metric.set(gauge, seconds(histogram.percentile(quantile * 100)))),
        Metric.set(maxGauge, seconds(histogram.max))
      ]
      histogram.reset()
      return Effect.all(sets, { discard: true })
    })
)

/** Sets the pool gauges from one reading. */
export const setPoolGauges = (reading: PoolReading): Effect.Effect<void> =>
  Effect.all(
    [
      Metric.set(poolMax, reading.max),
      Metric.set(poolOpen, reading.open),
      Metric.set(poolInUse, reading.inUse),
      Metric.set(dbPoolWaiting, reading.waiting)
    ],
    { discard: true }
  )
