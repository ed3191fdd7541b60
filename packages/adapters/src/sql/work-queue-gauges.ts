import type { SqlError } from "@effect/sql/SqlError"
import { WorkQueueGauges, type WorkQueueReading } from "@svc/core/observability"
import { withSpan } from "@svc/core/shared"
import { Effect, Layer } from "effect"
import { LeanSql } from "./lean.js"

/** What one queue's statement answers: one row. */
interface QueueRow {
  readonly depth: number
  readonly oldest: number | null
  readonly expired: number
}

/** One work queue: its worker and name, and the statement that measures it at `now`. */
interface Queue {
  readonly worker: string
  readonly queue: string
  readonly measure: (lean: LeanSql, now: Date) => Effect.Effect<ReadonlyArray<QueueRow>, SqlError>
}

// Each statement reads the rows a worker could still act on (the claim's own filters, as the repositories write
// them), counts those due and not held by a live lease, the age of the oldest of them, and those whose lease ran
// out while claimed (a claim token set, cleared by every release). Ages are seconds past the due time.
const QUEUES: ReadonlyArray<Queue> = [
  {
    worker: "webhooks",
    queue: "deliveries",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE due)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz - min(next_attempt_at) FILTER (WHERE due))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM (
        SELECT d.next_attempt_at, d.claim_token, d.lease_until,
               d.next_attempt_at <= ${now}::timestamptz
                 AND (d.status = 'pending' OR d.lease_until <= ${now}::timestamptz) AND w.enabled AS due
        FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.status IN ('pending', 'sending')
      ) AS live`
  },
  {
    worker: "instantHooks",
    queue: "hooks",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE due)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz - min(next_push_at) FILTER (WHERE due))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM (
        SELECT next_push_at, claim_token, lease_until,
               next_push_at <= ${now}::timestamptz AND (lease_until IS NULL OR lease_until <= ${now}::timestamptz) AS due
        FROM instant_hooks
      ) AS live`
  },
  {
    worker: "mail",
    queue: "outbox",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE next_attempt_at <= ${now}::timestamptz)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz
               - min(next_attempt_at) FILTER (WHERE next_attempt_at <= ${now}::timestamptz))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM mail_outbox WHERE status = 'pending'`
  },
  {
    worker: "sequences",
    queue: "enrolments",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE x.run_after <= ${now}::timestamptz)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz
               - min(x.run_after) FILTER (WHERE x.run_after <= ${now}::timestamptz))::float8 AS oldest,
             count(*) FILTER (WHERE x.claim_token IS NOT NULL AND x.lease_until <= ${now}::timestamptz)::int AS expired
      FROM store_email_sequence_enrolments x JOIN store_email_sequences s ON s.id = x.sequence_id
      WHERE x.state = 'active' AND s.state = 'active'`
  },
  {
    worker: "renewals",
    queue: "subscriptions",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE run_after <= ${now}::timestamptz)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz
               - min(run_after) FILTER (WHERE run_after <= ${now}::timestamptz))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM store_subscriptions WHERE state = 'active'`
  },
  {
    worker: "reviewRequests",
    queue: "review_requests",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE due_at <= ${now}::timestamptz)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz
               - min(due_at) FILTER (WHERE due_at <= ${now}::timestamptz))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM store_review_requests WHERE state = 'waiting'`
  },
  {
    worker: "askAnswers",
    queue: "jobs",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE run_after <= ${now}::timestamptz)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz
               - min(run_after) FILTER (WHERE run_after <= ${now}::timestamptz))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM custom_ai_ask_jobs`
  },
  {
    worker: "askCallbacks",
    queue: "callbacks",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE next_attempt_at <= ${now}::timestamptz)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz
               - min(next_attempt_at) FILTER (WHERE next_attempt_at <= ${now}::timestamptz))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM ask_callbacks WHERE status IN ('pending', 'sending')`
  },
  {
    worker: "routines",
    queue: "due",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz - min(next_run_at))::float8 AS oldest,
             0 AS expired
      FROM routines WHERE enabled AND next_run_at <= ${now}::timestamptz`
  },
  {
    worker: "routines",
    queue: "runs",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE run_after <= ${now}::timestamptz)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz
               - min(run_after) FILTER (WHERE run_after <= ${now}::timestamptz))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM routine_runs WHERE run_after IS NOT NULL`
  },
  {
    worker: "publishing",
    queue: "deliveries",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE due)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz - min(next_attempt_at) FILTER (WHERE due))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM (
        SELECT next_attempt_at, claim_token, lease_until,
               next_attempt_at <= ${now}::timestamptz AND (lease_until IS NULL OR lease_until <= ${now}::timestamptz) AS due
        FROM post_deliveries WHERE status = 'pending'
      ) AS live`
  },
  {
    worker: "analytics",
    queue: "fetches",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE due)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz - min(next_fetch_at) FILTER (WHERE due))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM (
        SELECT next_fetch_at, claim_token, lease_until,
               next_fetch_at <= ${now}::timestamptz AND (lease_until IS NULL OR lease_until <= ${now}::timestamptz) AS due
        FROM post_metric_fetches WHERE next_fetch_at IS NOT NULL
      ) AS live`
  },
  {
    worker: "autoDm",
    queue: "inboxes",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE due)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz - min(next_poll_at) FILTER (WHERE due))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM (
        SELECT i.next_poll_at, i.claim_token, i.lease_until,
               i.next_poll_at <= ${now}::timestamptz
                 AND (i.lease_until IS NULL OR i.lease_until <= ${now}::timestamptz) AS due
        FROM auto_dm_inboxes i
        WHERE EXISTS (SELECT 1 FROM auto_dm_rules r WHERE r.account_id = i.account_id AND r.enabled)
      ) AS live`
  },
  {
    worker: "autoDm",
    queue: "sends",
    measure: (lean, now) => lean<QueueRow>`
      SELECT count(*) FILTER (WHERE due)::int AS depth,
             EXTRACT(EPOCH FROM ${now}::timestamptz - min(next_attempt_at) FILTER (WHERE due))::float8 AS oldest,
             count(*) FILTER (WHERE claim_token IS NOT NULL AND lease_until <= ${now}::timestamptz)::int AS expired
      FROM (
        SELECT next_attempt_at, claim_token, lease_until,
               next_attempt_at <= ${now}::timestamptz AND (lease_until IS NULL OR lease_until <= ${now}::timestamptz) AS due
        FROM auto_dm_sends WHERE status = 'pending'
      ) AS live`
  }
]

/** The names of the queues {@link WorkQueueGaugesSql} reads, as `worker/queue`. */
export const WORK_QUEUES: ReadonlyArray<string> = QUEUES.map(({ worker, queue }) => `${worker}/${queue}`)

/**
 * `WorkQueueGauges` over SQL: one read-only statement per queue, a few at a time. Queues are shared by every
 * instance on the database, so each instance reports the same numbers: aggregate them with `max`, not `sum`.
 */
export const WorkQueueGaugesSql = Layer.effect(
  WorkQueueGauges,
  Effect.map(LeanSql, (lean) => ({
    read: (now) =>
      Effect.forEach(
        QUEUES,
        ({ worker, queue, measure }) =>
          Effect.map(
            measure(lean, now),
            (rows): WorkQueueReading => ({
              worker,
              queue,
              depth: Number(rows[0]?.depth ?? 0),
              oldestDueSeconds: Math.max(0, Number(rows[0]?.oldest ?? 0)),
              expiredLeases: Number(rows[0]?.expired ?? 0)
            })
          ),
        { concurrency: 4 }
      ).pipe(Effect.orDie, withSpan("WorkQueueGauges.read", { captureStackTrace: false }))
  }))
)
