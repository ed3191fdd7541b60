import { Clock, Effect, Option } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { invalid, NotFound } from "../shared/errors.js"
import type { PageKey, PageRequest } from "../shared/paging.js"
import { Ids, Transactor } from "../shared/ports.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { ItemsRepo, type StoredItem } from "../items/ports.js"
import { BoardsRepo, type CanvasPlacement } from "./ports.js"
import { Board, type ItemConnection, type PlacedItem } from "./schema.js"
import { withSpan } from "../shared/spans.js"

/** Where an item goes; a missing x/y places a new item on the next free grid cell and leaves a placed one where it is. */
export interface PlacementInput {
  readonly itemId: string
  readonly x?: number | undefined
  readonly y?: number | undefined
}

// New items without a position fill a grid, row by row, so a board built by an agent is readable at once.
const GRID_COLUMNS = 6
const GRID_X = 320
const GRID_Y = 240
const gridCell = (n: number) => ({ x: (n % GRID_COLUMNS) * GRID_X, y: Math.floor(n / GRID_COLUMNS) * GRID_Y })

/** A board with a page of its items and the connections touching them, as `svc_read_board` answers it. */
export interface BoardPage {
  readonly board: Board
  readonly items: ReadonlyArray<PlacedItem>
  readonly connections: ReadonlyArray<ItemConnection>
  readonly next: PageKey | undefined
}

/** Boards: canvases of items. Create, rename, read, and place items on them. */
export class Boards extends Effect.Service<Boards>()("svc/boards/Boards", {
  effect: Effect.gen(function* () {
    const items = yield* ItemsRepo
    const boards = yield* BoardsRepo
    const ids = yield* Ids
    const tx = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    const boardNotFound = (boardId: string) =>
      new NotFound({
        message: `no board ${boardId} in this workspace (or it is in the trash); svc_list_workspace_items with type "board" lists them`
      })

    /** The board under a row lock (placements and renames of one board happen one at a time). */
    const lockBoard = (workspaceId: string, boardId: string) =>
      Effect.flatMap(items.lockItem(workspaceId, boardId), (found) =>
        Option.isSome(found) && found.value.type === "board" && found.value.trashedAt === null
          ? Effect.succeed(found.value)
          : Effect.fail(boardNotFound(boardId))
      )

    const toBoard = (item: StoredItem, itemCount: number, updatedAt = item.updatedAt) =>
      new Board({ id: item.id, title: item.title, itemCount, createdAt: item.createdAt, updatedAt })

    const checkTitle = (title: string) => {
      const trimmed = title.trim()
      return trimmed ? Effect.succeed(trimmed) : Effect.fail(invalid("title", "title must not be blank"))
    }

    /** Creates an empty board. */
    const create = (workspaceId: string, input: { readonly title: string }) =>
      Effect.gen(function* () {
        const title = yield* checkTitle(input.title)
        const now = new Date(yield* Clock.currentTimeMillis)
        const id = yield* ids.make("board_")
        yield* tx.withTransaction(
          Effect.zipRight(
            items.insertItem(workspaceId, { id, type: "board", title, url: null, data: {}, createdAt: now }),
            recordEvent(workspaceId, "item.created", { item_id: id, type: "board", title })
          )
        )
        return new Board({ id, title, itemCount: 0, createdAt: now, updatedAt: now })
      }).pipe(withSpan("Boards.create"))

    /** Gives a board a new title. */
    const rename = (workspaceId: string, input: { readonly boardId: string; readonly title: string }) =>
      Effect.gen(function* () {
        const title = yield* checkTitle(input.title)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const board = yield* lockBoard(workspaceId, input.boardId)
            const count = yield* boards.countItems(board.id)
            if (board.title === title) return toBoard(board, count)
            yield* items.updateItem(workspaceId, board.id, { title }, now)
            yield* recordEvent(workspaceId, "board.renamed", { board_id: board.id, title, previous_title: board.title })
            return toBoard({ ...board, title }, count, now)
          })
        )
      }).pipe(withSpan("Boards.rename"))

    /** One board with a page of its items (most recently placed first) and the connections touching them. */
    const read = (workspaceId: string, boardId: string, page: PageRequest) =>
      Effect.gen(function* () {
        const found = yield* items.findItem(workspaceId, boardId)
        if (Option.isNone(found) || found.value.type !== "board" || found.value.trashedAt !== null) {
          return yield* boardNotFound(boardId)
        }
        const count = yield* boards.countItems(boardId)
        const placed = yield* boards.listItems(boardId, page)
        const connections = yield* boards.connectionsTouching(
          boardId,
          placed.rows.map((item) => item.id)
        )
        return { board: toBoard(found.value, count), items: placed.rows, connections, next: placed.next }
      }).pipe(withSpan("Boards.read"))

    /**
     * `read` of the first page of many boards at once, in two statements whatever their number: per board id found
     * in the workspace (and not in the trash) the same board, items and connections `read` answers.
     */
    const readMany = (workspaceId: string, boardIds: ReadonlyArray<string>, limit: number) =>
      Effect.gen(function* () {
        const pages = boardIds.length === 0 ? [] : yield* boards.firstPages(workspaceId, boardIds, limit)
        const touching = yield* boards.connectionsTouchingMany(
          new Map(pages.map((page) => [page.boardId, page.items.map((item) => item.id)]))
        )
        return new Map<string, BoardPage>(
          pages.map((page) => [
            page.boardId,
            {
              board: new Board({
                id: page.boardId,
                title: page.title,
                itemCount: page.itemCount,
                createdAt: page.createdAt,
                updatedAt: page.updatedAt
              }),
              items: page.items,
              connections: touching.get(page.boardId) ?? [],
              next: page.next
            }
          ])
        )
      }).pipe(withSpan("Boards.readMany"))

    /** Places existing items on a board (or moves those already on it); answers the board and those items. */
    const saveItems = (
      workspaceId: string,
      input: { readonly boardId: string; readonly items: ReadonlyArray<PlacementInput> }
    ) =>
      Effect.gen(function* () {
        if (input.items.length === 0) return yield* invalid("items", "give at least one item to place")
        if (input.items.length > LIBRARY_LIMITS.urlsPerCall) {
          return yield* invalid("items", `place at most ${LIBRARY_LIMITS.urlsPerCall} items per call`)
        }
        const wanted = new Map<string, PlacementInput>()
        for (const [index, entry] of input.items.entries()) {
          if (entry.itemId === input.boardId) {
            return yield* invalid(`items.${index}.itemId`, "a board cannot be placed on itself")
          }
          if ((entry.x === undefined) !== (entry.y === undefined)) {
            return yield* invalid(`items.${index}`, "give both x and y, or neither to let the board place the item")
          }
          wanted.set(entry.itemId, entry)
        }
        const itemIds = [...wanted.keys()]
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const board = yield* lockBoard(workspaceId, input.boardId)
            const found = yield* items.findSummaries(workspaceId, itemIds)
            const known = new Set(found.map((item) => item.id))
            const missing = itemIds.filter((id) => !known.has(id))
            if (missing.length > 0) {
              return yield* new NotFound({
                message: `no item ${missing.join(", ")} in this workspace (or in the trash); svc_list_workspace_items lists the items`
              })
            }
            const already = new Set((yield* boards.findPlaced(board.id, itemIds)).map((item) => item.id))
            const count = yield* boards.countItems(board.id)
            const added = itemIds.filter((id) => !already.has(id))
            if (count + added.length > LIBRARY_LIMITS.boardItems) {
              return yield* invalid(
                "items",
                `a board holds at most ${LIBRARY_LIMITS.boardItems} items; this one has ${count}, so at most ${
                  LIBRARY_LIMITS.boardItems - count
                } more fit`
              )
            }
            const placements: Array<CanvasPlacement> = []
            let next = count
            for (const id of itemIds) {
              const entry = wanted.get(id)
              if (entry?.x !== undefined && entry.y !== undefined)
                placements.push({ itemId: id, x: entry.x, y: entry.y })
              else if (!already.has(id)) placements.push({ itemId: id, ...gridCell(next++) })
            }
            yield* boards.place(board.id, placements, now)
            if (placements.length > 0) {
              yield* items.updateItem(workspaceId, board.id, {}, now)
              yield* recordEvent(workspaceId, "board.items_placed", {
                board_id: board.id,
                added: added,
                moved: placements.map((p) => p.itemId).filter((id) => already.has(id))
              })
            }
            const placed = yield* boards.findPlaced(board.id, itemIds)
            const order = new Map(itemIds.map((id, index) => [id, index]))
            placed.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
            return {
              board: toBoard(board, count + added.length, placements.length > 0 ? now : board.updatedAt),
              items: placed
            }
          })
        )
      }).pipe(withSpan("Boards.saveItems"))

    return { create, rename, read, readMany, saveItems, lockBoard } as const
  })
}) {}
