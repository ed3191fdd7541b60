import { Clock, Effect, Option } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { invalid, NotFound } from "../shared/errors.js"
import type { PageRequest } from "../shared/paging.js"
import { Ids, Transactor } from "../shared/ports.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { ItemsRepo } from "../items/ports.js"
import type { ItemSummary } from "../items/schema.js"
import { BoardsRepo, ConnectionsRepo } from "./ports.js"
import { ItemConnection } from "./schema.js"
import { withSpan } from "../shared/spans.js"

/** The longest connection label, in characters. */
export const LABEL_MAX_CHARACTERS = LIBRARY_LIMITS.connectionLabelCharacters

/** Connections between items: make them, and read an item's in both directions. */
export class Connections extends Effect.Service<Connections>()("svc/boards/Connections", {
  effect: Effect.gen(function* () {
    const items = yield* ItemsRepo
    const boardsRepo = yield* BoardsRepo
    const connections = yield* ConnectionsRepo
    const ids = yield* Ids
    const tx = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    const itemNotFound = (itemIds: ReadonlyArray<string>) =>
      new NotFound({
        message: `no item ${itemIds.join(", ")} in this workspace (or it is in the trash); svc_list_workspace_items lists the items`
      })

    /**
     * Connects two items, optionally on a board where both sit; connecting the same pair on the same board again
     * changes only the label. Answers the connection as stored.
     */
    const connect = (
      workspaceId: string,
      input: {
        readonly fromItemId: string
        readonly toItemId: string
        readonly label?: string | undefined
        readonly boardId?: string | undefined
      }
    ) =>
      Effect.gen(function* () {
        if (input.fromItemId === input.toItemId) {
          return yield* invalid("toItemId", "an item cannot be connected to itself; give two different items")
        }
        const label = (input.label ?? "").trim()
        if (label.length > LABEL_MAX_CHARACTERS) {
          return yield* invalid("label", `a label holds at most ${LABEL_MAX_CHARACTERS} characters`)
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        const id = yield* ids.make("conn_")
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const ends = [input.fromItemId, input.toItemId]
            const found = yield* items.findSummaries(workspaceId, ends)
            const missing = ends.filter((end) => !found.some((item) => item.id === end))
            if (missing.length > 0) return yield* itemNotFound(missing)
            if (input.boardId !== undefined) {
              const locked = yield* items.lockItem(workspaceId, input.boardId)
              if (Option.isNone(locked) || locked.value.type !== "board" || locked.value.trashedAt !== null) {
                return yield* new NotFound({
                  message: `no board ${input.boardId} in this workspace (or it is in the trash); svc_list_workspace_items with type "board" lists them`
                })
              }
              const board = locked.value
              const placed = yield* boardsRepo.findPlaced(board.id, ends)
              const off = ends.filter((end) => !placed.some((item) => item.id === end))
              if (off.length > 0) {
                return yield* invalid(
                  "boardId",
                  `${off.join(" and ")} ${off.length > 1 ? "are" : "is"} not on board ${board.id}; place ${
                    off.length > 1 ? "them" : "it"
                  } with svc_save_items_to_board first, or leave boardId out for a workspace-wide connection`
                )
              }
            }
            const connection = yield* connections.upsert(
              workspaceId,
              new ItemConnection({
                id,
                fromItemId: input.fromItemId,
                toItemId: input.toItemId,
                label,
                boardId: input.boardId ?? null,
                createdAt: now
              })
            )
            yield* recordEvent(workspaceId, connection.id === id ? "connection.created" : "connection.updated", {
              connection_id: connection.id,
              from_item_id: connection.fromItemId,
              to_item_id: connection.toItemId,
              board_id: connection.boardId,
              label
            })
            return connection
          })
        )
      }).pipe(withSpan("Connections.connect"))

    /** An item's connections in both directions, newest first, each with the item at the other end. */
    const listOf = (workspaceId: string, itemId: string, page: PageRequest) =>
      Effect.gen(function* () {
        const [item] = yield* items.findSummaries(workspaceId, [itemId])
        if (item === undefined) return yield* itemNotFound([itemId])
        const found = yield* connections.listOf(workspaceId, itemId, page)
        const others = yield* items.findSummaries(
          workspaceId,
          found.rows.map((c) => (c.fromItemId === itemId ? c.toItemId : c.fromItemId))
        )
        const byId = new Map<string, ItemSummary>(others.map((other) => [other.id, other]))
        const rows = found.rows.flatMap((connection) => {
          const outgoing = connection.fromItemId === itemId
          const other = byId.get(outgoing ? connection.toItemId : connection.fromItemId)
          return other
            ? [{ connection, direction: outgoing ? ("outgoing" as const) : ("incoming" as const), other }]
            : []
        })
        return { item, rows, next: found.next }
      }).pipe(withSpan("Connections.listOf"))

    return { connect, listOf } as const
  })
}) {}
