/**
 * Reads of one item by id that arrive together share a statement (sql/batched-lookup.ts). Whatever they share,
 * each caller must get exactly its own answer: its note, not-found for another workspace's or a trashed one, and
 * inside a transaction the transaction's own writes.
 */
import { describe, expect, layer } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { ItemsRepo } from "@svc/core/items"
import { Effect, Option } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { call, ok } from "./boards-calls.js"

type NoteAnswer = { note: { id: string; markdown: string } }
type BoardAnswer = { board: { id: string; title: string } }

layer(testCoreLayer(), { timeout: "60 seconds" })(`reads that share a statement on ${engineName}`, (it) => {
  describe("notes and boards read at the same time", () => {
    it.effect("answer each caller its own item, and not-found for a trashed one or another workspace's", () =>
      Effect.gen(function* () {
        const ann = yield* signUp()
        const bob = yield* signUp()
        const note = (who: typeof ann, markdown: string) =>
          Effect.map(ok<NoteAnswer>(who.principal, "svc_create_note", { markdown }), (answer) => answer.note.id)
        const first = yield* note(ann, "# First\n\nAnn's first note.")
        const second = yield* note(ann, "# Second\n\nAnn's second note.")
        const trashed = yield* note(ann, "# Gone\n\nIn the trash.")
        const bobs = yield* note(bob, "# Bob's\n\nNot Ann's.")
        yield* ok(ann.principal, "svc_trash_item", { itemId: trashed })
        const board = yield* ok<BoardAnswer>(ann.principal, "svc_create_board", { title: "Ann's board" })

        const read = (who: typeof ann, noteId: string) =>
          Effect.map(call(who.principal, "svc_get_note_markdown", { noteId }), (answer) =>
            answer.ok === true ? (answer as unknown as NoteAnswer).note.markdown : String(answer.status)
          )
        const readBoard = (who: typeof ann, boardId: string) =>
          Effect.map(call(who.principal, "svc_read_board", { boardId }), (answer) =>
            answer.ok === true ? (answer as unknown as BoardAnswer).board.title : String(answer.status)
          )
        const answers = yield* Effect.all(
          [
            read(ann, first),
            read(ann, bobs),
            read(bob, bobs),
            read(ann, trashed),
            read(ann, "note_none"),
            readBoard(ann, board.board.id),
            readBoard(bob, board.board.id),
            read(ann, second),
            read(ann, first),
            read(bob, first)
          ],
          { concurrency: "unbounded" }
        )
        expect(answers).toEqual([
          "# First\n\nAnn's first note.",
          "not-found",
          "# Bob's\n\nNot Ann's.",
          "not-found",
          "not-found",
          "Ann's board",
          "not-found",
          "# Second\n\nAnn's second note.",
          "# First\n\nAnn's first note.",
          "not-found"
        ])
      })
    )
  })

  describe("inside a transaction", () => {
    it.effect("a read sees the transaction's own note before it commits, and others see it only after", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const items = yield* ItemsRepo
        const { workspace } = yield* signUp()
        const id = `note_tx${Date.now()}`
        const insert = sql`INSERT INTO items (id, workspace_id, type, title, body, created_at, updated_at)
                           VALUES (${id}, ${workspace.id}, 'note', 'Draft', 'Not committed yet', now(), now())`
        const inside = yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* insert
            const note = yield* items.findNote(workspace.id, id)
            const item = yield* items.findItem(workspace.id, id)
            return { note: Option.map(note, (found) => found.markdown), item: Option.map(item, (found) => found.type) }
          })
        )
        expect(inside).toEqual({ note: Option.some("Not committed yet"), item: Option.some("note") })
        expect(Option.map(yield* items.findNote(workspace.id, id), (found) => found.title)).toEqual(
          Option.some("Draft")
        )

        const rolledBack = `${id}_rb`
        const undone = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO items (id, workspace_id, type, title, body, created_at, updated_at)
                         VALUES (${rolledBack}, ${workspace.id}, 'note', 'Undone', '', now(), now())`
              expect(Option.isSome(yield* items.findNote(workspace.id, rolledBack))).toBe(true)
              return yield* Effect.fail("undo" as const)
            })
          )
          .pipe(Effect.flip)
        expect(undone).toBe("undo")
        expect(yield* items.findNote(workspace.id, rolledBack)).toEqual(Option.none())
      })
    )
  })
})
