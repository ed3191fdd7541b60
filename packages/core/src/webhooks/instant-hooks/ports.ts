import { Context, type Effect, type Option } from "effect"
import type { FeedSelector, InstantHookEventName } from "./events.js"

/** Where in its feed a hook has got to: the (time, event id) of the last row pushed or skipped. */
export interface FeedPosition {
  readonly at: Date
  readonly eventId: string
}

/** A subscription of the automation tool to one event of one store. */
export interface InstantHook {
  readonly id: string
  readonly workspaceId: string
  readonly event: InstantHookEventName
  /** The target as the URL parser reads it (the address actually called). */
  readonly targetUrl: string
  /** Only rows after this are pushed: at subscribe time, the newest row of the feed. */
  readonly after: FeedPosition
  readonly createdAt: Date
}

/** A hook one worker holds until its lease ends; only the holder of `claimToken` may move it on. */
export interface ClaimedHook extends InstantHook {
  /** When its current run of failed pushes began; null when the last push went through. */
  readonly failingSince: Date | null
  readonly claimToken: string
}

/** One row of a feed: the id the feed lists and the row's place in the event log. */
export interface FeedEntry {
  readonly listedId: string
  readonly position: FeedPosition
}

/** How a hook's push round ended. */
export interface PushOutcome {
  /** The new position; none keeps the old one (the same ids go again). */
  readonly after: Option.Option<FeedPosition>
  readonly failingSince: Date | null
}

/** What a subscribe did: a new hook, the existing hook for the same event and target, or none (the store is full). */
export type CreateResult =
  | { readonly _tag: "created"; readonly id: string }
  | { readonly _tag: "existing"; readonly id: string }
  | { readonly _tag: "full" }

/**
 * Instant hooks and the feed rows they push, shared by every server instance on one database. The push policy
 * (what counts as done, when a hook is dropped) lives in the worker; this port only stores.
 */
export class InstantHooksRepo extends Context.Tag("svc/webhooks/InstantHooksRepo")<
  InstantHooksRepo,
  {
    /**
     * Inserts the hook unless its store already has one for the same event and target (answered instead) or
     * already has `max`; concurrent subscribes of one store count one after another.
     */
    readonly create: (hook: InstantHook, max: number) => Effect.Effect<CreateResult>
    /** Deletes the store's hook; answers whether it existed. */
    readonly remove: (workspaceId: string, id: string) => Effect.Effect<boolean>
    /** The newest row of a store's feed, if it has one. */
    readonly newest: (workspaceId: string, feed: FeedSelector) => Effect.Effect<Option.Option<FeedPosition>>
    /**
     * Claims up to `limit` hooks due at `now` (and those whose holder's lease ran out), skipping rows another
     * worker is claiming, each with the token and until `leaseUntil`.
     */
    readonly claim: (request: {
      readonly now: Date
      readonly leaseUntil: Date
      readonly claimToken: string
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<ClaimedHook>>
    /** Feed rows after `after` up to `until` and younger than `since`, oldest first, at most `limit`. */
    readonly entriesAfter: (
      workspaceId: string,
      feed: FeedSelector,
      window: { readonly after: FeedPosition; readonly since: Date; readonly until: Date },
      limit: number
    ) => Effect.Effect<ReadonlyArray<FeedEntry>>
    /** Records a push (and keeps holding the hook) only while `claimToken` holds it; answers whether it did. */
    readonly record: (id: string, claimToken: string, outcome: PushOutcome) => Effect.Effect<boolean>
    /** Ends the claim: the hook is free again and due at `nextPushAt`; nothing when the token lost it. */
    readonly release: (id: string, claimToken: string, nextPushAt: Date) => Effect.Effect<void>
    /** Deletes a hook the worker holds (its target answered 410, or it failed too long); answers whether it did. */
    readonly drop: (id: string, claimToken: string) => Effect.Effect<boolean>
  }
>() {}
