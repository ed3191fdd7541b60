import { Schema } from "effect"
import { Timestamp } from "../shared/time.js"

// What every kind of item shares (one items table holds notes, links, boards, tables, media, posts and ads): the
// layer that boards, highlights, library and the workspace reads all build on.

/** Kinds of things a workspace holds. */
export const ItemType = Schema.Literal("note", "link", "board", "table", "media", "post", "ad").annotations({
  description: "Kind of item."
})
export type ItemType = typeof ItemType.Type

/** Social platforms a saved post or ad can come from; `other` for a site we do not recognise. */
export const Platform = Schema.Literal(
  "x",
  "linkedin",
  "instagram",
  "tiktok",
  "youtube",
  "substack",
  "threads",
  "facebook",
  "other"
).annotations({
  description: "Platform; other for any other site."
})
export type Platform = typeof Platform.Type

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
