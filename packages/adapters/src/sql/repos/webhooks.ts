import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import {
  type AttemptView,
  DELIVERY_WAKE_CHANNEL,
  type DeliveryState,
  type DisabledReason,
  type StoredEvent,
  type Webhook,
  WebhooksRepo
} from "@svc/core/webhooks"
import { Effect, Layer, Option } from "effect"
import { jsonColumn, jsonObject } from "../json-column.js"
import { LeanSql } from "../lean.js"

interface WebhookRow {
  readonly id: string
  readonly workspace_id: string
  readonly url: string
  readonly events: unknown
  readonly description: string | null
  readonly enabled: boolean
  readonly disabled_reason: DisabledReason | null
  readonly secret_sealed: string
  readonly previous_secret_sealed: string | null
  readonly previous_secret_until: Date | null
  readonly failing_since: Date | null
  readonly created_at: Date
  readonly updated_at: Date
}

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  workspaceId: row.workspace_id,
  url: row.url,
  events: jsonColumn(row.events) as ReadonlyArray<string>,
  description: row.description,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  secretSealed: row.secret_sealed,
  previousSecretSealed: row.previous_secret_sealed,
  previousSecretUntil: row.previous_secret_until,
  failingSince: row.failing_since,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

interface AttemptRow {
  readonly id: string
  readonly delivery_id: string
  readonly event_id: string
  readonly event_type: string
  readonly attempt: number
  readonly trigger: "scheduled" | "resend"
  readonly outcome: string
  readonly response_code: number | null
  readonly latency_ms: number
  readonly response: string | null
  readonly location: string | null
  readonly error: string | null
  readonly attempted_at: Date
  readonly status: DeliveryState["status"]
  readonly next_attempt_at: Date | null
}

const toAttempt = (row: AttemptRow): AttemptView & { readonly createdAt: Date } => ({
  id: row.id,
  deliveryId: row.delivery_id,
  eventId: row.event_id,
  eventType: row.event_type,
  attempt: Number(row.attempt),
  trigger: row.trigger,
  outcome: row.outcome,
  responseCode: row.response_code === null ? null : Number(row.response_code),
  latencyMs: Number(row.latency_ms),
  response: row.response,
  location: row.location,
  error: row.error,
  attemptedAt: row.attempted_at,
  deliveryStatus: row.status,
  nextAttemptAt: row.next_attempt_at,
  // The page key of the delivery log is the attempt time.
  createdAt: row.attempted_at
})

interface EventRow {
  readonly id: string
  readonly workspace_id: string
  readonly type: string
  readonly created_at: Date
  readonly data: unknown
  readonly body: string | null
}

const toEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  workspaceId: row.workspace_id,
  type: row.type,
  createdAt: row.created_at,
  data: jsonObject(row.data),
  body: row.body
})

/** `WebhooksRepo` over SQL: webhooks, the attempt log joined with its deliveries, and the event log. */
export const WebhooksRepoSql = Layer.effect(
  WebhooksRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    const one = (rows: ReadonlyArray<WebhookRow>) => Option.map(Option.fromNullable(rows[0]), toWebhook)

    return {
      create: (w, max) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              // Creates in one workspace count one after another (NO KEY UPDATE leaves foreign-key checks alone).
              yield* lean`SELECT id FROM workspaces WHERE id = ${w.workspaceId} FOR NO KEY UPDATE`
              const [counted] = yield* lean<{ readonly count: number }>`SELECT count(*)::int AS count FROM webhooks
                                                                       WHERE workspace_id = ${w.workspaceId}`
              if (Number(counted?.count ?? 0) >= max) return false
              yield* lean`INSERT INTO webhooks (id, workspace_id, url, events, description, enabled, disabled_reason,
                           secret_sealed, previous_secret_sealed, previous_secret_until, failing_since, created_at,
                           updated_at)
                         VALUES (${w.id}, ${w.workspaceId}, ${w.url}, ${JSON.stringify(w.events)}::jsonb,
                           ${w.description}, ${w.enabled}, ${w.disabledReason}, ${w.secretSealed},
                           ${w.previousSecretSealed}, ${w.previousSecretUntil}, ${w.failingSince}, ${w.createdAt},
                           ${w.updatedAt})`
              return true
            })
          )
          .pipe(Effect.orDie),
      find: (workspaceId, id) =>
        lean<WebhookRow>`SELECT * FROM webhooks WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      list: (workspaceId) =>
        lean<WebhookRow>`SELECT * FROM webhooks WHERE workspace_id = ${workspaceId}
                        ORDER BY created_at DESC, id DESC`.pipe(
          Effect.map((rows) => rows.map(toWebhook)),
          Effect.orDie
        ),
      update: (workspaceId, id, changes, at) => {
        const sets = [sql`updated_at = ${at}`]
        if (changes.url !== undefined) sets.push(sql`url = ${changes.url}`)
        if (changes.events !== undefined) sets.push(sql`events = ${JSON.stringify(changes.events)}::jsonb`)
        if (changes.description !== undefined) sets.push(sql`description = ${changes.description}`)
        // The right-hand sides read the row as it was, so only a real change moves the reason and the clock.
        if (changes.enabled === true) {
          sets.push(
            sql`enabled = true`,
            sql`disabled_reason = NULL`,
            sql`failing_since = CASE WHEN enabled THEN failing_since ELSE NULL END`
          )
        }
        if (changes.enabled === false) {
          sets.push(
            sql`enabled = false`,
            sql`disabled_reason = CASE WHEN enabled THEN 'owner' ELSE disabled_reason END`
          )
        }
        return sql<WebhookRow>`UPDATE webhooks SET ${sql.csv(sets)}
                               WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING *`.pipe(
          Effect.map(one),
          Effect.orDie
        )
      },
      rollSecret: (workspaceId, id, sealed, previousUntil, at) =>
        sql<WebhookRow>`UPDATE webhooks
                        SET secret_sealed = ${sealed},
                            previous_secret_sealed = ${previousUntil === null ? null : sql`secret_sealed`},
                            previous_secret_until = ${previousUntil},
                            updated_at = ${at}
                        WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING *`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      remove: (workspaceId, id) =>
        lean`DELETE FROM webhooks WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      listAttempts: (workspaceId, webhookId, range, page) => {
        const after = range.after ? sql`AND a.attempted_at > ${range.after}` : sql``
        const before = range.before ? sql`AND a.attempted_at < ${range.before}` : sql``
        const from = page.after ? sql`AND (a.attempted_at, a.id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<AttemptRow>`
          SELECT a.id, a.delivery_id, d.event_id, d.event_type, a.attempt, a.trigger, a.outcome, a.response_code,
                 a.latency_ms, a.response, a.location, a.error, a.attempted_at, d.status, d.next_attempt_at
          FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE a.webhook_id = ${webhookId} AND d.workspace_id = ${workspaceId} ${after} ${before} ${from}
          ORDER BY a.attempted_at DESC, a.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toAttempt), page.limit)),
          Effect.orDie
        )
      },
      lockDelivery: (workspaceId, id) =>
        lean<{
          readonly id: string
          readonly webhook_id: string
          readonly workspace_id: string
          readonly event_id: string
          readonly status: DeliveryState["status"]
          readonly lease_until: Date | null
          readonly enabled: boolean
        }>`SELECT d.id, d.webhook_id, d.workspace_id, d.event_id, d.status, d.lease_until, w.enabled
           FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.workspace_id = ${workspaceId}
             AND d.id = COALESCE((SELECT delivery_id FROM webhook_attempts WHERE id = ${id}), ${id})
           FOR UPDATE OF d`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              id: row.id,
              webhookId: row.webhook_id,
              workspaceId: row.workspace_id,
              eventId: row.event_id,
              status: row.status,
              leaseUntil: row.lease_until,
              webhookEnabled: row.enabled
            }))
          ),
          Effect.orDie
        ),
      requeue: (id, at) =>
        Effect.gen(function* () {
          // The claim token goes too: a worker that still thinks it holds the row cannot record over the resend.
          yield* lean`UPDATE webhook_deliveries
                     SET status = 'pending', next_attempt_at = ${at}, trigger = 'resend', attempts = 0,
                         lease_until = NULL, claim_token = NULL, finished_at = NULL
                     WHERE id = ${id}`
          // Wakes idle workers at commit; a non-empty payload, since @effect/sql-pg's `listen` drops empty ones.
          yield* lean`SELECT pg_notify(${DELIVERY_WAKE_CHANNEL}, 'resend')`
        }).pipe(Effect.orDie),
      listEvents: (workspaceId, filter, page) => {
        const after = filter.after ? sql`AND created_at > ${filter.after}` : sql``
        const before = filter.before ? sql`AND created_at < ${filter.before}` : sql``
        const from = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<EventRow>`SELECT id, workspace_id, type, created_at, data, body FROM events
                             WHERE workspace_id = ${workspaceId} AND type IN ${sql.in(filter.types)}
                               AND created_at >= ${filter.since} ${after} ${before} ${from}
                             ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toEvent), page.limit)),
          Effect.orDie
        )
      },
      findEvent: (workspaceId, id, since) =>
        lean<EventRow>`SELECT id, workspace_id, type, created_at, data, body FROM events
                      WHERE workspace_id = ${workspaceId} AND id = ${id} AND created_at >= ${since}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEvent)),
          Effect.orDie
        )
    }
  })
)
