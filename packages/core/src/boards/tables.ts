import { Clock, Effect, Either, Encoding, Option } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { InvalidInput, invalid, NotFound } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { ItemsRepo, type StoredItem } from "../items/ports.js"
import { TablesRepo } from "./ports.js"
import { type CellValue, type ColumnType, type StoredRow, Table, TableColumn, TableRow } from "./schema.js"
import { checkColumnName, checkColumnSet, columnsOf, findColumn, toNamedCells, toStoredCells } from "./table-cells.js"
import { withSpan } from "../shared/spans.js"

/** A column as tools declare it. */
export interface ColumnInput {
  readonly name: string
  readonly type?: ColumnType | undefined
}

/** Changes to a table's shape, applied in this order: rename, remove, add, reorder; then the title. */
export interface TableChange {
  readonly title?: string | undefined
  readonly renameColumns?: ReadonlyArray<{ readonly column: string; readonly name: string }> | undefined
  readonly removeColumns?: ReadonlyArray<string> | undefined
  readonly addColumns?: ReadonlyArray<ColumnInput> | undefined
  readonly columnOrder?: ReadonlyArray<string> | undefined
}

type Cells = Readonly<Record<string, CellValue>>

const encodeRowCursor = (position: number) => Encoding.encodeBase64Url(`row.${position}`)
const decodeRowCursor = (cursor: string) =>
  Either.flatMap(
    Either.mapLeft(Encoding.decodeBase64UrlString(cursor), () => undefined),
    (text) => {
      const n = Number(text.slice(4))
      return text.startsWith("row.") && Number.isSafeInteger(n) ? Either.right(n) : Either.left(undefined)
    }
  ).pipe(
    Either.mapLeft(() =>
      invalid("cursor", "cursor is not one this service issued; pass nextCursor from the previous page unchanged")
    )
  )

// Checks every row and reports every problem of every row at once, so one retry can fix them all.
const checkRows = <A>(checks: ReadonlyArray<Effect.Effect<A, InvalidInput>>) =>
  Effect.flatMap(Effect.all(checks.map(Effect.either)), (results) => {
    const problems = results.flatMap((r) => (Either.isLeft(r) ? r.left.errors : []))
    const first = problems[0]
    return first
      ? Effect.fail(
          new InvalidInput({
            message: `${first.path} ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ""}`,
            errors: problems
          })
        )
      : Effect.succeed(results.flatMap((r) => (Either.isRight(r) ? [r.right] : [])))
  })

const checkRowCount = (path: string, count: number) =>
  count > LIBRARY_LIMITS.rowsPerCall
    ? Effect.fail(
        invalid(path, `at most ${LIBRARY_LIMITS.rowsPerCall} rows per call; split the rows over several calls`)
      )
    : Effect.void

/** Tables: typed columns kept on the table item, rows in order. Every change records its event. */
export class Tables extends Effect.Service<Tables>()("svc/boards/Tables", {
  effect: Effect.gen(function* () {
    const items = yield* ItemsRepo
    const tables = yield* TablesRepo
    const ids = yield* Ids
    const tx = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    const tableNotFound = (tableId: string) =>
      new NotFound({
        message: `no table ${tableId} in this workspace (or it is in the trash); svc_list_workspace_items with type "table" lists them`
      })

    const loadTable = (workspaceId: string, tableId: string, lock = true) =>
      Effect.flatMap((lock ? items.lockItem : items.findItem)(workspaceId, tableId), (found) =>
        Option.isSome(found) && found.value.type === "table" && found.value.trashedAt === null
          ? Effect.succeed(found.value)
          : Effect.fail(tableNotFound(tableId))
      )

    const toTable = (item: StoredItem, columns: ReadonlyArray<TableColumn>, rowCount: number, updatedAt?: Date) =>
      new Table({
        id: item.id,
        title: item.title,
        columns: [...columns],
        rowCount,
        createdAt: item.createdAt,
        updatedAt: updatedAt ?? item.updatedAt
      })

    const toRow = (columns: ReadonlyArray<TableColumn>, row: StoredRow) =>
      new TableRow({
        id: row.id,
        position: row.position,
        cells: toNamedCells(columns, row.cells),
        createdAt: row.createdAt,
        updatedAt: row.updatedAt
      })

    const newColumns = (path: string, inputs: ReadonlyArray<ColumnInput>) =>
      Effect.forEach(inputs, (input, index) =>
        Effect.gen(function* () {
          const name = yield* checkColumnName(`${path}.${index}.name`, input.name)
          return new TableColumn({ id: yield* ids.make("col_"), name, type: input.type ?? "text" })
        })
      )

    // Checks and stores new rows at the end of the table; the table item is already locked.
    const appendRows = (tableId: string, columns: ReadonlyArray<TableColumn>, rows: ReadonlyArray<Cells>, now: Date) =>
      Effect.gen(function* () {
        const checked = yield* checkRows(rows.map((cells, index) => toStoredCells(`rows.${index}`, columns, cells)))
        const count = yield* tables.countRows(tableId)
        if (count + rows.length > LIBRARY_LIMITS.tableRows) {
          return yield* invalid(
            "rows",
            `a table holds at most ${LIBRARY_LIMITS.tableRows} rows; this one has ${count}, so at most ${
              LIBRARY_LIMITS.tableRows - count
            } more fit`
          )
        }
        const last = yield* tables.lastPosition(tableId)
        const stored = yield* Effect.forEach(checked, (cells, index) =>
          Effect.map(
            ids.make("row_"),
            (id): StoredRow => ({ id, position: last + index + 1, cells, createdAt: now, updatedAt: now })
          )
        )
        yield* tables.insertRows(tableId, stored)
        return { stored, count: count + stored.length }
      })

    /** Creates a table with its columns and, optionally, first rows. */
    const create = (
      workspaceId: string,
      input: {
        readonly title: string
        readonly columns: ReadonlyArray<ColumnInput>
        readonly rows?: ReadonlyArray<Cells> | undefined
      }
    ) =>
      Effect.gen(function* () {
        const title = input.title.trim()
        if (!title) return yield* invalid("title", "title must not be blank")
        const rows = input.rows ?? []
        yield* checkRowCount("rows", rows.length)
        const columns = yield* newColumns("columns", input.columns)
        yield* checkColumnSet("columns", columns)
        const now = new Date(yield* Clock.currentTimeMillis)
        const id = yield* ids.make("table_")
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            yield* items.insertItem(workspaceId, {
              id,
              type: "table",
              title,
              url: null,
              data: { columns },
              createdAt: now
            })
            const { count } = yield* appendRows(id, columns, rows, now)
            yield* recordEvent(workspaceId, "item.created", { item_id: id, type: "table", title, rows: count })
            return new Table({ id, title, columns, rowCount: count, createdAt: now, updatedAt: now })
          })
        )
      }).pipe(withSpan("Tables.create"))

    /** Adds rows at the end; answers the table and the new rows. */
    const addRows = (workspaceId: string, input: { readonly tableId: string; readonly rows: ReadonlyArray<Cells> }) =>
      Effect.gen(function* () {
        yield* checkRowCount("rows", input.rows.length)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const item = yield* loadTable(workspaceId, input.tableId)
            const columns = columnsOf(item.data)
            const { stored, count } = yield* appendRows(item.id, columns, input.rows, now)
            yield* items.updateItem(workspaceId, item.id, {}, now)
            yield* recordEvent(workspaceId, "table.rows_added", { table_id: item.id, row_ids: stored.map((r) => r.id) })
            return { table: toTable(item, columns, count, now), rows: stored.map((row) => toRow(columns, row)) }
          })
        )
      }).pipe(withSpan("Tables.addRows"))

    /** Changes cells of rows (a null cell empties it; cells left out stay) and deletes rows. */
    const updateRows = (
      workspaceId: string,
      input: {
        readonly tableId: string
        readonly rows?: ReadonlyArray<{ readonly rowId: string; readonly cells: Cells }> | undefined
        readonly deleteRowIds?: ReadonlyArray<string> | undefined
      }
    ) =>
      Effect.gen(function* () {
        const updates = input.rows ?? []
        const deletes = [...new Set(input.deleteRowIds ?? [])]
        if (updates.length === 0 && deletes.length === 0) {
          return yield* invalid("rows", "give rows to change or deleteRowIds to delete")
        }
        yield* checkRowCount("rows", updates.length + deletes.length)
        const dup = updates.find((u, i) => updates.findIndex((v) => v.rowId === u.rowId) !== i)
        if (dup) return yield* invalid("rows", `row ${dup.rowId} appears twice; merge its cells into one entry`)
        const both = updates.find((u) => deletes.includes(u.rowId))
        if (both) return yield* invalid("deleteRowIds", `row ${both.rowId} is both changed and deleted; pick one`)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const item = yield* loadTable(workspaceId, input.tableId)
            const columns = columnsOf(item.data)
            const checked = yield* checkRows(
              updates.map((u, index) => toStoredCells(`rows.${index}.cells`, columns, u.cells))
            )
            const wanted = [...updates.map((u) => u.rowId), ...deletes]
            const found = yield* tables.findRows(item.id, wanted)
            const missing = wanted.filter((id) => !found.some((row) => row.id === id))
            if (missing.length > 0) {
              return yield* new NotFound({
                message: `no row ${missing.join(", ")} in table ${item.id}; svc_read_table lists the rows with their ids`
              })
            }
            const changed = updates.map((u, index) => {
              const row = found.find((r) => r.id === u.rowId) as StoredRow
              const cells: Record<string, CellValue> = { ...row.cells }
              for (const [columnId, value] of Object.entries(checked[index] ?? {})) {
                if (value === null) delete cells[columnId]
                else cells[columnId] = value
              }
              return { ...row, cells, updatedAt: now }
            })
            yield* tables.updateRows(item.id, changed, now)
            yield* tables.deleteRows(item.id, deletes)
            yield* items.updateItem(workspaceId, item.id, {}, now)
            yield* recordEvent(workspaceId, "table.rows_updated", {
              table_id: item.id,
              updated_row_ids: changed.map((r) => r.id),
              deleted_row_ids: deletes
            })
            const count = yield* tables.countRows(item.id)
            return {
              table: toTable(item, columns, count, now),
              rows: changed.map((row) => toRow(columns, row)),
              deletedRowIds: deletes
            }
          })
        )
      }).pipe(withSpan("Tables.updateRows"))

    /** Renames the table and adds, renames, removes or reorders columns; answers the table as it now is. */
    const update = (workspaceId: string, input: { readonly tableId: string } & TableChange) =>
      Effect.gen(function* () {
        const title = input.title?.trim()
        if (input.title !== undefined && !title) return yield* invalid("title", "title must not be blank")
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const item = yield* loadTable(workspaceId, input.tableId)
            let columns = [...columnsOf(item.data)]
            const known = (path: string, ref: string) => {
              const column = findColumn(columns, ref)
              return column
                ? Effect.succeed(column)
                : Effect.fail(
                    invalid(path, `no column "${ref}"; the columns are ${columns.map((c) => c.name).join(", ")}`)
                  )
            }
            for (const [index, rename] of (input.renameColumns ?? []).entries()) {
              const column = yield* known(`renameColumns.${index}.column`, rename.column)
              const name = yield* checkColumnName(`renameColumns.${index}.name`, rename.name)
              columns = columns.map((c) => (c.id === column.id ? new TableColumn({ ...c, name }) : c))
            }
            const removed: Array<string> = []
            for (const [index, ref] of (input.removeColumns ?? []).entries()) {
              const column = yield* known(`removeColumns.${index}`, ref)
              removed.push(column.id)
              columns = columns.filter((c) => c.id !== column.id)
            }
            columns.push(...(yield* newColumns("addColumns", input.addColumns ?? [])))
            if (input.columnOrder !== undefined) {
              const ordered: Array<TableColumn> = []
              for (const [index, ref] of input.columnOrder.entries()) {
                const column = yield* known(`columnOrder.${index}`, ref)
                if (!ordered.includes(column)) ordered.push(column)
              }
              columns = [...ordered, ...columns.filter((c) => !ordered.includes(c))]
            }
            yield* checkColumnSet("columns", columns)
            const count = yield* tables.countRows(item.id)
            const before = JSON.stringify(columnsOf(item.data))
            const sameColumns = JSON.stringify(columns) === before
            if (sameColumns && (title === undefined || title === item.title)) {
              return toTable(item, columns, count)
            }
            yield* items.updateItem(workspaceId, item.id, { title, data: { ...item.data, columns } }, now)
            if (removed.length > 0) yield* tables.dropCells(item.id, removed)
            yield* recordEvent(workspaceId, "table.updated", {
              table_id: item.id,
              title: title ?? item.title,
              columns: columns.map((c) => c.name),
              removed_column_ids: removed
            })
            return toTable({ ...item, title: title ?? item.title }, columns, count, now)
          })
        )
      }).pipe(withSpan("Tables.update"))

    /** The table with a page of rows in position order. */
    const read = (
      workspaceId: string,
      input: { readonly tableId: string; readonly limit?: number | undefined; readonly cursor?: string | undefined }
    ) =>
      Effect.gen(function* () {
        const after = input.cursor === undefined ? 0 : yield* decodeRowCursor(input.cursor)
        const limit = input.limit ?? 25
        const item = yield* loadTable(workspaceId, input.tableId, false)
        const columns = columnsOf(item.data)
        const count = yield* tables.countRows(item.id)
        const rows = yield* tables.listRows(item.id, limit + 1, after)
        const kept = rows.slice(0, limit)
        const last = kept[kept.length - 1]
        return {
          table: toTable(item, columns, count),
          rows: kept.map((row) => toRow(columns, row)),
          nextCursor: rows.length > limit && last ? encodeRowCursor(last.position) : undefined
        }
      }).pipe(withSpan("Tables.read"))

    return { create, addRows, updateRows, update, read } as const
  })
}) {}
