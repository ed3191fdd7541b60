import { Schema } from "effect"
import { Timestamp } from "../shared/time.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { ItemType, TITLE_MAX_CHARACTERS } from "../items/schema.js"

/** An item id field, described for what it points at. */
export const idField = (description: string) =>
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({ description })

/** A title field of a board, table or note. */
export const TitleField = Schema.String.pipe(Schema.maxLength(TITLE_MAX_CHARACTERS))

/** A board: a canvas that holds items (placed at x/y) and connections between them. */
export class Board extends Schema.Class<Board>("Board")(
  {
    id: Schema.String.annotations({ description: "Board id (board_…)." }),
    title: Schema.String.annotations({ description: "Board title." }),
    itemCount: Schema.Int.annotations({ description: "How many items (not in the trash) sit on the board." }),
    createdAt: Timestamp,
    updatedAt: Timestamp
  },
  { description: "A board: id, title, how many items it holds, timestamps." }
) {}

/** An item as placed on a board. */
export class PlacedItem extends Schema.Class<PlacedItem>("PlacedItem")(
  {
    id: Schema.String.annotations({ description: "Item id (note_…, table_…, link_…, …)." }),
    type: ItemType,
    title: Schema.String.annotations({ description: "Item title." }),
    url: Schema.NullOr(Schema.String).annotations({
      description: "Web address for links, posts and media; null otherwise."
    }),
    x: Schema.Number.annotations({ description: "Horizontal position on the board, in canvas units." }),
    y: Schema.Number.annotations({ description: "Vertical position on the board, in canvas units." }),
    addedAt: Timestamp
  },
  { description: "An item on a board with its position." }
) {}

/** A directed, labelled link between two items, drawn on one board or on none. */
export class ItemConnection extends Schema.Class<ItemConnection>("ItemConnection")(
  {
    id: Schema.String.annotations({ description: "Connection id (conn_…)." }),
    fromItemId: Schema.String.annotations({ description: "The item the connection starts at." }),
    toItemId: Schema.String.annotations({ description: "The item the connection points to." }),
    label: Schema.String.annotations({ description: "What the connection means; empty when unlabelled." }),
    boardId: Schema.NullOr(Schema.String).annotations({
      description: "The board the connection is drawn on, or null for a workspace-wide connection."
    }),
    createdAt: Timestamp
  },
  { description: "A directed connection between two items." }
) {}

/** A tag with how many items (not in the trash) carry it. */
export class Tag extends Schema.Class<Tag>("Tag")(
  {
    id: Schema.String.annotations({ description: "Tag id (tag_…)." }),
    name: Schema.String.annotations({ description: "Tag name, as first written; matched without regard to case." }),
    itemCount: Schema.Int.annotations({ description: "How many items not in the trash carry the tag." }),
    createdAt: Timestamp
  },
  { description: "A tag of the workspace with its item count." }
) {}

/** Kinds of table column; cells are checked against them. */
export const ColumnType = Schema.Literal("text", "number", "boolean", "date", "url").annotations({
  description: "Column kind; a date is YYYY-MM-DD or ISO 8601, a url http(s). Default text."
})
export type ColumnType = typeof ColumnType.Type

/** One column of a table. */
export class TableColumn extends Schema.Class<TableColumn>("TableColumn")(
  {
    id: Schema.String.annotations({ description: "Column id (col_…); stays the same when the column is renamed." }),
    name: Schema.String.annotations({ description: "Column name; unique in the table regardless of case." }),
    type: ColumnType
  },
  { description: "A table column: id, name and kind." }
) {}

/** A cell value: a string, a number, true/false, or null for empty. */
export const CellValue = Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Null).annotations({
  description: `A cell: string (text, date, url; up to ${LIBRARY_LIMITS.cellCharacters} characters), number, boolean, or null for empty.`
})
export type CellValue = typeof CellValue.Type

/** Cells keyed by column name. */
export const Cells = Schema.Record({ key: Schema.String, value: CellValue }).annotations({
  description: "Cells keyed by column name (case ignored); a column left out stays empty."
})

/** A table: a titled item with typed columns and ordered rows. */
export class Table extends Schema.Class<Table>("Table")(
  {
    id: Schema.String.annotations({ description: "Table id (table_…)." }),
    title: Schema.String.annotations({ description: "Table title." }),
    columns: Schema.Array(TableColumn).annotations({ description: "The columns, in display order." }),
    rowCount: Schema.Int.annotations({ description: "How many rows the table has." }),
    createdAt: Timestamp,
    updatedAt: Timestamp
  },
  { description: "A table: id, title, columns, row count, timestamps." }
) {}

/** One row of a table, cells keyed by column name. */
export class TableRow extends Schema.Class<TableRow>("TableRow")(
  {
    id: Schema.String.annotations({ description: "Row id (row_…). Pass it to svc_update_table_rows." }),
    position: Schema.Int.annotations({
      description: "The row's order key: rows are read in ascending position; new rows go at the end."
    }),
    cells: Cells,
    createdAt: Timestamp,
    updatedAt: Timestamp
  },
  { description: "A table row: id, position and cells by column name." }
) {}

/** A row as stored: cells keyed by column id. */
export interface StoredRow {
  readonly id: string
  readonly position: number
  readonly cells: Readonly<Record<string, CellValue>>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** An item's state for the trash: its summary and when it was trashed. */
export interface ItemState {
  readonly id: string
  readonly type: ItemType
  readonly title: string
  readonly url: string | null
  readonly data: Readonly<Record<string, unknown>>
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly trashedAt: Date | null
}
