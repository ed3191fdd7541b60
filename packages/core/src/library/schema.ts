import { Schema } from "effect"
import { Timestamp } from "../shared/time.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { Platform, TITLE_MAX_CHARACTERS } from "../items/schema.js"

/** How a saved link got its title and description: `offline` = made from the URL, no page was fetched. */
export const PreviewSource = Schema.Literal("offline", "fetched", "unavailable").annotations({
  description:
    'Where the title came from: "offline" (made from the URL; this server does not fetch pages), "fetched" (read from the page), "unavailable" (the page could not be read; title made from the URL).'
})
export type PreviewSource = typeof PreviewSource.Type

/** Kinds of media card. */
export const MediaKind = Schema.Literal("image", "video", "gif").annotations({
  description: "Media kind: image, video or gif."
})
export type MediaKind = typeof MediaKind.Type

/** An absolute web address as tools take it. */
export const WebUrl = Schema.String.pipe(Schema.minLength(8), Schema.maxLength(LIBRARY_LIMITS.urlCharacters))

/** Saved text (a post's words, a clip of a page) as tools take it. */
export const SavedText = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(LIBRARY_LIMITS.savedTextCharacters))

/** An item title as tools take it. */
export const ItemTitle = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(TITLE_MAX_CHARACTERS))

/** A board id as tools take it. */
export const BoardId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

const id = (what: string) => Schema.String.annotations({ description: what })
const reused = Schema.Boolean.annotations({
  description:
    "True when this was already in the workspace: the existing item is answered (fields it lacked are filled in, none overwritten)."
})

/** A highlight as saving answers it. */
export const SavedHighlight = Schema.Struct({
  id: id("Highlight id (hl_…)."),
  text: Schema.String.annotations({ description: "The highlighted passage." }),
  note: Schema.String.annotations({ description: "What the person wrote about it; empty when nothing." })
}).annotations({ description: "A passage saved from an item." })

/** A saved link as the save tools answer it. */
export class SavedLink extends Schema.Class<SavedLink>("SavedLink")(
  {
    id: id("Link item id (link_…)."),
    title: Schema.String.annotations({ description: "Link title." }),
    url: Schema.String.annotations({ description: "The saved address, normalised (lower-case host, no #fragment)." }),
    description: Schema.NullOr(Schema.String).annotations({ description: "Page description, or null when unknown." }),
    preview: PreviewSource,
    note: Schema.String.annotations({ description: "The item note; empty when none." }),
    reused,
    highlights: Schema.Array(SavedHighlight).annotations({
      description: "Highlights saved from this link in this call (a passage saved before answers its existing record)."
    }),
    captureId: Schema.NullOr(Schema.String).annotations({
      description: "Capture (cap_…) holding the text given with the link, or null when no text was given."
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp
  },
  { description: "A link item of the workspace." }
) {}

/** A saved social post or ad as the save tools answer it. */
export class SavedPost extends Schema.Class<SavedPost>("SavedPost")(
  {
    id: id("Item id (post_… for posts, ad_… for ads)."),
    type: Schema.Literal("post", "ad").annotations({ description: "post or ad." }),
    title: Schema.String.annotations({ description: "Item title, made from the author and text when not given." }),
    platform: Platform,
    externalId: Schema.NullOr(Schema.String).annotations({
      description: "The post's or ad's id on its platform, or null when only a URL is known."
    }),
    author: Schema.NullOr(Schema.String).annotations({
      description: "Author of a post or brand of an ad, as given or read from the URL; null when unknown."
    }),
    text: Schema.NullOr(Schema.String).annotations({ description: "The text as given; null when none was given." }),
    url: Schema.NullOr(Schema.String).annotations({ description: "Address of the post or ad, or null." }),
    reused,
    captureId: Schema.NullOr(Schema.String).annotations({
      description: "Capture (cap_…) holding the text, or null when no text was given."
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp
  },
  { description: "A social post or ad saved in the workspace." }
) {}

/** A media card. */
export class MediaCard extends Schema.Class<MediaCard>("MediaCard")(
  {
    id: id("Media item id (media_…)."),
    kind: MediaKind,
    url: Schema.String.annotations({ description: "Address of the image or video." }),
    title: Schema.String.annotations({ description: "Card title." }),
    note: Schema.String.annotations({ description: "The item note; empty when none." }),
    boards: Schema.Array(
      Schema.Struct({
        id: id("Board id (board_…)."),
        title: Schema.String.annotations({ description: "Board title." })
      }).annotations({ description: "A board the card sits on." })
    ).annotations({ description: "Boards the card sits on." }),
    createdAt: Timestamp,
    updatedAt: Timestamp
  },
  { description: "An image, video or GIF saved in the workspace." }
) {}

/** What a save did on a board, when it named one. */
export class SavedOnBoard extends Schema.Class<SavedOnBoard>("SavedOnBoard")(
  {
    id: id("Board id (board_…)."),
    title: Schema.String.annotations({ description: "Board title." }),
    added: Schema.Int.annotations({ description: "Items newly placed on the board by this call." }),
    itemCount: Schema.Int.annotations({ description: "Items on the board now." })
  },
  { description: "The board the saved items were placed on." }
) {}
