import { SqlClient } from "@effect/sql"
import { type EventRecord, EventLog, pageOf } from "@svc/core"
import { Effect, Layer } from "effect"

interface EventRow {
  readonly id: string
  readonly workspace_id: string
  readonly type: string
  readonly created_at: Date
  readonly data: unknown
}

const toEvent = (row: EventRow): EventRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  type: row.type,
  createdAt: row.created_at,
  data: (typeof row.data === "string" ? JSON.parse(row.data) : row.data) as Record<string, unknown>
})

/** `EventLog` over SQL: appends join the caller's open transaction. */
export const EventLogSql = Layer.effect(
  EventLog,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      append: (event) =>
        sql`INSERT INTO events (id, workspace_id, type, created_at, data)
            VALUES (${event.id}, ${event.workspaceId}, ${event.type}, ${event.createdAt}, ${JSON.stringify(event.data)}::jsonb)`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      list: (workspaceId, filter, page) => {
        const type = filter.type ? sql`AND type = ${filter.type}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<EventRow>`SELECT id, workspace_id, type, created_at, data FROM events
                             WHERE workspace_id = ${workspaceId} ${type} ${after}
                             ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toEvent), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
