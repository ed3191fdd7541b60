import { Clock, Effect } from "effect"
import { Ids } from "../shared/ports.js"
import { EventLog } from "./ports.js"
import type { EventRecord } from "./schema.js"

/** Makes the record of an event (its id, and its time unless given), for a port that writes it with the change. */
export type MakeEvent = (
  workspaceId: string,
  type: string,
  data: Readonly<Record<string, unknown>>,
  at?: Date
) => Effect.Effect<EventRecord>

/** Makes the `MakeEvent` function a service keeps, from the id port and the clock. */
export const makeEventMaker = Effect.map(
  Ids,
  (ids): MakeEvent =>
    (workspaceId, type, data, at) =>
      Effect.zipWith(
        ids.make("evt_"),
        at === undefined ? Effect.map(Clock.currentTimeMillis, (now) => new Date(now)) : Effect.succeed(at),
        (id, createdAt) => ({ id, workspaceId, type, createdAt, data })
      )
)

/** Records that something happened in a workspace; call it inside the change's transaction. */
export type RecordEvent = (
  workspaceId: string,
  type: string,
  data: Readonly<Record<string, unknown>>
) => Effect.Effect<void>

/** Makes the `RecordEvent` function a service keeps, from the event log and id ports. */
export const makeEventRecorder = Effect.gen(function* () {
  const makeEvent = yield* makeEventMaker
  const log = yield* EventLog
  const record: RecordEvent = (workspaceId, type, data) =>
    Effect.flatMap(makeEvent(workspaceId, type, data), log.append)
  return record
})
