import { Context, type Effect, type Option } from "effect"
import type { Page, PageKey, PageRequest } from "../shared/paging.js"
import type { EventRecord } from "./schema.js"

/** Which event types a read of the log keeps: only `types` when given, never `excludeTypes`. */
export interface EventTypeFilter {
  readonly types?: ReadonlyArray<string>
  readonly excludeTypes?: ReadonlyArray<string>
}

/** The append-only event log that feeds, hooks and webhooks read. */
export class EventLog extends Context.Tag("svc/events/EventLog")<
  EventLog,
  {
    /** Appends inside the caller's transaction (see `Transactor`). */
    readonly append: (event: EventRecord) => Effect.Effect<void>
    /** A workspace's events, newest first, optionally of one type. */
    readonly list: (
      workspaceId: string,
      filter: { readonly type?: string },
      page: PageRequest
    ) => Effect.Effect<Page<EventRecord>>
    /** At most `limit` of a workspace's events after `after` (from the first when undefined), oldest first. */
    readonly since: (
      workspaceId: string,
      filter: EventTypeFilter,
      after: PageKey | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<EventRecord>>
    /** One event of a workspace. */
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<EventRecord>>
  }
>() {}
