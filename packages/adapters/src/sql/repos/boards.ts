import * as SqlClient from "@effect/sql/SqlClient"
import { BoardsRepo, ItemConnection, PlacedItem } from "@svc/core/boards"
import type { ItemType } from "@svc/core/items"
import { pageOf } from "@svc/core/shared"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"

interface PlacedRow {
  readonly id: string
  readonly type: ItemType
  readonly title: string
  readonly url: string | null
  readonly x: number
  readonly y: number
  readonly added_at: Date
}

/** A connection row as the repositories read it. */
export interface ConnectionRow {
  readonly id: string
  readonly from_item_id: string
  readonly to_item_id: string
  readonly label: string
  readonly board_id: string | null
  readonly created_at: Date
}

/** A stored connection as the core sees it. */
export const toConnection = (row: ConnectionRow) =>
  new ItemConnection({
    id: row.id,
    fromItemId: row.from_item_id,
    toItemId: row.to_item_id,
    label: row.label,
    boardId: row.board_id,
    createdAt: row.created_at
  })

const toPlaced = (row: PlacedRow) =>
  new PlacedItem({
    id: row.id,
    type: row.type,
    title: row.title,
    url: row.url,
    x: Number(row.x),
    y: Number(row.y),
    addedAt: row.added_at
  })

/** `BoardsRepo` over SQL. */
export const BoardsRepoSql = Layer.effect(
  BoardsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      countItems: (boardId) =>
        lean<{ readonly n: number | string }>`SELECT count(*) AS n FROM board_items b JOIN items i ON i.id = b.item_id
                                             WHERE b.board_id = ${boardId} AND i.trashed_at IS NULL`.pipe(
          Effect.map((rows) => Number(rows[0]?.n ?? 0)),
          Effect.orDie
        ),
      findPlaced: (boardId, itemIds) =>
        itemIds.length === 0
          ? Effect.succeed([])
          : sql<PlacedRow>`SELECT i.id, i.type, i.title, i.url, b.x, b.y, b.added_at
                           FROM board_items b JOIN items i ON i.id = b.item_id
                           WHERE b.board_id = ${boardId} AND i.trashed_at IS NULL AND b.item_id IN ${sql.in(itemIds)}`.pipe(
              Effect.map((rows) => rows.map(toPlaced)),
              Effect.orDie
            ),
      place: (boardId, placements, at) =>
        Effect.forEach(
          placements,
          (p) =>
            lean`INSERT INTO board_items (board_id, item_id, x, y, added_at)
                VALUES (${boardId}, ${p.itemId}, ${p.x}, ${p.y}, ${at})
                ON CONFLICT (board_id, item_id) DO UPDATE SET x = EXCLUDED.x, y = EXCLUDED.y`,
          { discard: true }
        ).pipe(Effect.orDie),
      listItems: (boardId, page) => {
        const after = page.after
          ? sql`AND (b.added_at, b.item_id) < (${page.after.createdAt}, ${page.after.id})`
          : sql``
        return sql<PlacedRow>`SELECT i.id, i.type, i.title, i.url, b.x, b.y, b.added_at
                              FROM board_items b JOIN items i ON i.id = b.item_id
                              WHERE b.board_id = ${boardId} AND i.trashed_at IS NULL ${after}
                              ORDER BY b.added_at DESC, b.item_id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => {
            const page_ = pageOf(
              rows.map((row) => ({ createdAt: row.added_at, id: row.id, row })),
              page.limit
            )
            return { rows: page_.rows.map((r) => toPlaced(r.row)), next: page_.next }
          }),
          Effect.orDie
        )
      },
      connectionsTouching: (boardId, itemIds) =>
        itemIds.length === 0
          ? Effect.succeed([])
          : sql<ConnectionRow>`SELECT c.id, c.from_item_id, c.to_item_id, c.label, c.board_id, c.created_at
                               FROM connections c
                               JOIN board_items bf ON bf.board_id = ${boardId} AND bf.item_id = c.from_item_id
                               JOIN board_items bt ON bt.board_id = ${boardId} AND bt.item_id = c.to_item_id
                               JOIN items f ON f.id = c.from_item_id AND f.trashed_at IS NULL
                               JOIN items t ON t.id = c.to_item_id AND t.trashed_at IS NULL
                               WHERE (c.board_id = ${boardId} OR c.board_id IS NULL)
                                 AND (c.from_item_id IN ${sql.in(itemIds)} OR c.to_item_id IN ${sql.in(itemIds)})
                               ORDER BY c.created_at, c.id`.pipe(
              Effect.map((rows) => rows.map(toConnection)),
              Effect.orDie
            )
    }
  })
)
