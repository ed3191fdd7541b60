import type { EventRecord } from "@svc/core/events"
import { jsonObject } from "../json-column.js"

/** A row of the `events` table, as the repositories that read the event log select it. */
export interface EventRow {
  readonly id: string
  readonly workspace_id: string
  readonly type: string
  readonly created_at: Date
  readonly data: unknown
}

/** An event row as core's `EventRecord`. */
export const toEventRecord = (row: EventRow): EventRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  type: row.type,
  createdAt: row.created_at,
  data: jsonObject(row.data)
})
