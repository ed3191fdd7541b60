import { Schema } from "effect"
import { Timestamp } from "../shared/time.js"
import { ItemSummary, TITLE_MAX_CHARACTERS } from "../items/schema.js"
import { idField } from "./schema.js"

// Fields the Boards & documents tools share, so one name means one thing in every tool.

/** The `nextCursor` of a paged answer. */
export const NextCursorField = Schema.optional(
  Schema.String.annotations({ description: "Pass as cursor to read the next page; absent on the last page." })
)

/** `noteId` input. */
export const NoteIdField = idField("Note id (note_…). From svc_create_note or svc_list_workspace_items.")
/** `boardId` input. */
export const BoardIdField = idField("Board id (board_…). From svc_create_board or svc_list_workspace_items.")
/** `tableId` input. */
export const TableIdField = idField("Table id (table_…). From svc_create_table or svc_list_workspace_items.")
/** `itemId` input: any kind of item. */
export const ItemIdField = idField("Item id of any kind (note_…, link_…, …). From svc_list_workspace_items.")

/** A required title field. */
export const titleInput = (what: string) =>
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(TITLE_MAX_CHARACTERS)).annotations({
    description: `${what} title, 1 to ${TITLE_MAX_CHARACTERS} characters.`
  })

/** An item with its tags, as svc_update_item_tags answers it. */
export const TaggedItem = Schema.Struct({
  id: Schema.String.annotations({ description: "The item's id (note_…, board_…, …)." }),
  type: ItemSummary.fields.type,
  title: Schema.String.annotations({ description: "Item title." }),
  tags: Schema.Array(Schema.String).annotations({ description: "All the item's tag names now, sorted by name." })
}).annotations({ description: "An item and every tag it now carries." })

/** An item with the note written about it, as svc_set_item_note answers it. */
export const NotedItem = Schema.Struct({
  id: Schema.String.annotations({ description: "The item's id (note_…, board_…, …)." }),
  type: ItemSummary.fields.type,
  title: Schema.String.annotations({ description: "Item title." }),
  note: Schema.String.annotations({ description: "The item's note now; empty when there is none." }),
  updatedAt: Timestamp
}).annotations({ description: "An item and its note." })

/** The trash answer: the item as it now is and until when it can be restored. */
export const trashOutput = {
  item: ItemSummary,
  restorableUntil: Schema.optional(Timestamp)
}
