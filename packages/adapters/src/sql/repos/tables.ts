import * as SqlClient from "@effect/sql/SqlClient"
import { type CellValue, type StoredRow, TablesRepo } from "@svc/core/boards"
import { Effect, Layer } from "effect"
import { jsonObject } from "../json-column.js"
import { LeanSql } from "../lean.js"

interface RowRow {
  readonly id: string
  readonly position: number | string
  readonly cells: unknown
  readonly created_at: Date
  readonly updated_at: Date
}

const toRow = (row: RowRow): StoredRow => ({
  id: row.id,
  position: Number(row.position),
  cells: jsonObject(row.cells) as Record<string, CellValue>,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

/** `TablesRepo` over SQL: rows of a table item in `table_rows`, cells as jsonb keyed by column id. */
export const TablesRepoSql = Layer.effect(
  TablesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      countRows: (tableId) =>
        lean<{ readonly n: number | string }>`SELECT count(*) AS n FROM table_rows WHERE table_id = ${tableId}`.pipe(
          Effect.map((rows) => Number(rows[0]?.n ?? 0)),
          Effect.orDie
        ),
      lastPosition: (tableId) =>
        lean<{
          readonly p: number | string | null
        }>`SELECT max(position) AS p FROM table_rows WHERE table_id = ${tableId}`.pipe(
          Effect.map((rows) => Number(rows[0]?.p ?? 0)),
          Effect.orDie
        ),
      insertRows: (tableId, rows) =>
        rows.length === 0
          ? Effect.void
          : sql`INSERT INTO table_rows ${sql.insert(
              rows.map((row) => ({
                id: row.id,
                table_id: tableId,
                position: row.position,
                cells: JSON.stringify(row.cells),
                created_at: row.createdAt,
                updated_at: row.updatedAt
              }))
            )}`.pipe(Effect.asVoid, Effect.orDie),
      findRows: (tableId, rowIds) =>
        rowIds.length === 0
          ? Effect.succeed([])
          : sql<RowRow>`SELECT id, position, cells, created_at, updated_at FROM table_rows
                        WHERE table_id = ${tableId} AND id IN ${sql.in(rowIds)}`.pipe(
              Effect.map((rows) => rows.map(toRow)),
              Effect.orDie
            ),
      updateRows: (tableId, rows, at) =>
        Effect.forEach(
          rows,
          (row) =>
            lean`UPDATE table_rows SET cells = ${JSON.stringify(row.cells)}::jsonb, updated_at = ${at}
                WHERE table_id = ${tableId} AND id = ${row.id}`,
          { discard: true }
        ).pipe(Effect.orDie),
      deleteRows: (tableId, rowIds) =>
        rowIds.length === 0
          ? Effect.succeed(0)
          : sql<{ readonly id: string }>`DELETE FROM table_rows WHERE table_id = ${tableId} AND id IN ${sql.in(rowIds)}
                                         RETURNING id`.pipe(
              Effect.map((rows) => rows.length),
              Effect.orDie
            ),
      dropCells: (tableId, columnIds) =>
        Effect.forEach(
          columnIds,
          (columnId) => lean`UPDATE table_rows SET cells = cells - ${columnId}::text WHERE table_id = ${tableId}`,
          { discard: true }
        ).pipe(Effect.orDie),
      listRows: (tableId, limit, after) =>
        lean<RowRow>`SELECT id, position, cells, created_at, updated_at FROM table_rows
                    WHERE table_id = ${tableId} AND position > ${after}
                    ORDER BY position LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toRow)),
          Effect.orDie
        )
    }
  })
)
