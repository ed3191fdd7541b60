import { Effect, Either, Schema } from "effect"
import { Cursor, decodeCursor, encodeCursor, Limit } from "../shared/paging.js"
import { defineTool } from "../tools/tool.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { ItemSummary } from "../items/schema.js"
import { Boards } from "./boards.js"
import { Connections, LABEL_MAX_CHARACTERS } from "./connections.js"
import { Board, ItemConnection, PlacedItem } from "./schema.js"
import { BoardIdField, ItemIdField, NextCursorField, titleInput, trashOutput } from "./tool-fields.js"
import { Trash } from "./trash.js"

const Coordinate = (axis: string) =>
  Schema.Number.pipe(Schema.finite(), Schema.between(-1_000_000, 1_000_000)).annotations({
    description: `${axis} position in canvas units, -1000000 to 1000000; x and y together or neither.`
  })

const Placement = Schema.Struct({
  itemId: ItemIdField,
  x: Schema.optional(Coordinate("Horizontal")),
  y: Schema.optional(Coordinate("Vertical"))
}).annotations({
  description: "An item to place; without x/y a new one takes the next free grid cell, one already on the board stays."
})

const RestoreField = Schema.optional(
  Schema.Boolean.annotations({
    description: `true to restore it from the trash instead (within ${LIBRARY_LIMITS.trashDays} days). Default false.`
  })
)

const pageOf = (input: { readonly limit?: number | undefined; readonly cursor?: string | undefined }) =>
  Effect.map(
    input.cursor === undefined
      ? Effect.succeed(undefined)
      : Either.match(decodeCursor(input.cursor), { onLeft: Effect.fail, onRight: Effect.succeed }),
    (after) => ({ limit: input.limit ?? 25, after })
  )

/** Board tools: create, rename, trash, place items, connect items, read a board and an item's connections. */
export const boardTools = Effect.gen(function* () {
  const boards = yield* Boards
  const trash = yield* Trash
  const connections = yield* Connections
  return [
    defineTool({
      name: "svc_read_board",
      title: "Read board",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read a board: title, item count, a page of items (latest placed first) with x/y, and the connections touching them. Free. Read a note on it with svc_get_note_markdown, a table with svc_read_table.",
      input: { boardId: BoardIdField, limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        board: Board,
        items: Schema.Array(PlacedItem).annotations({ description: "Items on the board, most recently placed first." }),
        connections: Schema.Array(ItemConnection).annotations({
          description:
            "Connections drawn on this board or workspace-wide between two items on it, touching an item of this page."
        }),
        nextCursor: NextCursorField
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const result = yield* boards.read(id, input.boardId, yield* pageOf(input))
          return {
            board: result.board,
            items: result.items,
            connections: result.connections,
            ...(result.next ? { nextCursor: encodeCursor(result.next) } : {})
          }
        })
    }),
    defineTool({
      name: "svc_get_connections",
      title: "Get connections",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List an item's connections both ways, newest first, each with label, direction, board and the item at the other end (trashed ones left out). Free. Make one with svc_connect_items.",
      input: { itemId: ItemIdField, limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        item: ItemSummary,
        connections: Schema.Array(
          Schema.Struct({
            ...ItemConnection.fields,
            direction: Schema.Literal("outgoing", "incoming").annotations({
              description: "outgoing when the item is fromItemId, incoming when it is toItemId."
            }),
            otherItem: ItemSummary
          }).annotations({ description: "A connection and the item at its other end." })
        ).annotations({ description: "The connections, newest first." }),
        nextCursor: NextCursorField
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const result = yield* connections.listOf(id, input.itemId, yield* pageOf(input))
          return {
            item: result.item,
            connections: result.rows.map((row) => ({
              ...row.connection,
              direction: row.direction,
              otherItem: row.other
            })),
            ...(result.next ? { nextCursor: encodeCursor(result.next) } : {})
          }
        })
    }),
    defineTool({
      name: "svc_create_board",
      title: "Create board",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Create an empty board (a canvas that holds items and connections) and return it. Free. Put items on it with svc_save_items_to_board, connect them with svc_connect_items. Read it with svc_read_board.",
      input: { title: titleInput("Board") },
      output: { board: Board },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { board: yield* boards.create(id, input) }
        })
    }),
    defineTool({
      name: "svc_connect_items",
      title: "Connect items",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Connect two items (from → to), optionally labelled, and return the connection. Free. With boardId, drawn on that board (both items on it); else workspace-wide. The same pair again only changes the label. Read: svc_get_connections.",
      input: {
        fromItemId: idFieldOf("The item the connection starts at"),
        toItemId: idFieldOf("The item the connection points to; not the same as fromItemId"),
        label: Schema.optional(
          Schema.String.pipe(Schema.maxLength(LABEL_MAX_CHARACTERS)).annotations({
            description: `What the connection means, e.g. "supports" or "next step"; up to ${LABEL_MAX_CHARACTERS} characters. Default empty.`
          })
        ),
        boardId: Schema.optional(BoardIdField)
      },
      output: { connection: ItemConnection },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { connection: yield* connections.connect(id, input) }
        })
    }),
    defineTool({
      name: "svc_rename_board",
      title: "Rename board",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: "Give a board a new title and return the board as it now is. Free.",
      input: { boardId: BoardIdField, title: titleInput("New board") },
      output: { board: Board },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { board: yield* boards.rename(id, input) }
        })
    }),
    defineTool({
      name: "svc_trash_board",
      title: "Trash board",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
      description: `Move a board to the trash (hidden everywhere; its items stay) and return it with restorableUntil. Free. restore: true brings it back within ${LIBRARY_LIMITS.trashDays} days, then it is deleted for good. svc_list_workspace_items with inTrash lists the trash.`,
      input: { boardId: BoardIdField, restore: RestoreField },
      output: trashOutput,
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const result = yield* trash.setTrashed(id, {
            itemId: input.boardId,
            restore: input.restore,
            onlyType: "board"
          })
          return { item: result.item, ...(result.restorableUntil ? { restorableUntil: result.restorableUntil } : {}) }
        })
    }),
    defineTool({
      name: "svc_trash_item",
      title: "Trash item",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
      description: `Move any item (note, link, table, board, post…) to the trash (hidden everywhere) and return it with restorableUntil. Free. restore: true brings it back within ${LIBRARY_LIMITS.trashDays} days, then it is deleted for good. svc_list_workspace_items with inTrash lists the trash.`,
      input: { itemId: ItemIdField, restore: RestoreField },
      output: trashOutput,
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const result = yield* trash.setTrashed(id, { itemId: input.itemId, restore: input.restore })
          return { item: result.item, ...(result.restorableUntil ? { restorableUntil: result.restorableUntil } : {}) }
        })
    }),
    defineTool({
      name: "svc_save_items_to_board",
      title: "Save items to board",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Place existing items (notes, links, tables, boards…) on a board, optionally at x/y, and return the board with them as placed. Free. An item already there moves only when x/y are given. A board holds at most ${LIBRARY_LIMITS.boardItems} items. Read: svc_read_board.`,
      input: {
        boardId: BoardIdField,
        items: Schema.Array(Placement)
          .pipe(Schema.minItems(1), Schema.maxItems(LIBRARY_LIMITS.urlsPerCall))
          .annotations({ description: `The items to place, 1 to ${LIBRARY_LIMITS.urlsPerCall}.` })
      },
      output: {
        board: Board,
        items: Schema.Array(PlacedItem).annotations({
          description: "The items of this call as they now sit on the board."
        })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return yield* boards.saveItems(id, input)
        })
    })
  ]
})

function idFieldOf(what: string) {
  return ItemIdField.annotations({ description: `${what}: an item id of any kind (note_…, link_…, …).` })
}
