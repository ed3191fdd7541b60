import { Effect, Either, Option } from "effect"
import type { Principal } from "../auth/schema.js"
import { decodeCursor, type Page } from "../shared/paging.js"
import { ItemsRepo, WorkspacesRepo } from "./ports.js"
import type { ItemType, Store, Workspace } from "./schema.js"

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

/** Reading what a caller's workspaces hold. */
export class Library extends Effect.Service<Library>()("svc/workspace/Library", {
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

    /** Items of a workspace, newest first, trash left out. */
    const listItems = (workspaceId: string, input: ListInput & { readonly type?: ItemType | undefined }) =>
      Effect.flatMap(pageRequest(input), (request) => items.list(workspaceId, { type: input.type }, request))

    return { listWorkspaces, listItems } as const
  })
}) {}
