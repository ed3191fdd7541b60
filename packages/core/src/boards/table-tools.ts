import { Effect, Schema } from "effect"
import { Cursor, Limit } from "../shared/paging.js"
import { defineTool } from "../tools/tool.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { Cells, CellValue, ColumnType, Table, TableRow } from "./schema.js"
import { COLUMN_NAME_MAX_CHARACTERS } from "./table-cells.js"
import { Tables } from "./tables.js"
import { NextCursorField, TableIdField, titleInput } from "./tool-fields.js"

const ColumnName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(COLUMN_NAME_MAX_CHARACTERS)).annotations({
  description: "Column name, unique in the table (case ignored)."
})

const ColumnRef = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
  description: "A column, by name (case ignored) or id (col_…)."
})

const NewColumn = Schema.Struct({ name: ColumnName, type: Schema.optional(ColumnType) }).annotations({
  description: "A new column."
})

const Rows = Schema.Array(Cells)
  .pipe(Schema.maxItems(LIBRARY_LIMITS.rowsPerCall))
  .annotations({
    description: `Rows of cells keyed by column name, e.g. {"Name": "Ada", "Age": 36}; up to ${LIBRARY_LIMITS.rowsPerCall} per call.`
  })

// An update merges into the row, unlike a new row's cells (`Cells`), where a column left out is empty.
const ChangedCells = Schema.Record({ key: Schema.String, value: CellValue }).annotations({
  description: "New cells by column name (case ignored); a column left out keeps its cell, null empties it."
})

const RowIdField = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
  description: "Row id (row_…). From svc_read_table or svc_add_table_rows."
})

/** Table tools: create, add and change rows, change columns and title, read. */
export const tableTools = Effect.gen(function* () {
  const tables = yield* Tables
  return [
    defineTool({
      name: "svc_read_table",
      title: "Read table",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read a table: title, columns (name and kind), row count, and a page of rows in order with ids and cells by column name (empty ones left out). Free. Change rows with svc_update_table_rows, columns with svc_update_table.",
      input: { tableId: TableIdField, limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        table: Table,
        rows: Schema.Array(TableRow).annotations({ description: "The rows of this page, in order." }),
        nextCursor: NextCursorField
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const result = yield* tables.read(id, input)
          return {
            table: result.table,
            rows: result.rows,
            ...(result.nextCursor ? { nextCursor: result.nextCursor } : {})
          }
        })
    }),
    defineTool({
      name: "svc_create_table",
      title: "Create table",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description: `Create a table with typed columns (text, number, boolean, date, url) and optional first rows. Free. Up to ${LIBRARY_LIMITS.tableColumns} columns and ${LIBRARY_LIMITS.tableRows} rows; ${LIBRARY_LIMITS.rowsPerCall} rows per call. More rows: svc_add_table_rows; onto a board: svc_save_items_to_board.`,
      input: {
        title: titleInput("Table"),
        columns: Schema.Array(NewColumn)
          .pipe(Schema.minItems(1), Schema.maxItems(LIBRARY_LIMITS.tableColumns))
          .annotations({ description: `The columns in display order, 1 to ${LIBRARY_LIMITS.tableColumns}.` }),
        rows: Schema.optional(Rows)
      },
      output: { table: Table },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { table: yield* tables.create(id, input) }
        })
    }),
    defineTool({
      name: "svc_add_table_rows",
      title: "Add table rows",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description: `Add rows at the end of a table and return the table and the new rows with their ids. Free. Cells are keyed by column name and checked against the column kind; up to ${LIBRARY_LIMITS.rowsPerCall} rows per call, ${LIBRARY_LIMITS.tableRows} per table.`,
      input: {
        tableId: TableIdField,
        rows: Rows.pipe(Schema.minItems(1)).annotations({
          description: `Rows to add, 1 to ${LIBRARY_LIMITS.rowsPerCall}, of cells keyed by column name, e.g. {"Name": "Ada"}.`
        })
      },
      output: {
        table: Table,
        rows: Schema.Array(TableRow).annotations({ description: "The rows added, in order." })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return yield* tables.addRows(id, input)
        })
    }),
    defineTool({
      name: "svc_update_table_rows",
      title: "Update table rows",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
      description: `Change cells of rows and/or delete rows by id, all at once; returns the table and the changed rows. Free. Destructive. Up to ${LIBRARY_LIMITS.rowsPerCall} rows per call. Row ids: svc_read_table.`,
      input: {
        tableId: TableIdField,
        rows: Schema.optional(
          Schema.Array(
            Schema.Struct({ rowId: RowIdField, cells: ChangedCells }).annotations({
              description: "A row to change and its new cells."
            })
          )
            .pipe(Schema.maxItems(LIBRARY_LIMITS.rowsPerCall))
            .annotations({ description: `Rows to change, up to ${LIBRARY_LIMITS.rowsPerCall}.` })
        ),
        deleteRowIds: Schema.optional(
          Schema.Array(RowIdField)
            .pipe(Schema.maxItems(LIBRARY_LIMITS.rowsPerCall))
            .annotations({ description: `Ids of rows to delete, up to ${LIBRARY_LIMITS.rowsPerCall}.` })
        )
      },
      output: {
        table: Table,
        rows: Schema.Array(TableRow).annotations({ description: "The changed rows as they now are." }),
        deletedRowIds: Schema.Array(Schema.String).annotations({ description: "The ids of the rows deleted." })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return yield* tables.updateRows(id, input)
        })
    }),
    defineTool({
      name: "svc_update_table",
      title: "Update table",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description:
        "Change a table's title and columns: rename, remove, add and reorder (in that order); returns the table as it now is. Free. Destructive: removing a column deletes its cells.",
      input: {
        tableId: TableIdField,
        title: Schema.optional(titleInput("New table")),
        renameColumns: Schema.optional(
          Schema.Array(
            Schema.Struct({ column: ColumnRef, name: ColumnName }).annotations({
              description: "A column and its new name."
            })
          )
            .pipe(Schema.maxItems(LIBRARY_LIMITS.tableColumns))
            .annotations({ description: "Columns to rename." })
        ),
        removeColumns: Schema.optional(
          Schema.Array(ColumnRef)
            .pipe(Schema.maxItems(LIBRARY_LIMITS.tableColumns))
            .annotations({ description: "Columns to remove, with their cells." })
        ),
        addColumns: Schema.optional(
          Schema.Array(NewColumn)
            .pipe(Schema.maxItems(LIBRARY_LIMITS.tableColumns))
            .annotations({ description: "Columns to add at the end." })
        ),
        columnOrder: Schema.optional(
          Schema.Array(ColumnRef).pipe(Schema.maxItems(LIBRARY_LIMITS.tableColumns)).annotations({
            description: "New order: these columns first; the rest follow in their old order."
          })
        )
      },
      output: { table: Table },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { table: yield* tables.update(id, input) }
        })
    })
  ]
})
