import { Context, type Effect, type Option } from "effect"
import type { EventRecord } from "../events/schema.js"
import type { Page, PageRequest } from "../shared/paging.js"
import type { ItemSummary, ItemType, Note } from "./schema.js"

/** What `ItemsRepo.list` can narrow a listing to; every field is optional and they combine with AND. */
export interface ItemFilter {
  readonly type?: ItemType | undefined
  /** A tag name, matched without regard to case. */
  readonly tag?: string | undefined
  /** Only items placed on this board. */
  readonly boardId?: string | undefined
  /** Created at or after this instant. */
  readonly createdAfter?: Date | undefined
  /** Created before this instant. */
  readonly createdBefore?: Date | undefined
  /** The exact title, without regard to case. */
  readonly title?: string | undefined
  /** The exact web address. */
  readonly url?: string | undefined
  /** List the trash (items trashed at or after this instant) instead of the library. */
  readonly trashedSince?: Date | undefined
}

/** A new item row of any type (boards and tables; notes use `insertNote`). */
export interface NewItem {
  readonly id: string
  readonly type: ItemType
  readonly title: string
  readonly url: string | null
  readonly data: Readonly<Record<string, unknown>>
  readonly createdAt: Date
}

/** An item row as the write paths see it, trashed or not. */
export interface StoredItem {
  readonly id: string
  readonly type: ItemType
  readonly title: string
  readonly url: string | null
  readonly note: string
  readonly data: Readonly<Record<string, unknown>>
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly trashedAt: Date | null
}

/** Stored workspace items (notes for now; links, boards and tables share the table). */
export class ItemsRepo extends Context.Tag("svc/items/ItemsRepo")<
  ItemsRepo,
  {
    /**
     * Inserts a note and appends its `created` event to the log in one statement: atomic without a transaction,
     * in one database round trip where a transaction takes four (the most frequent write agents make). The event
     * must be one the log keeps to itself (`isWebhookEventType` false): published events go through
     * `EventLog.append`, which queues their deliveries; one that is published here is a defect.
     */
    readonly insertNote: (workspaceId: string, note: Note, created: EventRecord) => Effect.Effect<void>
    /** A note that is not in the trash. */
    readonly findNote: (workspaceId: string, noteId: string) => Effect.Effect<Option.Option<Note>>
    /**
     * Appends to a note in one statement (no lost update under concurrent appends); `None` when
     * there is no such note, `"too-long"` when the result would pass `maxCharacters`.
     */
    readonly appendToNote: (
      workspaceId: string,
      noteId: string,
      text: string,
      separator: string,
      maxCharacters: number,
      at: Date
    ) => Effect.Effect<Option.Option<Note | "too-long">>
    /** Items not in the trash (or only the trash, with `trashedSince`), newest first. */
    readonly list: (workspaceId: string, filter: ItemFilter, page: PageRequest) => Effect.Effect<Page<ItemSummary>>
    /** Inserts an item of any type. */
    readonly insertItem: (workspaceId: string, item: NewItem) => Effect.Effect<void>
    /** One item, trashed or not, without a lock (for reads). */
    readonly findItem: (workspaceId: string, itemId: string) => Effect.Effect<Option.Option<StoredItem>>
    /** One item, trashed or not, locked for the rest of the transaction. */
    readonly lockItem: (workspaceId: string, itemId: string) => Effect.Effect<Option.Option<StoredItem>>
    /** The items of these ids that exist in the workspace and are not in the trash (any order). */
    readonly findSummaries: (workspaceId: string, itemIds: ReadonlyArray<string>) => Effect.Effect<Array<ItemSummary>>
    /** Changes an item's title, note or data (fields left out stay); touches `updated_at`. */
    readonly updateItem: (
      workspaceId: string,
      itemId: string,
      change: {
        readonly title?: string | undefined
        readonly note?: string | undefined
        readonly data?: Readonly<Record<string, unknown>> | undefined
      },
      at: Date
    ) => Effect.Effect<void>
    /** A note that is not in the trash, locked for the rest of the transaction. */
    readonly lockNote: (workspaceId: string, noteId: string) => Effect.Effect<Option.Option<Note>>
    /** Replaces a note's body (and title when given); answers the note as it now is. */
    readonly replaceNoteBody: (
      workspaceId: string,
      noteId: string,
      change: { readonly markdown: string; readonly title?: string | undefined },
      at: Date
    ) => Effect.Effect<Note>
    /** Puts an item in the trash (`at`) or takes it out (`null`). */
    readonly setTrashed: (workspaceId: string, itemId: string, at: Date | null) => Effect.Effect<void>
  }
>() {}
