import { Clock, Effect } from "effect"
import { Ids } from "../shared/ports.js"
import { EventLog } from "./ports.js"

/** Records that something happened in a workspace; call it inside the change's transaction. */
export type RecordEvent = (
  workspaceId: string,
  type: string,
  data: Readonly<Record<string, unknown>>
) => Effect.Effect<void>

/** Makes the `RecordEvent` function a service keeps, from the event log and id ports. */
export const makeEventRecorder = Effect.gen(function* () {
  const ids = yield* Ids
  const log = yield* EventLog
  const record: RecordEvent = (workspaceId, type, data) =>
    Effect.gen(function* () {
      const id = yield* ids.make("evt_")
      const now = yield* Clock.currentTimeMillis
      yield* log.append({ id, workspaceId, type, createdAt: new Date(now), data })
    })
  return record
})
