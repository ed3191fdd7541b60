import { Context, type Effect } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { EventRecord } from "./schema.js"

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
  }
>() {}
