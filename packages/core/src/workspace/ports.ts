import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { ItemSummary, ItemType, Note, Store, Workspace } from "./schema.js"

/** Stored workspaces and their stores. */
export class WorkspacesRepo extends Context.Tag("svc/workspace/WorkspacesRepo")<
  WorkspacesRepo,
  {
    readonly insert: (workspace: Workspace) => Effect.Effect<void>
    readonly findById: (id: string) => Effect.Effect<Option.Option<Workspace>>
    /** The account's default workspace, if it still has one. */
    readonly findDefault: (accountId: string) => Effect.Effect<Option.Option<Workspace>>
    /** The account's workspaces, newest first. */
    readonly listByOwner: (accountId: string, page: PageRequest) => Effect.Effect<Page<Workspace>>
    /** Inserts a store; `false` when the handle is taken. */
    readonly insertStore: (store: Store) => Effect.Effect<boolean>
    readonly findStore: (workspaceId: string) => Effect.Effect<Option.Option<Store>>
    readonly findStoreByHandle: (handle: string) => Effect.Effect<Option.Option<Store>>
  }
>() {}

/** Stored workspace items (notes for now; links, boards and tables share the table). */
export class ItemsRepo extends Context.Tag("svc/workspace/ItemsRepo")<
  ItemsRepo,
  {
    readonly insertNote: (workspaceId: string, note: Note) => Effect.Effect<void>
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
    /** Items not in the trash, newest first. */
    readonly list: (
      workspaceId: string,
      filter: { readonly type?: ItemType | undefined },
      page: PageRequest
    ) => Effect.Effect<Page<ItemSummary>>
  }
>() {}
