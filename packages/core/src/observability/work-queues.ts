import { Clock, Context, Effect, Metric, MetricLabel } from "effect"

/** One work queue as the database holds it at one moment. */
export interface WorkQueueReading {
  /** The worker that drains it (`workers.ts` of the server: webhooks, mail, publishing, ...). */
  readonly worker: string
  /** The queue's name, for a worker that drains more than one (auto-DM: inboxes and sends). */
  readonly queue: string
  /** Items due now that no live lease holds: what waits for a worker. */
  readonly depth: number
  /** How long the longest waiting of those has been due, in seconds; 0 when none waits. */
  readonly oldestDueSeconds: number
  /** Items still marked claimed whose lease has run out: the next claim takes each over (its holder stopped). */
  readonly expiredLeases: number
}

/**
 * Reads every work queue's depth, the age of its oldest due item and its expired leases, at `now`: a few cheap
 * statements, run when the metrics are scraped, never on a timer.
 */
export class WorkQueueGauges extends Context.Tag("svc/observability/WorkQueueGauges")<
  WorkQueueGauges,
  { readonly read: (now: Date) => Effect.Effect<ReadonlyArray<WorkQueueReading>> }
>() {}

/** Due items no worker holds yet, per worker and queue. */
export const workQueueDepth = Metric.gauge("svc_worker_queue_depth", {
  description: "Work items due now that no worker holds, by worker and queue"
})

/** How long the oldest due item has waited, per worker and queue. */
export const workQueueOldestSeconds = Metric.gauge("svc_worker_oldest_pending_seconds", {
  description: "Seconds since the oldest waiting work item fell due, by worker and queue (0 when none waits)"
})

/** Claimed items whose lease ran out, per worker and queue: each is taken over by the next claim. */
export const workQueueExpiredLeases = Metric.gauge("svc_worker_expired_leases", {
  description: "Work items still claimed whose lease has run out (their holder stopped), by worker and queue"
})

/** Reads the queues now (the `Clock`'s time) and sets the three gauges; run before each scrape. */
export const refreshWorkQueueGauges: Effect.Effect<void, never, WorkQueueGauges> = Effect.gen(function* () {
  const gauges = yield* WorkQueueGauges
  const now = yield* Clock.currentTimeMillis
  const readings = yield* gauges.read(new Date(now))
  for (const reading of readings) {
    const labels = [MetricLabel.make("worker", reading.worker), MetricLabel.make("queue", reading.queue)]
    yield* Metric.set(Metric.taggedWithLabels(workQueueDepth, labels), reading.depth)
    yield* Metric.set(Metric.taggedWithLabels(workQueueOldestSeconds, labels), reading.oldestDueSeconds)
    yield* Metric.set(Metric.taggedWithLabels(workQueueExpiredLeases, labels), reading.expiredLeases)
  }
})
