import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import { ChatsRepo } from "@svc/core/workspace"
import { Effect, Layer } from "effect"

interface ChatSqlRow {
  readonly id: string
  readonly title: string
  readonly custom_ai_id: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

/** `ChatsRepo` over SQL: most recently active first, keyset on (updated_at, id). */
export const ChatsRepoSql = Layer.effect(
  ChatsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      list: (workspaceId, filter, page) => {
        const assistant = filter.customAIId === undefined ? sql`` : sql`AND custom_ai_id = ${filter.customAIId}`
        const after = page.after ? sql`AND (updated_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<ChatSqlRow>`
          SELECT id, title, custom_ai_id, created_at, updated_at FROM chats
          WHERE workspace_id = ${workspaceId} ${assistant} ${after}
          ORDER BY updated_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => {
            // Pages are keyed by activity, so the key's `createdAt` carries `updated_at`.
            const keyed = pageOf(
              rows.map((row) => ({ createdAt: row.updated_at, id: row.id, row })),
              page.limit
            )
            return {
              rows: keyed.rows.map(({ row }) => ({
                id: row.id,
                title: row.title,
                customAIId: row.custom_ai_id,
                createdAt: row.created_at,
                updatedAt: row.updated_at
              })),
              next: keyed.next
            }
          }),
          Effect.orDie
        )
      }
    }
  })
)
