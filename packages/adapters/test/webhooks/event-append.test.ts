/**
 * `EventLog.append` of a published event writes the event, its envelope and its deliveries in one statement, the
 * store's handle spliced into the envelope by the database: the stored bytes must be exactly what `envelopeBody`
 * makes, with the handle or with `null` for a workspace without a store.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { type EventRecord, EventLog } from "@svc/core/events"
import { envelopeBody } from "@svc/core/webhooks"
import { Effect } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

const storedBody = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly body: string | null }>`SELECT body FROM events WHERE id = ${id}`.pipe(
      Effect.map((rows) => rows[0]?.body),
      Effect.orDie
    )
  )

// Data a receiver must get byte for byte: quotes, a backslash, a line break, non-ASCII text and nesting, with its
// keys in an order jsonb would not keep (the body is the text, not the jsonb column).
const customer = (id: string, workspaceId: string): EventRecord => ({
  id,
  workspaceId,
  type: "customer.created",
  createdAt: new Date("2026-11-24T05:30:00.123Z"),
  data: { zeta: 'say "hi"\\now', email: "zoë@example.com", note: "line\nbreak ✓", tags: ["a", { b: null }], a: 1 }
})

layer(testCoreLayer(), { timeout: "60 seconds" })(`appending a published event on ${engineName}`, (it) => {
  it.effect("stores the envelope envelopeBody makes, with the workspace's store handle", () =>
    Effect.gen(function* () {
      const { workspace, store } = yield* signUp()
      const event = customer(`evt_append_${workspace.id}`, workspace.id)
      yield* (yield* EventLog).append(event)
      expect(yield* storedBody(event.id)).toBe(envelopeBody(event, store.handle))
    })
  )

  it.effect("stores `null` as the handle of a workspace without a store", () =>
    Effect.gen(function* () {
      const { account } = yield* signUp()
      const sql = yield* SqlClient.SqlClient
      const workspaceId = `ws_bare_${account.id}`
      yield* sql`INSERT INTO workspaces (id, owner_id, name, created_at)
                 VALUES (${workspaceId}, ${account.id}, 'No store', now())`.pipe(Effect.orDie)
      const event = customer(`evt_bare_${account.id}`, workspaceId)
      yield* (yield* EventLog).append(event)
      const body = yield* storedBody(event.id)
      expect(body).toBe(envelopeBody(event, null))
      expect(JSON.parse(body ?? "{}").store).toEqual({ handle: null })
    })
  )
})
