import { Clock, Effect, Either, Option } from "effect"
import { WorkspacesRepo } from "../accounts/ports.js"
import type { Store, Workspace } from "../accounts/workspace.js"
import type { Principal } from "../auth/schema.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { type ItemFilter, ItemsRepo } from "../items/ports.js"
import type { ItemType } from "../items/schema.js"
import { invalid, NotFound } from "../shared/errors.js"
import { decodeCursor, type Page } from "../shared/paging.js"

/** A page request as tools take it: a size and an opaque cursor. */
export interface ListInput {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

const pageRequest = (input: ListInput) =>
  Effect.map(
    input.cursor === undefined
      ? Effect.succeed(undefined)
      : Either.match(decodeCursor(input.cursor), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        }),
    (after) => ({ limit: input.limit ?? 25, after })
  )

/** Reading a caller's workspaces and the items they hold (the Workspace group's lists). */
export class Workspaces extends Effect.Service<Workspaces>()("svc/workspace/Workspaces", {
  effect: Effect.gen(function* () {
    const workspaces = yield* WorkspacesRepo
    const items = yield* ItemsRepo

    /** The workspaces the caller can reach, newest first, each with its store. */
    const listWorkspaces = (principal: Principal, input: ListInput) =>
      Effect.gen(function* () {
        const request = yield* pageRequest(input)
        let page: Page<Workspace>
        if (principal.reach === "bound") {
          const bound =
            principal.workspaceId === null ? Option.none() : yield* workspaces.findById(principal.workspaceId)
          page = { rows: Option.toArray(bound).filter(() => request.after === undefined), next: undefined }
        } else {
          page = yield* workspaces.listByOwner(principal.accountId, request)
        }
        const rows = yield* Effect.forEach(page.rows, (workspace) =>
          Effect.map(workspaces.findStore(workspace.id), (store) => ({
            workspace,
            store: Option.getOrNull(store) as Store | null
          }))
        )
        return { rows, next: page.next }
      })

    /**
     * Items of a workspace, newest first, trash left out; or, with `inTrash`, the trash (items trashed in the
     * last 30 days, still restorable).
     */
    const listItems = (
      workspaceId: string,
      input: ListInput & {
        readonly type?: ItemType | undefined
        readonly tag?: string | undefined
        readonly boardId?: string | undefined
        readonly createdAfter?: Date | undefined
        readonly createdBefore?: Date | undefined
        readonly inTrash?: boolean | undefined
      }
    ) =>
      Effect.gen(function* () {
        if (input.createdAfter && input.createdBefore && input.createdAfter >= input.createdBefore) {
          return yield* invalid("createdBefore", "createdBefore must be later than createdAfter")
        }
        if (input.boardId !== undefined) {
          const board = yield* items.findItem(workspaceId, input.boardId)
          if (Option.isNone(board) || board.value.type !== "board" || board.value.trashedAt !== null) {
            return yield* new NotFound({
              message: `no board ${input.boardId} in this workspace (or it is in the trash); list boards with type "board"`
            })
          }
        }
        const request = yield* pageRequest(input)
        const now = yield* Clock.currentTimeMillis
        const filter: ItemFilter = {
          type: input.type,
          tag: input.tag?.trim(),
          boardId: input.boardId,
          createdAfter: input.createdAfter,
          createdBefore: input.createdBefore,
          trashedSince: input.inTrash ? new Date(now - LIBRARY_LIMITS.trashDays * 86_400_000) : undefined
        }
        return yield* items.list(workspaceId, filter, request)
      })

    /** Items whose fields equal the ones given (title and tag without regard to case), newest first. */
    const findItems = (
      workspaceId: string,
      input: ListInput & {
        readonly title?: string | undefined
        readonly url?: string | undefined
        readonly type?: ItemType | undefined
        readonly tag?: string | undefined
      }
    ) =>
      Effect.gen(function* () {
        const title = input.title?.trim()
        const url = input.url?.trim()
        const tag = input.tag?.trim()
        if (!title && !url && !tag && input.type === undefined) {
          return yield* invalid("title", "give at least one of title, url, type or tag to match")
        }
        const request = yield* pageRequest(input)
        return yield* items.list(
          workspaceId,
          { title: title || undefined, url: url || undefined, tag: tag || undefined, type: input.type },
          request
        )
      })

    return { listWorkspaces, listItems, findItems } as const
  })
}) {}
