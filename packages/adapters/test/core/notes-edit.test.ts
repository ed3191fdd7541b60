import { describe, expect, layer } from "@effect/vitest"
import { EventLog } from "@svc/core/events"
import { Effect, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { call, ok } from "./boards-calls.js"

type NoteAnswer = { note: { id: string; title: string; markdown: string; characters: number; updatedAt: string } }

const body = "# Launch plan\n\nShip on Friday.\n\n- write the post\n- record the video\n- write the post\n"

layer(testCoreLayer(), { timeout: "60 seconds" })(`note edits on ${engineName}`, (it) => {
  describe("svc_patch_note with find/replace", () => {
    it.effect("replaces a unique passage, applies several edits in order, and records note.updated", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* signUp()
        const created = yield* ok<NoteAnswer>(principal, "svc_create_note", { markdown: body })
        yield* TestClock.adjust("1 second")
        const patched = yield* ok<NoteAnswer>(principal, "svc_patch_note", {
          noteId: created.note.id,
          edits: [
            { find: "Ship on Friday.", replace: "Ship on Monday." },
            { find: "Monday", replace: "Tuesday" }
          ]
        })
        expect(patched.note.markdown).toBe(body.replace("Ship on Friday.", "Ship on Tuesday."))
        expect(patched.note.characters).toBe(patched.note.markdown.length)
        expect(patched.note.updatedAt).not.toBe(created.note.updatedAt)
        const events = yield* (yield* EventLog).list(
          workspace.id,
          { type: "note.updated" },
          { limit: 5, after: undefined }
        )
        expect(events.rows[0]?.data).toMatchObject({ note_id: created.note.id, change: "patched" })
        const all = yield* ok<NoteAnswer>(principal, "svc_patch_note", {
          noteId: created.note.id,
          edits: [{ find: "- write the post", replace: "- draft the post", replaceAll: true }]
        })
        expect(all.note.markdown.match(/draft the post/g)).toHaveLength(2)
      })
    )

    it.effect("answers conflict, changing nothing, when a passage is missing or occurs more than once", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const created = yield* ok<NoteAnswer>(principal, "svc_create_note", { markdown: body })
        const noteId = created.note.id
        const twice = yield* call(principal, "svc_patch_note", {
          noteId,
          edits: [{ find: "- write the post", replace: "x" }]
        })
        expect(twice).toMatchObject({ ok: false, status: "conflict" })
        expect(twice.message).toContain("occurs 2 times")
        expect(twice.message).toContain("include more of the surrounding text")
        const missing = yield* call(principal, "svc_patch_note", {
          noteId,
          edits: [
            { find: "Ship on Friday.", replace: "Ship later." },
            { find: "ship on FRIDAY", replace: "y" }
          ]
        })
        expect(missing).toMatchObject({ ok: false, status: "conflict" })
        expect(missing.message).toContain("edit 2")
        expect(missing.message).toContain("not found")
        const spacing = yield* call(principal, "svc_patch_note", {
          noteId,
          edits: [{ find: "# Launch plan Ship on Friday.", replace: "z" }]
        })
        expect(spacing.message).toContain("different spaces or line breaks")
        const read = yield* ok<NoteAnswer>(principal, "svc_get_note_markdown", { noteId })
        expect(read.note.markdown).toBe(body)
        const both = yield* call(principal, "svc_patch_note", {
          noteId,
          edits: [{ find: "a", replace: "b" }],
          diff: "@@"
        })
        expect(both).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "diff" }] })
        const neither = yield* call(principal, "svc_patch_note", { noteId })
        expect(neither).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "edits" }] })
      })
    )
  })

  describe("svc_patch_note with a unified diff", () => {
    it.effect("applies a diff with headers and several hunks, even when line numbers are off", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const created = yield* ok<NoteAnswer>(principal, "svc_create_note", { markdown: body })
        const diff = [
          "--- a/note.md",
          "+++ b/note.md",
          "@@ -1,3 +1,3 @@",
          " # Launch plan",
          " ",
          "-Ship on Friday.",
          "+Ship on Monday.",
          "@@ -20,2 +20,3 @@",
          " - record the video",
          "+- share the clip",
          " - write the post"
        ].join("\n")
        const patched = yield* ok<NoteAnswer>(principal, "svc_patch_note", { noteId: created.note.id, diff })
        expect(patched.note.markdown).toBe(
          "# Launch plan\n\nShip on Monday.\n\n- write the post\n- record the video\n- share the clip\n- write the post\n"
        )
      })
    )

    it.effect("answers conflict with the line that differs, and for an ambiguous hunk", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const created = yield* ok<NoteAnswer>(principal, "svc_create_note", { markdown: body })
        const stale = yield* call(principal, "svc_patch_note", {
          noteId: created.note.id,
          diff: "@@ -3,1 +3,1 @@\n-Ship on Thursday.\n+Ship on Monday.\n"
        })
        expect(stale).toMatchObject({ ok: false, status: "conflict" })
        expect(stale.message).toContain('line 3 of the note is "Ship on Friday."')
        const ambiguous = yield* call(principal, "svc_patch_note", {
          noteId: created.note.id,
          diff: "@@ -40,1 +40,1 @@\n-- write the post\n+- write it\n"
        })
        expect(ambiguous.message).toContain("matches the note at 2 places (lines 5, 7)")
        const garbage = yield* call(principal, "svc_patch_note", { noteId: created.note.id, diff: "just words" })
        expect(garbage.message).toContain("no hunks")
      })
    )
  })

  describe("replace, rename, item note", () => {
    it.effect("replaces the body, renames, and sets the note of any item", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const created = yield* ok<NoteAnswer>(principal, "svc_create_note", { markdown: body })
        const noteId = created.note.id
        const replaced = yield* ok<NoteAnswer>(principal, "svc_update_note", { noteId, markdown: "new body" })
        expect(replaced.note).toMatchObject({ markdown: "new body", title: "Launch plan", characters: 8 })
        const retitled = yield* ok<NoteAnswer>(principal, "svc_update_note", { noteId, markdown: "b2", title: "T2" })
        expect(retitled.note).toMatchObject({ markdown: "b2", title: "T2" })
        const renamed = yield* ok<NoteAnswer>(principal, "svc_rename_note", { noteId, title: "  Final  " })
        expect(renamed.note).toMatchObject({ markdown: "b2", title: "Final" })
        const tooBig = yield* call(principal, "svc_update_note", { noteId, markdown: "x".repeat(200_001) })
        expect(tooBig).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "markdown" }] })

        const { board } = yield* ok<{ board: { id: string } }>(principal, "svc_create_board", { title: "B" })
        const noted = yield* ok<{ item: { id: string; type: string; note: string } }>(principal, "svc_set_item_note", {
          itemId: board.id,
          note: "where the launch lives"
        })
        expect(noted.item).toMatchObject({ id: board.id, type: "board", note: "where the launch lives" })
        const cleared = yield* ok<{ item: { note: string } }>(principal, "svc_set_item_note", {
          itemId: board.id,
          note: ""
        })
        expect(cleared.item.note).toBe("")
        const long = yield* call(principal, "svc_set_item_note", { itemId: board.id, note: "n".repeat(20_001) })
        expect(long).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "note" }] })
      })
    )

    it.effect("answers not-found for another workspace's note and items", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const created = yield* ok<NoteAnswer>(alice.principal, "svc_create_note", { markdown: "secret" })
        const noteId = created.note.id
        for (const [name, args] of [
          ["svc_patch_note", { noteId, edits: [{ find: "secret", replace: "mine" }] }],
          ["svc_update_note", { noteId, markdown: "mine" }],
          ["svc_rename_note", { noteId, title: "mine" }],
          ["svc_set_item_note", { itemId: noteId, note: "mine" }]
        ] as const) {
          expect(yield* call(bob.principal, name, args), name).toMatchObject({ ok: false, status: "not-found" })
        }
        const read = yield* ok<NoteAnswer>(alice.principal, "svc_get_note_markdown", { noteId })
        expect(read.note.markdown).toBe("secret")
      })
    )
  })
})
