import { Context, type Effect } from "effect"
import type { Page, PageKey, PageRequest } from "../shared/paging.js"
import type { CellValue, ItemConnection, PlacedItem, StoredRow, Tag } from "./schema.js"

/** Where an item goes on a board. */
export interface CanvasPlacement {
  readonly itemId: string
  readonly x: number
  readonly y: number
}

/** The first page of one board's items, as a batched read answers it (`BoardsRepo.firstPages`). */
export interface BoardFirstPage {
  readonly boardId: string
  readonly title: string
  readonly createdAt: Date
  readonly updatedAt: Date
  /** How many items not in the trash sit on the board. */
  readonly itemCount: number
  /** The board's items, most recently placed first, as `listItems` pages them. */
  readonly items: ReadonlyArray<PlacedItem>
  /** Where the next page starts; absent on the last page. */
  readonly next: PageKey | undefined
}

/** Items placed on boards (a board is an item of type `board`; boards live in `ItemsRepo`). */
export class BoardsRepo extends Context.Tag("svc/boards/BoardsRepo")<
  BoardsRepo,
  {
    /** How many items not in the trash sit on the board. */
    readonly countItems: (boardId: string) => Effect.Effect<number>
    /** These items as placed on the board, for those that are on it and not in the trash. */
    readonly findPlaced: (boardId: string, itemIds: ReadonlyArray<string>) => Effect.Effect<Array<PlacedItem>>
    /** Places items; an item already on the board moves to the new position and keeps its `addedAt`. */
    readonly place: (boardId: string, placements: ReadonlyArray<CanvasPlacement>, at: Date) => Effect.Effect<void>
    /** The board's items not in the trash, most recently placed first. */
    readonly listItems: (boardId: string, page: PageRequest) => Effect.Effect<Page<PlacedItem>>
    /**
     * Connections drawn on the board, or workspace-wide, whose two ends are both on the board and not
     * in the trash, and touch one of `itemIds`.
     */
    readonly connectionsTouching: (
      boardId: string,
      itemIds: ReadonlyArray<string>
    ) => Effect.Effect<Array<ItemConnection>>
    /**
     * The first page of items of each of these boards of the workspace (those not in the trash; others are left
     * out), in one statement whatever the number of boards.
     */
    readonly firstPages: (
      workspaceId: string,
      boardIds: ReadonlyArray<string>,
      limit: number
    ) => Effect.Effect<Array<BoardFirstPage>>
    /**
     * `connectionsTouching` of several boards in one statement: per board id, the connections touching its items
     * of `itemIds`.
     */
    readonly connectionsTouchingMany: (
      itemIdsByBoard: ReadonlyMap<string, ReadonlyArray<string>>
    ) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<ItemConnection>>>
  }
>() {}

/** Connections between items. */
export class ConnectionsRepo extends Context.Tag("svc/boards/ConnectionsRepo")<
  ConnectionsRepo,
  {
    /** Inserts a connection, or updates the label of the same (from, to, board) one; answers it as stored. */
    readonly upsert: (workspaceId: string, connection: ItemConnection) => Effect.Effect<ItemConnection>
    /** An item's connections in both directions whose other end is not in the trash, newest first. */
    readonly listOf: (workspaceId: string, itemId: string, page: PageRequest) => Effect.Effect<Page<ItemConnection>>
  }
>() {}

/** Tags and which items carry them. */
export class TagsRepo extends Context.Tag("svc/boards/TagsRepo")<
  TagsRepo,
  {
    /**
     * The workspace's tags of these names (without regard to case), creating the missing ones with ids from
     * `newId`; answers each tag and whether this call created it.
     */
    readonly ensure: (
      workspaceId: string,
      names: ReadonlyArray<string>,
      newId: () => Effect.Effect<string>,
      at: Date
    ) => Effect.Effect<Array<{ readonly id: string; readonly name: string; readonly created: boolean }>>
    /** Existing tags of these names, without regard to case. */
    readonly findByNames: (
      workspaceId: string,
      names: ReadonlyArray<string>
    ) => Effect.Effect<Array<{ readonly id: string; readonly name: string }>>
    readonly attach: (itemIds: ReadonlyArray<string>, tagIds: ReadonlyArray<string>) => Effect.Effect<void>
    readonly detach: (itemIds: ReadonlyArray<string>, tagIds: ReadonlyArray<string>) => Effect.Effect<void>
    /** Tag names per item, sorted without regard to case. */
    readonly namesOf: (itemIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<string>>>
    /** Tags sorted by name (without regard to case), after the tag `after` names. */
    readonly list: (
      workspaceId: string,
      page: { readonly limit: number; readonly after: { readonly name: string; readonly id: string } | undefined }
    ) => Effect.Effect<Array<Tag>>
  }
>() {}

/** Rows of table items (columns live in the table item's data). */
export class TablesRepo extends Context.Tag("svc/boards/TablesRepo")<
  TablesRepo,
  {
    readonly countRows: (tableId: string) => Effect.Effect<number>
    /** The highest row position, 0 for an empty table. */
    readonly lastPosition: (tableId: string) => Effect.Effect<number>
    readonly insertRows: (tableId: string, rows: ReadonlyArray<StoredRow>) => Effect.Effect<void>
    /** Rows of these ids in the table. */
    readonly findRows: (tableId: string, rowIds: ReadonlyArray<string>) => Effect.Effect<Array<StoredRow>>
    /** Replaces the cells of rows. */
    readonly updateRows: (
      tableId: string,
      rows: ReadonlyArray<{ readonly id: string; readonly cells: Readonly<Record<string, CellValue>> }>,
      at: Date
    ) => Effect.Effect<void>
    /** Deletes rows; answers how many went. */
    readonly deleteRows: (tableId: string, rowIds: ReadonlyArray<string>) => Effect.Effect<number>
    /** Drops the cells of removed columns from every row. */
    readonly dropCells: (tableId: string, columnIds: ReadonlyArray<string>) => Effect.Effect<void>
    /** Rows in position order, after the position `after`. */
    readonly listRows: (tableId: string, limit: number, after: number) => Effect.Effect<Array<StoredRow>>
  }
>() {}

/** Removing what has been in the trash too long. */
export class TrashRepo extends Context.Tag("svc/boards/TrashRepo")<
  TrashRepo,
  {
    /**
     * Deletes up to `limit` items trashed at or before `cutoff` (with their placements, connections, tags and rows),
     * skipping rows another transaction holds; answers what went.
     */
    readonly purgeBefore: (
      cutoff: Date,
      limit: number
    ) => Effect.Effect<
      Array<{ readonly id: string; readonly workspaceId: string; readonly type: string; readonly title: string }>
    >
  }
>() {}
