import { Effect, Option } from "effect"
import { planAtLeast } from "../accounts/schema.js"
import { levelOf } from "../auth/access.js"
import type { Principal } from "../auth/schema.js"
import { Forbidden, invalid } from "../shared/errors.js"
import type { PageKey } from "../shared/paging.js"
import { toolGroups } from "../tools/groups.js"
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from "./event-types.js"
import { EventLog, type EventTypeFilter } from "../events/ports.js"

const reaches = (principal: Principal, group: keyof typeof toolGroups): boolean =>
  planAtLeast(principal.plan, toolGroups[group].plan) && levelOf(principal.access, toolGroups[group].part) !== "off"

/** The tool group whose reach lets a credential follow events of `type`: posts' are Scheduling's, the store's Store's. */
const groupOf = (type: string): keyof typeof toolGroups =>
  !isWebhookEventType(type) ? "Workspace" : type.startsWith("post.") ? "Scheduling" : "Store"

/**
 * The event types `principal` may follow, of those `requested` (every type when absent): the store's (webhook)
 * events need what the Store tools need, the post events what the Scheduling tools need, and the workspace's other
 * events what the Workspace tools need. Asking only for types it may not see is `Forbidden`; the others are dropped.
 */
export const visibleEvents = (principal: Principal, requested: ReadonlyArray<string> | undefined) => {
  const refused = new Forbidden({
    message:
      "this credential may not see these events: store events need the Starter plan and store access, post events the Starter plan and scheduling access, the others workspace access",
    reason: "access"
  })
  const allowed = (type: string) => reaches(principal, groupOf(type))
  if (requested === undefined) {
    const hidden = WEBHOOK_EVENT_TYPES.filter((type) => !allowed(type))
    if (reaches(principal, "Workspace")) {
      return Effect.succeed<EventTypeFilter>(hidden.length === 0 ? {} : { excludeTypes: hidden })
    }
    const shown = WEBHOOK_EVENT_TYPES.filter(allowed)
    return shown.length === 0 ? Effect.fail(refused) : Effect.succeed<EventTypeFilter>({ types: shown })
  }
  const kept = requested.filter(allowed)
  return kept.length === 0 ? Effect.fail(refused) : Effect.succeed<EventTypeFilter>({ types: kept })
}

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
