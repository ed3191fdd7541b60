import * as SqlClient from "@effect/sql/SqlClient"
import { type EventRecord, EventLog } from "@svc/core/events"
import { pageOf } from "@svc/core/shared"
import { DELIVERY_WAKE_CHANNEL, envelopeAround, isWebhookEventType } from "@svc/core/webhooks"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"
import { type EventRow, toEventRecord as toEvent } from "./event-rows.js"
import { withSpan } from "@svc/core/shared"

/**
 * `EventLog` over SQL. An append joins the caller's open transaction and, for a published event type,
 * makes the event's envelope bytes once and queues one delivery per enabled webhook of the workspace subscribed to the
 * type (`["*"]` matches every type), so a rolled-back change neither logs nor sends anything.
 */
export const EventLogSql = Layer.effect(
  EventLog,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Every change appends here, in its transaction: the fixed statements run lean.
    const lean = yield* LeanSql

    const append = (event: EventRecord) =>
      Effect.gen(function* () {
        const data = JSON.stringify(event.data)
        // The log also holds internal events (library changes): they get no envelope and are never sent,
        // even to a `["*"]` webhook.
        if (!isWebhookEventType(event.type)) {
          yield* lean`INSERT INTO events (id, workspace_id, type, created_at, data)
                     VALUES (${event.id}, ${event.workspaceId}, ${event.type}, ${event.createdAt}, ${data}::jsonb)`
          return
        }
        // One statement: the event with its envelope (the store's handle spliced in as JSON, `null` without a
        // store), one delivery per enabled webhook subscribed to the type (`["*"]` matches every type), and a
        // wake-up for the workers when any was queued. Three round trips fewer than a statement each, in the
        // transaction of every sale, customer and membership change. A delivery's id derives from the pair
        // (webhook, event), so it is as unique as the pair itself. NOTIFY is delivered at commit, so workers wake
        // only for deliveries that exist; its payload must not be empty (@effect/sql-pg's `listen` drops those).
        const { head, tail } = envelopeAround(event)
        yield* lean`
          WITH logged AS (
            INSERT INTO events (id, workspace_id, type, created_at, data, body)
            VALUES (${event.id}, ${event.workspaceId}, ${event.type}, ${event.createdAt}, ${data}::jsonb,
                    ${head}::text
                    || COALESCE((SELECT to_json(s.handle)::text FROM stores s WHERE s.workspace_id = ${event.workspaceId}),
                                'null')
                    || ${tail}::text)
          ), queued AS (
            INSERT INTO webhook_deliveries (id, webhook_id, workspace_id, event_id, event_type, status,
                                            next_attempt_at, created_at)
            SELECT 'dlv_' || substr(md5(w.id || ':' || ${event.id}), 1, 24), w.id, w.workspace_id, ${event.id},
                   ${event.type}, 'pending', ${event.createdAt}, ${event.createdAt}
            FROM webhooks w
            WHERE w.workspace_id = ${event.workspaceId} AND w.enabled
              AND (w.events @> '["*"]'::jsonb OR w.events @> ${JSON.stringify([event.type])}::jsonb)
            ON CONFLICT (webhook_id, event_id) DO NOTHING
            RETURNING 1
          )
          SELECT pg_notify(${DELIVERY_WAKE_CHANNEL}, 'queued') FROM (SELECT 1 FROM queued LIMIT 1) AS any_queued`
      }).pipe(Effect.orDie, withSpan("EventLog.append", { captureStackTrace: false }))

    return {
      append,
      list: (workspaceId, filter, page) => {
        const type = filter.type ? sql`AND type = ${filter.type}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<EventRow>`SELECT id, workspace_id, type, created_at, data FROM events
                             WHERE workspace_id = ${workspaceId} ${type} ${after}
                             ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toEvent), page.limit)),
          Effect.orDie
        )
      },
      // Oldest first on the `events_workspace_recent` index, read backwards.
      since: (workspaceId, filter, after, limit) => {
        if (filter.types !== undefined && filter.types.length === 0) return Effect.succeed([])
        const only = filter.types === undefined ? sql`` : sql`AND type IN ${sql.in(filter.types)}`
        const not =
          filter.excludeTypes === undefined || filter.excludeTypes.length === 0
            ? sql``
            : sql`AND type NOT IN ${sql.in(filter.excludeTypes)}`
        const from = after ? sql`AND (created_at, id) > (${after.createdAt}, ${after.id})` : sql``
        return sql<EventRow>`SELECT id, workspace_id, type, created_at, data FROM events
                             WHERE workspace_id = ${workspaceId} ${only} ${not} ${from}
                             ORDER BY created_at, id LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toEvent)),
          Effect.orDie,
          withSpan("EventLog.since", { captureStackTrace: false })
        )
      },
      find: (workspaceId, id) =>
        sql<EventRow>`SELECT id, workspace_id, type, created_at, data FROM events
                      WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]).pipe(Option.map(toEvent))),
          Effect.orDie
        )
    }
  })
)
