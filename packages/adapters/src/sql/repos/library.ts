import * as SqlClient from "@effect/sql/SqlClient"
import { type LibraryItem, LibraryRepo, type SaveOutcome, type SavedItemType } from "@svc/core/library"
import { Effect, Layer, Option } from "effect"
import { jsonObject } from "../json-column.js"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface ItemRow {
  readonly id: string
  readonly type: SavedItemType
  readonly title: string
  readonly url: string | null
  readonly note: string
  readonly data: unknown
  readonly created_at: Date
  readonly updated_at: Date
}

const toItem = (row: ItemRow): LibraryItem => ({
  id: row.id,
  type: row.type,
  title: row.title,
  url: row.url,
  note: row.note,
  data: jsonObject(row.data),
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

/** `LibraryRepo` over SQL: saves are one `INSERT … ON CONFLICT` on the (workspace, type, source key) index. */
export const LibraryRepoSql = Layer.effect(
  LibraryRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    const columns = sql`id, type, title, url, note, data, created_at, updated_at`
    return {
      save: (workspaceId, item) =>
        Effect.gen(function* () {
          const data = JSON.stringify(item.data)
          // The existing row keeps its values; only fields it lacks are filled in (and a trashed row comes back), and
          // only then is it touched: a DO UPDATE whose WHERE fails answers no row, and the row is read below.
          // `was` reads the row as it stood before this statement: whether the save brings it out of the trash.
          const written = yield* sql<ItemRow & { readonly inserted: boolean; readonly restored: boolean }>`
            WITH was AS (
              SELECT trashed_at IS NOT NULL AS trashed FROM items
              WHERE workspace_id = ${workspaceId} AND type = ${item.type} AND source_key = ${item.sourceKey}
            )
            INSERT INTO items (id, workspace_id, type, title, url, note, data, source_key, created_at, updated_at)
            VALUES (${item.id}, ${workspaceId}, ${item.type}, ${item.title}, ${item.url}, ${item.note},
                    ${data}::jsonb, ${item.sourceKey}, ${item.at}, ${item.at})
            ON CONFLICT (workspace_id, type, source_key) WHERE source_key IS NOT NULL
            DO UPDATE SET
              data = EXCLUDED.data || items.data,
              note = CASE WHEN items.note = '' THEN EXCLUDED.note ELSE items.note END,
              trashed_at = NULL,
              updated_at = EXCLUDED.updated_at
            WHERE (EXCLUDED.data || items.data) <> items.data OR (items.note = '' AND EXCLUDED.note <> '')
               OR items.trashed_at IS NOT NULL
            RETURNING ${columns}, (xmax = 0) AS inserted, coalesce((SELECT trashed FROM was), false) AS restored`
          const row = written[0]
          if (row) {
            const outcome: SaveOutcome = row.inserted ? "created" : row.restored ? "restored" : "updated"
            return { item: toItem(row), outcome }
          }
          const existing = yield* sql<ItemRow>`
            SELECT ${columns} FROM items
            WHERE workspace_id = ${workspaceId} AND type = ${item.type} AND source_key = ${item.sourceKey}`
          const found = existing[0]
          if (!found) return yield* Effect.dieMessage(`item ${item.sourceKey} neither saved nor found`)
          return { item: toItem(found), outcome: "unchanged" as const }
        }).pipe(Effect.orDie, withSpan("LibraryRepo.save")),
      lockBoard: (workspaceId, boardId) =>
        Effect.gen(function* () {
          const boards = yield* lean<{ readonly id: string; readonly title: string }>`
            SELECT id, title FROM items
            WHERE id = ${boardId} AND workspace_id = ${workspaceId} AND type = 'board' AND trashed_at IS NULL
            FOR UPDATE`
          const board = boards[0]
          if (!board) return Option.none()
          const counted = yield* lean<{ readonly n: number }>`
            SELECT count(*)::int AS n FROM board_items WHERE board_id = ${boardId}`
          return Option.some({ id: board.id, title: board.title, itemCount: Number(counted[0]?.n ?? 0) })
        }).pipe(Effect.orDie, withSpan("LibraryRepo.lockBoard")),
      place: (boardId, placements, at) =>
        placements.length === 0
          ? Effect.succeed([])
          : sql<{ readonly item_id: string }>`
              INSERT INTO board_items ${sql.insert(
                placements.map((p) => ({ board_id: boardId, item_id: p.itemId, x: p.x, y: p.y, added_at: at }))
              )}
              ON CONFLICT (board_id, item_id) DO NOTHING
              RETURNING item_id`.pipe(
              Effect.map((rows) => rows.map((row) => row.item_id)),
              Effect.orDie,
              withSpan("LibraryRepo.place")
            ),
      find: (workspaceId, itemId, type) =>
        sql<ItemRow>`SELECT ${columns} FROM items
                     WHERE id = ${itemId} AND workspace_id = ${workspaceId} AND type = ${type} AND trashed_at IS NULL`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toItem)),
          Effect.orDie
        ),
      boardsOf: (itemId) =>
        lean<{ readonly id: string; readonly title: string }>`
          SELECT b.id, b.title FROM board_items bi JOIN items b ON b.id = bi.board_id
          WHERE bi.item_id = ${itemId} AND b.trashed_at IS NULL
          ORDER BY b.title, b.id`.pipe(
          Effect.map((rows) => rows.map((row) => ({ id: row.id, title: row.title }))),
          Effect.orDie
        )
    }
  })
)
