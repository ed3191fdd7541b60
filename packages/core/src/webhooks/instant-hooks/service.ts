import { Clock, Effect, Option } from "effect"
import type { StoreCaller } from "../../auth/store-caller.js"
import { invalid, NotFound } from "../../shared/errors.js"
import { Ids } from "../../shared/ports.js"
import { checkReceiverUrl, normalizedReceiverUrl, refusalMessage } from "../address.js"
import { WEBHOOK_URL_MAX } from "../schema.js"
import { INSTANT_HOOK_EVENT_NAMES, INSTANT_HOOK_EVENTS, isInstantHookEvent } from "./events.js"
import { MAX_INSTANT_HOOKS_PER_STORE } from "./policy.js"
import { InstantHooksRepo } from "./ports.js"

/** Which targets the server admits: the hook domains, and loopback only with the test switch (never from a request). */
export interface InstantHookPolicy {
  readonly allowLoopback: boolean
  /** Host suffixes of the automation tool's hook domain (`SVC_INSTANT_HOOK_HOSTS`), lower case. */
  readonly hosts: ReadonlyArray<string>
}

/** `POST /hooks` as decoded. */
export interface NewInstantHook {
  readonly event: string
  readonly target_url: string
}

/** Whether `host` is one of the hook domains or a name under one. */
export const isHookHost = (host: string, hosts: ReadonlyArray<string>): boolean => {
  const bare = host.toLowerCase().replace(/\.$/, "")
  return hosts.some((suffix) => bare === suffix || bare.endsWith(`.${suffix}`))
}

/**
 * An address on the automation tool's hook domain as it will be called, or why it is refused (naming `field`): the
 * webhook address rules, then the hook domain. Instant hook targets and the ask step's callbacks both pass here.
 */
export const checkHookTarget = (text: string, policy: InstantHookPolicy, field = "target_url") => {
  if (text.length > WEBHOOK_URL_MAX) {
    return Effect.fail(invalid(field, `${field} must be at most ${WEBHOOK_URL_MAX} characters`))
  }
  const checked = checkReceiverUrl(text.trim(), policy)
  if (!checked.ok) {
    return Effect.fail(invalid(field, `${field} is not allowed: ${refusalMessage[checked.refusal]}`))
  }
  if (!isHookHost(checked.url.hostname, policy.hosts)) {
    return Effect.fail(
      invalid(
        field,
        `${field} must be an address on the automation tool's hook domain (${policy.hosts.join(", ")}); ` +
          `${checked.url.hostname} is not`
      )
    )
  }
  const normalized = normalizedReceiverUrl(checked.url.href)
  return normalized.length > WEBHOOK_URL_MAX
    ? Effect.fail(invalid(field, `${field} must be at most ${WEBHOOK_URL_MAX} characters once normalised`))
    : Effect.succeed(normalized)
}

/** Subscribing the automation tool to a store's events and unsubscribing it. */
export class InstantHooks extends Effect.Service<InstantHooks>()("svc/webhooks/InstantHooks", {
  effect: Effect.gen(function* () {
    const repo = yield* InstantHooksRepo
    const ids = yield* Ids

    /**
     * A hook for the caller's store; answers its id. It pushes only rows after the feed's newest one now, so events
     * already in the feed never fire. The same event and target again answer the existing hook's id (a retried
     * subscribe must not push everything twice).
     */
    const subscribe = (caller: StoreCaller, input: NewInstantHook, policy: InstantHookPolicy) =>
      Effect.gen(function* () {
        const event = input.event
        if (!isInstantHookEvent(event)) {
          return yield* invalid(
            "event",
            `unknown event "${event}"; the events are ${INSTANT_HOOK_EVENT_NAMES.join(", ")}`
          )
        }
        const targetUrl = yield* checkHookTarget(input.target_url, policy)
        const now = new Date(yield* Clock.currentTimeMillis)
        const newest = yield* repo.newest(caller.workspaceId, INSTANT_HOOK_EVENTS[event].selector)
        const created = yield* repo.create(
          {
            id: yield* ids.make("hook_"),
            workspaceId: caller.workspaceId,
            event,
            targetUrl,
            after: Option.getOrElse(newest, () => ({ at: now, eventId: "" })),
            createdAt: now
          },
          MAX_INSTANT_HOOKS_PER_STORE
        )
        if (created._tag === "full") {
          return yield* invalid(
            "",
            `a store can have at most ${MAX_INSTANT_HOOKS_PER_STORE} instant hooks; unsubscribe one before adding another`
          )
        }
        return created.id
      })

    /** Deletes one of the store's hooks; another store's hook is not found. */
    const unsubscribe = (caller: StoreCaller, id: string): Effect.Effect<void, NotFound> =>
      Effect.flatMap(repo.remove(caller.workspaceId, id), (removed) =>
        removed ? Effect.void : Effect.fail(new NotFound({ message: `no instant hook ${id} in this store` }))
      )

    return { subscribe, unsubscribe } as const
  })
}) {}
