import { Schema } from "effect"
import { Timestamp } from "../shared/time.js"

/** A store's handle: the end of its web address. */
export const StoreHandle = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/, {
    message: () => "a handle is 3 to 40 lower-case letters, digits or dashes, not starting or ending with a dash"
  })
)

/** The store that sells from a workspace; one per workspace. */
export class Store extends Schema.Class<Store>("Store")({
  id: Schema.String,
  workspaceId: Schema.String,
  handle: Schema.String.annotations({ description: "The store's handle, the end of its web address." }),
  name: Schema.String.annotations({ description: "The store's display name." })
}) {}

/** A workspace: the library of one creator business. */
export class Workspace extends Schema.Class<Workspace>("Workspace")({
  id: Schema.String.annotations({ description: "Workspace id (ws_…); pass it as workspaceId to any tool." }),
  name: Schema.String.annotations({ description: "Workspace name." }),
  ownerId: Schema.String.annotations({ description: "Account id of the owner." }),
  isDefault: Schema.Boolean.annotations({ description: "True for the owner's default workspace." }),
  createdAt: Timestamp
}) {}

/** Kinds of things a workspace holds. */
export const ItemType = Schema.Literal("note", "link", "board", "table", "media", "post", "ad").annotations({
  description: "Kind of item: note, link, board, table, media, post or ad."
})
export type ItemType = typeof ItemType.Type

/** The largest note body we keep, in characters (about 200 printed pages). */
export const NOTE_MAX_CHARACTERS = 200_000
/** The longest title of any item, in characters. */
export const TITLE_MAX_CHARACTERS = 300

/** One thing in a workspace, as lists show it. */
export class ItemSummary extends Schema.Class<ItemSummary>("ItemSummary")(
  {
    id: Schema.String.annotations({ description: "Item id (note_…, link_…, …)." }),
    type: ItemType,
    title: Schema.String.annotations({ description: "Item title." }),
    url: Schema.NullOr(Schema.String).annotations({
      description: "Web address for links, posts and media; null otherwise."
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    // When the item went to the trash; present only when listing the trash.
    trashedAt: Schema.optional(Timestamp)
  },
  { description: "One item of the workspace, without its body." }
) {}

/** A markdown note with its body. */
export class Note extends Schema.Class<Note>("Note")(
  {
    id: Schema.String.annotations({ description: "Note id (note_…)." }),
    title: Schema.String.annotations({ description: "Note title." }),
    markdown: Schema.String.annotations({ description: "The note body, Markdown." }),
    characters: Schema.Int.annotations({ description: "Length of the body in characters." }),
    createdAt: Timestamp,
    updatedAt: Timestamp
  },
  { description: "A Markdown note: id, title, full body, length and timestamps." }
) {}
