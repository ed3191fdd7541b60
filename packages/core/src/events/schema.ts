import { Schema } from "effect"

/** One entry of the event log, written in the same transaction as the change it records. */
export interface EventRecord {
  readonly id: string
  readonly workspaceId: string
  readonly type: string
  readonly createdAt: Date
  readonly data: Readonly<Record<string, unknown>>
}

/**
 * An `EventRecord` on the wire (the GraphQL `events` subscription sends it): `createdAt` as an ISO time, `data` as
 * the JSON the change recorded.
 */
export const LoggedEvent = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…); pass it as `after` to resume after it." }),
  workspaceId: Schema.String,
  type: Schema.String.annotations({ description: "What happened, e.g. purchase.created." }),
  createdAt: Schema.Date.annotations({ description: "When it happened (ISO 8601)." }),
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    description: "What the change recorded; for a webhook event type, the webhook's `data`."
  })
}).annotations({ identifier: "WorkspaceEvent", description: "One event of a workspace's event log." })
