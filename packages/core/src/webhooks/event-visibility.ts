import { Effect, Option } from "effect"
import { WorkspacesRepo } from "../accounts/ports.js"
import { planAtLeast } from "../accounts/schema.js"
import { levelOf } from "../auth/access.js"
import type { Principal } from "../auth/schema.js"
import { Forbidden, invalid, MissingWorkspace, NotFound } from "../shared/errors.js"
import type { PageKey } from "../shared/paging.js"
import { toolGroups } from "../tools/groups.js"
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from "./event-types.js"
import { EventLog, type EventTypeFilter } from "../events/ports.js"

const reaches = (principal: Principal, group: keyof typeof toolGroups): boolean =>
  planAtLeast(principal.plan, toolGroups[group].plan) && levelOf(principal.access, toolGroups[group].part) !== "off"

/**
 * The event types `principal` may follow, of those `requested` (every type when absent): the store's (webhook)
 * events need what the Store tools need, the workspace's other events what the Workspace tools need. Asking only
 * for types it may not see is `Forbidden`; the others are dropped.
 */
export const visibleEvents = (principal: Principal, requested: ReadonlyArray<string> | undefined) => {
  const store = reaches(principal, "Store")
  const workspace = reaches(principal, "Workspace")
  const refused = new Forbidden({
    message:
      "this credential may not see these events: store events need the Starter plan and store access, the others workspace access",
    reason: "access"
  })
  if (requested === undefined) {
    if (store && workspace) return Effect.succeed<EventTypeFilter>({})
    if (store) return Effect.succeed<EventTypeFilter>({ types: WEBHOOK_EVENT_TYPES })
    if (workspace) return Effect.succeed<EventTypeFilter>({ excludeTypes: WEBHOOK_EVENT_TYPES })
    return Effect.fail(refused)
  }
  const kept = requested.filter((type) => (isWebhookEventType(type) ? store : workspace))
  return kept.length === 0 ? Effect.fail(refused) : Effect.succeed<EventTypeFilter>({ types: kept })
}

/**
 * The workspace whose events `principal` follows: `workspaceId`, else the credential's own. The rule of the tools
 * (`ToolServer`): a bound key reaches its workspace only, an account-wide sign-in every workspace of the account.
 */
export const followedWorkspace = (principal: Principal, workspaceId: string | undefined) =>
  Effect.gen(function* () {
    if (workspaceId === undefined) {
      if (principal.workspaceId === null) {
        return yield* new MissingWorkspace({ message: "you have no default workspace; pass workspaceId" })
      }
      return principal.workspaceId
    }
    const unreachable = new NotFound({
      message: `no workspace ${workspaceId} that this credential can reach; svc_list_workspaces lists the ones it can`
    })
    if (principal.reach === "bound") {
      return workspaceId === principal.workspaceId ? workspaceId : yield* unreachable
    }
    const found = yield* (yield* WorkspacesRepo).findById(workspaceId)
    return Option.isSome(found) && found.value.ownerId === principal.accountId ? workspaceId : yield* unreachable
  })

/** Where a feed resumed after event `id` starts; an id the workspace's log does not hold is invalid input. */
export const resumePoint = (workspaceId: string, id: string) =>
  Effect.flatMap(EventLog, (log) => log.find(workspaceId, id)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () =>
          Effect.fail(invalid("after", `no event ${id} in this workspace; pass the id of an event you received`)),
        onSome: (event): Effect.Effect<PageKey> => Effect.succeed({ createdAt: event.createdAt, id: event.id })
      })
    )
  )
