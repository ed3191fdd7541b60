import { Schema } from "effect"
import type { LibraryItem } from "./ports.js"
import { MediaCard, MediaKind } from "./schema.js"

/** A media item as its card: kind from `data`, the boards it sits on. */
export const mediaCardOf = (
  item: LibraryItem,
  boards: ReadonlyArray<{ readonly id: string; readonly title: string }>
): MediaCard =>
  new MediaCard({
    id: item.id,
    kind: Schema.is(MediaKind)(item.data.kind) ? item.data.kind : "image",
    url: item.url ?? "",
    title: item.title,
    note: item.note,
    boards,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt
  })
