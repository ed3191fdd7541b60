import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import {
  type ClaimedDelivery,
  DELIVERY_WAKE_CHANNEL,
  DeliveryQueue,
  type DeliveryTrigger,
  type FinishedDelivery
} from "@svc/core/webhooks"
import { Duration, Effect, Layer, Option, Queue, Schedule, Stream } from "effect"
import { DeliveryPolling } from "../config.js"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface ClaimRow {
  readonly id: string
  readonly webhook_id: string
  readonly workspace_id: string
  readonly event_id: string
  readonly event_type: string
  readonly attempts: number
  readonly trigger: DeliveryTrigger
  readonly lease_until: Date
  readonly claim_token: string
  readonly url: string
  readonly secret_sealed: string
  readonly previous_secret_sealed: string | null
  readonly previous_secret_until: Date | null
  readonly failing_since: Date | null
  readonly body: string | null
}

const toClaimed = (row: ClaimRow): ClaimedDelivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  workspaceId: row.workspace_id,
  eventId: row.event_id,
  eventType: row.event_type,
  body: row.body,
  url: row.url,
  secretSealed: row.secret_sealed,
  previousSecretSealed: row.previous_secret_sealed,
  previousSecretUntil: row.previous_secret_until,
  webhookFailingSince: row.failing_since,
  attempts: row.attempts,
  trigger: row.trigger,
  claimToken: row.claim_token,
  leaseUntil: row.lease_until
})

// One ended delivery as a row of `finishMany`'s JSON parameter.
const finishedRow = ({ deliveryId, claimToken, attempt, next }: FinishedDelivery) => ({
  delivery_id: deliveryId,
  claim_token: claimToken,
  status: next.status,
  next_at: next.at.toISOString(),
  attempt_id: attempt?.id ?? null,
  attempt: attempt?.number ?? null,
  trigger: attempt?.trigger ?? null,
  outcome: attempt?.outcome ?? null,
  response_code: attempt?.responseCode ?? null,
  latency_ms: attempt === null ? null : Math.round(attempt.latencyMs),
  response: attempt?.response ?? null,
  location: attempt?.location ?? null,
  error: attempt?.error ?? null,
  attempted_at: attempt?.attemptedAt.toISOString() ?? null
})

/** How long an idle worker waits between looks at the queue: short on PGlite, a fallback beside LISTEN on PostgreSQL. */
export interface DeliveryQueueSqlOptions {
  /** Poll interval when the engine cannot wake workers (PGlite); default 500 ms. */
  readonly pollMs?: number | undefined
  /** Poll interval beside LISTEN/NOTIFY on PostgreSQL, for a missed notification; default 2 s. */
  readonly listenPollMs?: number | undefined
}

/**
 * `DeliveryQueue` over SQL. Claims are one `UPDATE … RETURNING` over rows locked with `SKIP LOCKED`, so
 * concurrent workers on one PostgreSQL take different deliveries; each claim sets a lease and a fresh token,
 * and a result is written only while the token still holds the row. Times come from the caller's `Clock`.
 *
 * Waking: on PostgreSQL (a `PgClient`) workers LISTEN on `DELIVERY_WAKE_CHANNEL`, which the event log
 * notifies when it queues deliveries, with a short poll beside it; on PGlite they poll.
 */
export const makeDeliveryQueueSql = (options: DeliveryQueueSqlOptions = {}) =>
  Layer.scoped(
    DeliveryQueue,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const lean = yield* LeanSql
      const pg = yield* Effect.serviceOption(PgClient.PgClient)
      // A `DeliveryPolling` layer (the server's `SVC_WEBHOOK_POLL_MS`) overrides both intervals.
      const override = (yield* DeliveryPolling).pollMs
      const pollMs = override ?? options.pollMs ?? 500
      const listenPollMs = override ?? options.listenPollMs ?? 2_000
      const scope = yield* Effect.scope
      const wake = yield* Queue.sliding<void>(1)

      // Opened on the first wait, so processes that never deliver (CLI commands, tests) hold no extra connection.
      const startListening = yield* Effect.once(
        Option.match(pg, {
          onNone: () => Effect.void,
          onSome: (client) =>
            client.listen(DELIVERY_WAKE_CHANNEL).pipe(
              Stream.runForEach(() => Queue.offer(wake, undefined)),
              Effect.tapErrorCause((cause) =>
                Effect.logWarning("webhook wake-ups: LISTEN failed; polling until it is back", cause)
              ),
              Effect.retry(Schedule.spaced(Duration.seconds(5))),
              Effect.forkIn(scope),
              Effect.asVoid
            )
        })
      )

      const awaitWork = (maxMs: number): Effect.Effect<void> =>
        Option.isNone(pg)
          ? Effect.sleep(Duration.millis(Math.min(maxMs, pollMs)))
          : startListening.pipe(
              Effect.zipRight(
                Effect.race(Queue.take(wake), Effect.sleep(Duration.millis(Math.min(maxMs, listenPollMs))))
              )
            )

      return {
        // Webhooks are visited in an order shuffled per claim (by the token), each giving at most its cap
        // minus what is in flight, so a backlog on one cannot starve another. Whether a webhook has anything due
        // is one probe of its open index (LIMIT 1): written as EXISTS, the planner turned it into a hash join
        // over every due row whenever the table's statistics lagged behind a burst of events, and the drain
        // slowed as the backlog grew (2,000 queued: ~400 deliveries/s; 6,000: ~80). Each webhook's due
        // deliveries come in index order (no tie-break column), so a claim reads a few rows, not the whole
        // backlog. Locking the webhook row (NO KEY: the event log's inserts still pass) keeps two claimers from
        // filling one cap twice.
        claim: (request) =>
          lean<ClaimRow>`
            UPDATE webhook_deliveries AS d
            SET status = 'sending', lease_until = ${request.leaseUntil}, claim_token = ${request.claimToken}
            FROM (
              SELECT c.id
              FROM (
                SELECT w.id FROM webhooks w
                CROSS JOIN LATERAL (
                  SELECT 1 FROM webhook_deliveries x
                  WHERE x.webhook_id = w.id AND x.status IN ('pending', 'sending')
                    AND x.next_attempt_at <= ${request.now}
                    AND (x.status = 'pending' OR x.lease_until <= ${request.now})
                  LIMIT 1
                ) AS due
                WHERE w.enabled
                ORDER BY md5(w.id || ${request.claimToken})
                FOR NO KEY UPDATE OF w SKIP LOCKED
              ) AS hook
              CROSS JOIN LATERAL (
                SELECT x.id FROM webhook_deliveries x
                WHERE x.webhook_id = hook.id AND x.status IN ('pending', 'sending')
                  AND x.next_attempt_at <= ${request.now}
                  AND (x.status = 'pending' OR x.lease_until <= ${request.now})
                ORDER BY x.next_attempt_at
                LIMIT GREATEST(0, ${request.perWebhookLimit}::int - (
                  SELECT count(*) FROM webhook_deliveries s
                  WHERE s.webhook_id = hook.id AND s.status = 'sending' AND s.lease_until > ${request.now}
                ))
                FOR UPDATE SKIP LOCKED
              ) AS c
              LIMIT ${request.limit}
            ) AS picked, webhooks AS w
            WHERE d.id = picked.id AND w.id = d.webhook_id
            RETURNING d.id, d.webhook_id, d.workspace_id, d.event_id, d.event_type, d.attempts, d.trigger,
                      d.lease_until, d.claim_token, w.url, w.secret_sealed, w.previous_secret_sealed,
                      w.previous_secret_until, w.failing_since, (SELECT e.body FROM events e WHERE e.id = d.event_id) AS body`.pipe(
            Effect.map((rows) => rows.map(toClaimed)),
            Effect.orDie,
            withSpan("DeliveryQueue.claim", { captureStackTrace: false })
          ),

        // One statement for a whole batch: the rows travel as one JSON parameter (any batch size, one plan), each
        // moved only while its token holds it, and the attempts of those moved logged in the same statement.
        finishMany: (finished) =>
          finished.length === 0
            ? Effect.succeed(new Set<string>())
            : lean<{ readonly id: string }>`
                WITH input AS (
                  SELECT * FROM jsonb_to_recordset(${JSON.stringify(finished.map(finishedRow))}::jsonb) AS i(
                    delivery_id text, claim_token text, status text, next_at timestamptz, attempt_id text,
                    attempt int, trigger text, outcome text, response_code int, latency_ms int, response text,
                    location text, error text, attempted_at timestamptz)
                ), moved AS (
                  UPDATE webhook_deliveries AS d
                  SET status = i.status, attempts = d.attempts + (CASE WHEN i.attempt_id IS NULL THEN 0 ELSE 1 END),
                      trigger = 'scheduled', lease_until = NULL, claim_token = NULL, next_attempt_at = i.next_at,
                      finished_at = CASE WHEN i.status = 'pending' THEN NULL ELSE i.next_at END
                  FROM input AS i
                  WHERE d.id = i.delivery_id AND d.claim_token = i.claim_token AND d.status = 'sending'
                  RETURNING d.id, d.webhook_id
                ), logged AS (
                  INSERT INTO webhook_attempts (id, delivery_id, webhook_id, attempt, trigger, outcome, response_code,
                                                latency_ms, response, location, error, attempted_at)
                  SELECT i.attempt_id, moved.id, moved.webhook_id, i.attempt, i.trigger, i.outcome, i.response_code,
                         i.latency_ms, i.response, i.location, i.error, i.attempted_at
                  FROM moved JOIN input AS i ON i.delivery_id = moved.id
                  WHERE i.attempt_id IS NOT NULL
                )
                SELECT id FROM moved`.pipe(
                Effect.map((rows) => new Set(rows.map((row) => row.id))),
                Effect.orDie,
                withSpan("DeliveryQueue.finishMany", { captureStackTrace: false })
              ),

        // Writes only when the clock runs, so the common success takes no lock on the webhook row.
        markHealthy: (webhookId) =>
          lean`UPDATE webhooks SET failing_since = NULL WHERE id = ${webhookId} AND failing_since IS NOT NULL`.pipe(
            Effect.asVoid,
            Effect.orDie
          ),

        markFailing: (webhookId, at) =>
          lean<{ readonly failing_since: Date }>`
            UPDATE webhooks SET failing_since = COALESCE(failing_since, ${at})
            WHERE id = ${webhookId} AND enabled
            RETURNING failing_since`.pipe(
            Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.failing_since)),
            Effect.orDie
          ),

        disable: (webhookId, reason, at) =>
          lean<{ readonly id: string; readonly workspace_id: string; readonly url: string; readonly email: string }>`
            UPDATE webhooks AS w SET enabled = false, disabled_reason = ${reason}, updated_at = ${at}
            FROM workspaces ws, accounts a
            WHERE w.id = ${webhookId} AND w.enabled AND ws.id = w.workspace_id AND a.id = ws.owner_id
            RETURNING w.id, w.workspace_id, w.url, a.email`.pipe(
            Effect.map((rows) =>
              Option.map(Option.fromNullable(rows[0]), (row) => ({
                webhookId: row.id,
                workspaceId: row.workspace_id,
                url: row.url,
                ownerEmail: row.email
              }))
            ),
            Effect.orDie
          ),

        // A transaction-level advisory lock per schema: one instance purges, the others skip this round.
        purgeBatch: (cutoff, limit) =>
          sql
            .withTransaction(
              Effect.gen(function* () {
                const [lock] = yield* lean<{ readonly locked: boolean }>`
                  SELECT pg_try_advisory_xact_lock(hashtext('svc/webhooks/purge/' || current_schema())) AS locked`
                if (lock?.locked !== true) return Option.none()
                // Deliveries first (attempts go with them), so no event is purged while a delivery needs its body.
                const deliveries = yield* lean`
                  DELETE FROM webhook_deliveries WHERE id IN (
                    SELECT id FROM webhook_deliveries WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${limit}
                  ) RETURNING id`
                const events =
                  deliveries.length < limit
                    ? yield* lean`
                        DELETE FROM events WHERE id IN (
                          SELECT id FROM events WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${limit}
                        ) RETURNING id`
                    : []
                return Option.some({ deliveries: deliveries.length, events: events.length })
              })
            )
            .pipe(Effect.orDie, withSpan("DeliveryQueue.purgeBatch")),

        awaitWork
      }
    })
  )

/** {@link makeDeliveryQueueSql} with its defaults (or the `DeliveryPolling` in use). */
export const DeliveryQueueSql = makeDeliveryQueueSql()
