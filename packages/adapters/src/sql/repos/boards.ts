import * as SqlClient from "@effect/sql/SqlClient"
import { type BoardFirstPage, BoardsRepo, ItemConnection, PlacedItem } from "@svc/core/boards"
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

/** A board and one of its first `limit + 1` items (none: `id` null), as `firstPages` reads them. */
interface BoardPageRow {
  readonly board_id: string
  readonly board_title: string
  readonly board_created_at: Date
  readonly board_updated_at: Date
  readonly item_count: number | string | null
  readonly id: string | null
  readonly type: ItemType | null
  readonly title: string | null
  readonly url: string | null
  readonly x: number | null
  readonly y: number | null
  readonly added_at: Date | null
}

/** A connection and the board it is read for (a workspace-wide one is read once per board holding both ends). */
interface BoardConnectionRow extends ConnectionRow {
  readonly on_board: string
}

/** Rows of `firstPages`, grouped per board in the order the statement gave them. */
const toFirstPages = (rows: ReadonlyArray<BoardPageRow>, limit: number): Array<BoardFirstPage> => {
  const grouped = new Map<string, { readonly head: BoardPageRow; readonly placed: Array<PlacedRow> }>()
  for (const row of rows) {
    let group = grouped.get(row.board_id)
    if (group === undefined) {
      group = { head: row, placed: [] }
      grouped.set(row.board_id, group)
    }
    if (row.id !== null && row.type !== null && row.added_at !== null) {
      group.placed.push({
        id: row.id,
        type: row.type,
        title: row.title ?? "",
        url: row.url,
        x: Number(row.x),
        y: Number(row.y),
        added_at: row.added_at
      })
    }
  }
  return [...grouped.values()].map(({ head, placed }) => {
    const page = pageOf(
      placed.map((row) => ({ createdAt: row.added_at, id: row.id, row })),
      limit
    )
    return {
      boardId: head.board_id,
      title: head.board_title,
      createdAt: head.board_created_at,
      updatedAt: head.board_updated_at,
      itemCount: Number(head.item_count ?? 0),
      items: page.rows.map((r) => toPlaced(r.row)),
      next: page.next
    }
  })
}

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
            ),
      // The same rows as `listItems` with `after` unset, for every board at once: the board's items numbered
      // in the page order, the first `limit + 1` of each kept (the last only says whether there is a next page).
      firstPages: (workspaceId, boardIds, limit) =>
        boardIds.length === 0
          ? Effect.succeed([])
          : sql<BoardPageRow>`WITH boards AS (
                                SELECT id, title, created_at, updated_at FROM items
                                WHERE workspace_id = ${workspaceId} AND type = 'board' AND trashed_at IS NULL
                                  AND id IN ${sql.in(boardIds)}
                              ), placed AS (
                                SELECT b.board_id, i.id, i.type, i.title, i.url, b.x, b.y, b.added_at,
                                       row_number() OVER (PARTITION BY b.board_id
                                                          ORDER BY b.added_at DESC, b.item_id DESC) AS n,
                                       count(*) OVER (PARTITION BY b.board_id) AS item_count
                                FROM board_items b JOIN items i ON i.id = b.item_id
                                WHERE b.board_id IN (SELECT id FROM boards) AND i.trashed_at IS NULL
                              )
                              SELECT bo.id AS board_id, bo.title AS board_title, bo.created_at AS board_created_at,
                                     bo.updated_at AS board_updated_at, p.item_count,
                                     p.id, p.type, p.title, p.url, p.x, p.y, p.added_at
                              FROM boards bo LEFT JOIN placed p ON p.board_id = bo.id AND p.n <= ${limit + 1}
                              ORDER BY bo.id, p.n`.pipe(
              Effect.map((rows) => toFirstPages(rows, limit)),
              Effect.orDie
            ),
      // One statement for every board: the connections of `connectionsTouching` of each board, read with the board
      // they are read for; which of its items they must touch is checked per board here.
      connectionsTouchingMany: (itemIdsByBoard) => {
        const boardIds = [...itemIdsByBoard.keys()].filter((id) => (itemIdsByBoard.get(id)?.length ?? 0) > 0)
        const itemIds = [...new Set(boardIds.flatMap((id) => itemIdsByBoard.get(id) ?? []))]
        if (boardIds.length === 0) return Effect.succeed(new Map())
        return sql<BoardConnectionRow>`SELECT c.id, c.from_item_id, c.to_item_id, c.label, c.board_id, c.created_at,
                                              bf.board_id AS on_board
                                       FROM connections c
                                       JOIN board_items bf ON bf.item_id = c.from_item_id
                                       JOIN board_items bt ON bt.board_id = bf.board_id AND bt.item_id = c.to_item_id
                                       JOIN items f ON f.id = c.from_item_id AND f.trashed_at IS NULL
                                       JOIN items t ON t.id = c.to_item_id AND t.trashed_at IS NULL
                                       WHERE bf.board_id IN ${sql.in(boardIds)}
                                         AND (c.board_id = bf.board_id OR c.board_id IS NULL)
                                         AND (c.from_item_id IN ${sql.in(itemIds)} OR c.to_item_id IN ${sql.in(itemIds)})
                                       ORDER BY c.created_at, c.id`.pipe(
          Effect.map((rows) => {
            const touching = new Map<string, Array<ItemConnection>>()
            for (const row of rows) {
              const page = new Set(itemIdsByBoard.get(row.on_board) ?? [])
              if (!page.has(row.from_item_id) && !page.has(row.to_item_id)) continue
              const list = touching.get(row.on_board) ?? []
              list.push(toConnection(row))
              touching.set(row.on_board, list)
            }
            return touching as ReadonlyMap<string, ReadonlyArray<ItemConnection>>
          }),
          Effect.orDie
        )
      }
    }
  })
)
