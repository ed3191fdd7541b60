import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { EventLog } from "@svc/core/events"
import { ItemsRepo, Note } from "@svc/core/items"
import { Effect, Exit } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { ok } from "./boards-calls.js"

type NoteAnswer = { note: { id: string; title: string; createdAt: string } }

const rowsOf = (table: "items" | "events", id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly id: string }>`SELECT id FROM ${sql(table)} WHERE id = ${id}`.pipe(Effect.orDie)
  )

const newNote = (id: string) => {
  const at = new Date("2026-11-24T00:00:00.000Z")
  return new Note({ id, title: "T", markdown: "body", characters: 4, createdAt: at, updatedAt: at })
}

layer(testCoreLayer(), { timeout: "60 seconds" })(`creating a note on ${engineName}`, (it) => {
  it.effect("writes the note and its item.created event, at the note's time", () =>
    Effect.gen(function* () {
      const { principal, workspace } = yield* signUp()
      const created = yield* ok<NoteAnswer>(principal, "svc_create_note", { markdown: "# Plan\n\nShip it." })
      expect(created.note.title).toBe("Plan")
      const events = yield* (yield* EventLog).list(
        workspace.id,
        { type: "item.created" },
        { limit: 5, after: undefined }
      )
      expect(events.rows).toHaveLength(1)
      expect(events.rows[0]?.data).toEqual({ item_id: created.note.id, type: "note", title: "Plan" })
      expect(events.rows[0]?.createdAt.toISOString()).toBe(created.note.createdAt)
    })
  )

  it.effect("keeps neither row when the event cannot be written: one statement, no half-made note", () =>
    Effect.gen(function* () {
      const { workspace } = yield* signUp()
      const items = yield* ItemsRepo
      const event = (id: string, type = "item.created") => ({
        id,
        workspaceId: workspace.id,
        type,
        createdAt: new Date(),
        data: { type: "note" }
      })
      yield* items.insertNote(workspace.id, newNote("note_atomic_first"), event("evt_atomic_taken"))
      expect(yield* rowsOf("items", "note_atomic_first")).toHaveLength(1)

      // The event id is taken, so the event's insert fails; the note's insert in the same statement goes with it.
      const clash = yield* Effect.exit(
        items.insertNote(workspace.id, newNote("note_atomic_second"), event("evt_atomic_taken"))
      )
      expect(Exit.isFailure(clash)).toBe(true)
      expect(yield* rowsOf("items", "note_atomic_second")).toEqual([])

      // A published event would need its deliveries queued, which only EventLog.append does: refused, nothing written.
      const published = yield* Effect.exit(
        items.insertNote(workspace.id, newNote("note_atomic_third"), event("evt_atomic_published", "purchase.created"))
      )
      expect(Exit.isFailure(published)).toBe(true)
      expect(yield* rowsOf("items", "note_atomic_third")).toEqual([])
      expect(yield* rowsOf("events", "evt_atomic_published")).toEqual([])
    })
  )
})
