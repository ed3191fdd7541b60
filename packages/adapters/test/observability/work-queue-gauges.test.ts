/**
 * The work queues' gauges read from the database at scrape time (docs/metrics.md): every queue's statement runs on
 * the engine, and on the mail outbox a due item, one not due yet, one under a live lease, one whose lease ran out
 * and one already sent are told apart; the core sets its gauges from the reading at the `Clock`'s time.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import {
  refreshWorkQueueGauges,
  workQueueDepth,
  workQueueExpiredLeases,
  workQueueOldestSeconds,
  WorkQueueGauges
} from "@svc/core/observability"
import { Effect, Layer, Metric, MetricLabel, TestClock } from "effect"
import { migrations } from "../../src/sql/migrations/index.js"
import { WORK_QUEUES, WorkQueueGaugesSql } from "../../src/sql/work-queue-gauges.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

const NOW = Date.parse("2026-05-04T10:00:00.000Z")
const at = (offsetSeconds: number) => new Date(NOW + offsetSeconds * 1000)

const TestLive = WorkQueueGaugesSql.pipe(Layer.provideMerge(testDatabaseLayer(migrations)))

/** One outbox row: its status, when it is due, and the lease it is held under, if any. */
const mail = (id: string, status: string, dueIn: number, lease?: { readonly until: number }) =>
  Effect.flatMap(
    SqlClient,
    (sql) => sql`
      INSERT INTO mail_outbox (id, workspace_id, kind, recipient, subject, body, created_at, status, next_attempt_at,
                               claim_token, lease_until)
      VALUES (${id}, 'ws_gauges', 'access', 'reader@example.org', 'subject', 'body', ${at(-3600)}, ${status},
              ${at(dueIn)}, ${lease === undefined ? null : `token_${id}`}, ${lease === undefined ? null : at(lease.until)})`
  )

const mailLabels = [MetricLabel.make("worker", "mail"), MetricLabel.make("queue", "outbox")]

layer(TestLive, { timeout: "60 seconds" })(`work queue gauges (${engineName})`, (it) => {
  it.effect("reads every queue, empty ones as zero", () =>
    Effect.gen(function* () {
      const readings = yield* Effect.flatMap(WorkQueueGauges, (gauges) => gauges.read(at(0)))
      expect(readings.map(({ worker, queue }) => `${worker}/${queue}`)).toEqual(WORK_QUEUES)
      expect(WORK_QUEUES).toEqual(
        expect.arrayContaining([
          "webhooks/deliveries",
          "instantHooks/hooks",
          "mail/outbox",
          "sequences/enrolments",
          "askAnswers/jobs",
          "routines/runs",
          "publishing/deliveries",
          "analytics/fetches",
          "autoDm/inboxes",
          "autoDm/sends"
        ])
      )
      for (const reading of readings) {
        expect(reading).toMatchObject({ depth: 0, oldestDueSeconds: 0, expiredLeases: 0 })
      }
    })
  )

  it.effect("counts what waits, how long the oldest has waited, and the leases that ran out", () =>
    Effect.gen(function* () {
      yield* mail("mail_due_30", "pending", -30)
      yield* mail("mail_due_10", "pending", -10)
      yield* mail("mail_later", "pending", 60)
      // A claim moves `next_attempt_at` to the lease's end: held, it is not due; ended, it is due again.
      yield* mail("mail_held", "pending", 60, { until: 60 })
      yield* mail("mail_lease_ran_out", "pending", -5, { until: -5 })
      yield* mail("mail_sent", "sent", -100)

      const readings = yield* Effect.flatMap(WorkQueueGauges, (gauges) => gauges.read(at(0)))
      const outbox = readings.find(({ worker }) => worker === "mail")
      expect(outbox).toEqual({ worker: "mail", queue: "outbox", depth: 3, oldestDueSeconds: 30, expiredLeases: 1 })

      // The core's refresh reads the queues at the Clock's time and sets the gauges.
      yield* TestClock.setTime(NOW + 15_000)
      yield* refreshWorkQueueGauges
      const gauge = (metric: typeof workQueueDepth) => Metric.value(Metric.taggedWithLabels(metric, mailLabels))
      expect((yield* gauge(workQueueDepth)).value).toBe(3)
      expect((yield* gauge(workQueueOldestSeconds)).value).toBe(45)
      expect((yield* gauge(workQueueExpiredLeases)).value).toBe(1)
    })
  )
})
