import { describe, expect, layer } from "@effect/vitest"
import { Trash, TrashPurgeLive } from "@svc/core/boards"
import { EventLog } from "@svc/core/events"
import { Effect, Layer, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { call, ok } from "./boards-calls.js"

type Items = { items: Array<{ id: string; trashedAt?: string }> }
type Trashed = { item: { id: string; trashedAt?: string }; restorableUntil?: string }

layer(testCoreLayer(), { timeout: "60 seconds" })(`the trash on ${engineName}`, (it) => {
  describe("trash and restore", () => {
    it.effect("hides a trashed item from lists, boards, tags and connections, and restores it", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { note } = yield* ok<{ note: { id: string } }>(principal, "svc_create_note", { markdown: "# Draft" })
        const { note: other } = yield* ok<{ note: { id: string } }>(principal, "svc_create_note", {
          markdown: "# Other"
        })
        const { board } = yield* ok<{ board: { id: string } }>(principal, "svc_create_board", { title: "B" })
        yield* ok(principal, "svc_save_items_to_board", {
          boardId: board.id,
          items: [{ itemId: note.id }, { itemId: other.id }]
        })
        yield* ok(principal, "svc_connect_items", { fromItemId: note.id, toItemId: other.id, boardId: board.id })

        const trashed = yield* ok<Trashed>(principal, "svc_trash_item", { itemId: note.id })
        expect(trashed.item.trashedAt).toBeDefined()
        expect(Date.parse(trashed.restorableUntil ?? "") - Date.parse(trashed.item.trashedAt ?? "")).toBe(
          30 * 86_400_000
        )
        const again = yield* ok<Trashed>(principal, "svc_trash_item", { itemId: note.id })
        expect(again).toEqual(trashed)

        const listed = yield* ok<Items>(principal, "svc_list_workspace_items", {})
        expect(listed.items.map((i) => i.id)).not.toContain(note.id)
        const inTrash = yield* ok<Items>(principal, "svc_list_workspace_items", { inTrash: true })
        expect(inTrash.items.map((i) => i.id)).toEqual([note.id])
        const read = yield* ok<{
          board: { itemCount: number }
          items: Array<{ id: string }>
          connections: Array<unknown>
        }>(principal, "svc_read_board", { boardId: board.id })
        expect(read.board.itemCount).toBe(1)
        expect(read.items.map((i) => i.id)).toEqual([other.id])
        expect(read.connections).toEqual([])
        expect(yield* call(principal, "svc_get_note_markdown", { noteId: note.id })).toMatchObject({
          status: "not-found"
        })
        const conns = yield* ok<{ connections: Array<unknown> }>(principal, "svc_get_connections", { itemId: other.id })
        expect(conns.connections).toEqual([])

        const restored = yield* ok<Trashed>(principal, "svc_trash_item", { itemId: note.id, restore: true })
        expect(restored.item.trashedAt).toBeUndefined()
        expect(restored.restorableUntil).toBeUndefined()
        const back = yield* ok<{ items: Array<unknown>; connections: Array<unknown> }>(principal, "svc_read_board", {
          boardId: board.id
        })
        expect(back.items).toHaveLength(2)
        expect(back.connections).toHaveLength(1)
      })
    )

    it.effect("trashes boards only through svc_trash_board, and hides a trashed board", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { board } = yield* ok<{ board: { id: string } }>(principal, "svc_create_board", { title: "B" })
        const { note } = yield* ok<{ note: { id: string } }>(principal, "svc_create_note", { markdown: "n" })
        expect(yield* call(principal, "svc_trash_board", { boardId: note.id })).toMatchObject({ status: "not-found" })
        yield* ok(principal, "svc_save_items_to_board", { boardId: board.id, items: [{ itemId: note.id }] })
        yield* ok<Trashed>(principal, "svc_trash_board", { boardId: board.id })
        expect(yield* call(principal, "svc_read_board", { boardId: board.id })).toMatchObject({ status: "not-found" })
        const listed = yield* ok<Items>(principal, "svc_list_workspace_items", {})
        expect(listed.items.map((i) => i.id)).toEqual([note.id])
        yield* ok(principal, "svc_trash_board", { boardId: board.id, restore: true })
        const read = yield* ok<{ items: Array<unknown> }>(principal, "svc_read_board", { boardId: board.id })
        expect(read.items).toHaveLength(1)
      })
    )
  })

  describe("the purge", () => {
    it.effect("deletes items trashed more than 30 days ago, in batches, with an event each, and no others", () =>
      Effect.gen(function* () {
        const signed = yield* signUp()
        const { workspace } = signed
        // Over 200 tool calls in one test minute: the call counts against the rate limit, which is not under test here.
        const principal = { ...signed.principal, rateLimitExempt: true }
        const trash = yield* Trash
        // Other tests' workspaces share the database: purge what is already due so this count is ours.
        yield* TestClock.adjust("1000 days")
        yield* trash.purgeExpired
        const notes = yield* Effect.forEach(
          Array.from({ length: 103 }, (_, i) => i),
          (i) =>
            Effect.map(
              ok<{ note: { id: string } }>(principal, "svc_create_note", { markdown: `n${i}` }),
              (a) => a.note.id
            )
        )
        yield* Effect.forEach(notes.slice(0, 102), (id) => ok(principal, "svc_trash_item", { itemId: id }))
        yield* TestClock.adjust("29 days")
        const { note: late } = yield* ok<{ note: { id: string } }>(principal, "svc_create_note", { markdown: "late" })
        yield* ok(principal, "svc_trash_item", { itemId: late.id })
        expect(yield* trash.purgeExpired).toBe(0)
        yield* TestClock.adjust("1 day")
        expect(yield* trash.purgeExpired).toBe(102)
        const inTrash = yield* ok<Items>(principal, "svc_list_workspace_items", { inTrash: true })
        expect(inTrash.items.map((i) => i.id)).toEqual([late.id])
        const left = yield* ok<Items>(principal, "svc_list_workspace_items", {})
        expect(left.items.map((i) => i.id)).toEqual([notes[102]])
        const gone = yield* call(principal, "svc_trash_item", { itemId: notes[0], restore: true })
        expect(gone).toMatchObject({ ok: false, status: "not-found" })
        const events = yield* (yield* EventLog).list(
          workspace.id,
          { type: "item.purged" },
          { limit: 100, after: undefined }
        )
        expect(events.rows).toHaveLength(100)
        expect(events.next).toBeDefined()
      })
    )

    it.effect("refuses to restore an item whose 30 days are over even before the purge ran", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { note } = yield* ok<{ note: { id: string } }>(principal, "svc_create_note", { markdown: "n" })
        yield* ok(principal, "svc_trash_item", { itemId: note.id })
        yield* TestClock.adjust("31 days")
        const late = yield* call(principal, "svc_trash_item", { itemId: note.id, restore: true })
        expect(late).toMatchObject({ ok: false, status: "not-found" })
        expect(late.message).toContain("30 days")
      })
    )

    it.effect("runs now and every interval as a layer (TrashPurgeLive)", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { note } = yield* ok<{ note: { id: string } }>(principal, "svc_create_note", { markdown: "n" })
        yield* ok(principal, "svc_trash_item", { itemId: note.id })
        yield* Effect.scoped(
          Effect.gen(function* () {
            // A long interval: TestClock.adjust fires every run due on the way, one per interval.
            yield* Layer.build(TrashPurgeLive("31 days"))
            yield* TestClock.adjust("31 days")
            // The worker runs on its own fiber; give its transaction real time to finish.
            for (let attempt = 0; attempt < 100; attempt++) {
              const page = yield* ok<Items>(principal, "svc_list_workspace_items", { inTrash: true })
              if (page.items.length === 0) break
              yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
            }
          })
        )
        const inTrash = yield* ok<Items>(principal, "svc_list_workspace_items", { inTrash: true })
        expect(inTrash.items).toEqual([])
      })
    )
  })
})
