import { Context, type Effect, type Option } from "effect"
import type { PreviewSource } from "./schema.js"

/** What is known about a page before it is saved. */
export interface PagePreview {
  /** The page title; null when the adapter could not tell (the caller then makes one from the URL). */
  readonly title: string | null
  readonly description: string | null
  readonly source: PreviewSource
}

/**
 * Reads a page's title and description for a link being saved. The default adapter does not reach the
 * network (it answers `source: "offline"`); a fetching adapter must go through the SSRF-safe sender. It never
 * fails: an unreadable page answers `source: "unavailable"`, and the link is saved anyway.
 */
export class LinkPreview extends Context.Tag("svc/library/LinkPreview")<
  LinkPreview,
  {
    /** `url` is absolute http(s), already normalised. */
    readonly preview: (url: string) => Effect.Effect<PagePreview>
  }
>() {}

/** Kinds of item the save tools make. */
export type SavedItemType = "link" | "post" | "ad" | "media"

/** A saved item as stored: the type-specific fields live in `data`. */
export interface LibraryItem {
  readonly id: string
  readonly type: SavedItemType
  readonly title: string
  readonly url: string | null
  readonly note: string
  readonly data: Readonly<Record<string, unknown>>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** An item to save; `sourceKey` identifies it within its type and workspace (a normalised URL, a platform id). */
export interface NewLibraryItem {
  readonly id: string
  readonly type: SavedItemType
  readonly title: string
  readonly url: string | null
  readonly note: string
  /** Only known fields; absent ones stay absent so a later save can fill them in. */
  readonly data: Readonly<Record<string, unknown>>
  readonly sourceKey: string
  readonly at: Date
}

/**
 * What saving did: a new item, an existing one given fields it lacked, one brought back from the trash, or an
 * existing one left as it was.
 */
export type SaveOutcome = "created" | "updated" | "restored" | "unchanged"

/** A board locked for placing items, with how many it holds. */
export interface LockedBoard {
  readonly id: string
  readonly title: string
  readonly itemCount: number
}

/** Where an item goes on a board. */
export interface ItemPlacement {
  readonly itemId: string
  readonly x: number
  readonly y: number
}

/** Stored links, posts, ads and media, and their places on boards. */
export class LibraryRepo extends Context.Tag("svc/library/LibraryRepo")<
  LibraryRepo,
  {
    /**
     * Inserts the item, or — when an item with the same type and source key is in the workspace — answers that
     * one, with `data` fields and an empty note it lacked filled in (never overwritten), out of the trash if it was in.
     */
    readonly save: (
      workspaceId: string,
      item: NewLibraryItem
    ) => Effect.Effect<{ readonly item: LibraryItem; readonly outcome: SaveOutcome }>
    /** A board of the workspace, not in the trash, locked until the transaction ends; call inside one. */
    readonly lockBoard: (workspaceId: string, boardId: string) => Effect.Effect<Option.Option<LockedBoard>>
    /** Places items on a board; items already there stay where they are. Answers the ids newly placed. */
    readonly place: (
      boardId: string,
      placements: ReadonlyArray<ItemPlacement>,
      at: Date
    ) => Effect.Effect<ReadonlyArray<string>>
    /** One item of the given type, not in the trash. */
    readonly find: (
      workspaceId: string,
      itemId: string,
      type: SavedItemType
    ) => Effect.Effect<Option.Option<LibraryItem>>
    /** The boards (not in the trash) an item sits on, by title. */
    readonly boardsOf: (itemId: string) => Effect.Effect<ReadonlyArray<{ readonly id: string; readonly title: string }>>
  }
>() {}
