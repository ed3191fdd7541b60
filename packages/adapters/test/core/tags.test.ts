import { describe, expect, layer } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { call, ok } from "./boards-calls.js"

type Tagged = { items: Array<{ id: string; tags: Array<string> }> }
type TagList = { tags: Array<{ id: string; name: string; itemCount: number }>; nextCursor?: string }
type Items = { items: Array<{ id: string; title: string; type: string }>; nextCursor?: string }

const note = (principal: Parameters<typeof ok>[0], markdown: string) =>
  Effect.map(ok<{ note: { id: string } }>(principal, "svc_create_note", { markdown }), (a) => a.note.id)

layer(testCoreLayer(), { timeout: "60 seconds" })(`tags and finding items on ${engineName}`, (it) => {
  describe("svc_update_item_tags and svc_list_tags", () => {
    it.effect("adds tags (creating unknown ones once, case ignored), removes them, and counts items", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const a = yield* note(principal, "a")
        const b = yield* note(principal, "b")
        const first = yield* ok<Tagged>(principal, "svc_update_item_tags", {
          itemIds: [a, b],
          add: ["Launch", " ideas  ", "launch"]
        })
        expect(first.items).toEqual([
          { id: a, type: "note", title: "a", tags: ["ideas", "Launch"] },
          { id: b, type: "note", title: "b", tags: ["ideas", "Launch"] }
        ])
        const second = yield* ok<Tagged>(principal, "svc_update_item_tags", {
          itemIds: [b],
          add: ["LAUNCH", "Q3"],
          remove: ["IDEAS", "never-had"]
        })
        expect(second.items).toEqual([{ id: b, type: "note", title: "b", tags: ["Launch", "Q3"] }])
        const listed = yield* ok<TagList>(principal, "svc_list_tags", {})
        expect(listed.tags.map((t) => [t.name, t.itemCount])).toEqual([
          ["ideas", 1],
          ["Launch", 2],
          ["Q3", 1]
        ])
        const page = yield* ok<TagList>(principal, "svc_list_tags", { limit: 2 })
        expect(page.tags.map((t) => t.name)).toEqual(["ideas", "Launch"])
        const rest = yield* ok<TagList>(principal, "svc_list_tags", { limit: 2, cursor: page.nextCursor })
        expect(rest.tags.map((t) => t.name)).toEqual(["Q3"])
        expect(rest.nextCursor).toBeUndefined()
        // Trashed items do not count.
        yield* ok(principal, "svc_trash_item", { itemId: a })
        const after = yield* ok<TagList>(principal, "svc_list_tags", {})
        expect(after.tags.find((t) => t.name === "Launch")?.itemCount).toBe(1)
      })
    )

    it.effect("creates a tag once when many calls add it at once, in any case", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const ids = yield* Effect.forEach([1, 2, 3, 4, 5, 6], (n) => note(principal, `n${n}`))
        yield* Effect.forEach(
          ids,
          (id, i) => ok(principal, "svc_update_item_tags", { itemIds: [id], add: [i % 2 ? "Race" : "race"] }),
          { concurrency: "unbounded" }
        )
        const listed = yield* ok<TagList>(principal, "svc_list_tags", {})
        expect(listed.tags).toHaveLength(1)
        expect(listed.tags[0]?.itemCount).toBe(6)
      })
    )

    it.effect("refuses empty, clashing, overlong and foreign input", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const other = yield* signUp()
        const a = yield* note(principal, "a")
        const nothing = yield* call(principal, "svc_update_item_tags", { itemIds: [a] })
        expect(nothing).toMatchObject({ ok: false, status: "invalid" })
        const blank = yield* call(principal, "svc_update_item_tags", { itemIds: [a], add: ["ok", "   "] })
        expect(blank).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "add.1" }] })
        const clash = yield* call(principal, "svc_update_item_tags", { itemIds: [a], add: ["x"], remove: ["X"] })
        expect(clash).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "remove" }] })
        const long = yield* call(principal, "svc_update_item_tags", { itemIds: [a], add: ["t".repeat(51)] })
        expect(long).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "add.0" }] })
        const foreign = yield* call(other.principal, "svc_update_item_tags", { itemIds: [a], add: ["mine"] })
        expect(foreign).toMatchObject({ ok: false, status: "not-found" })
        const none = yield* ok<TagList>(other.principal, "svc_list_tags", {})
        expect(none.tags).toEqual([])
      })
    )
  })

  describe("svc_find_workspace_items and list filters", () => {
    it.effect("finds by exact title, url, type and tag, and lists by tag, board and creation time", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const start = new Date(yield* TestClock.currentTimeMillis)
        const plan = yield* note(principal, "# Launch plan\n\nbody")
        yield* TestClock.adjust("1 hour")
        const other = yield* note(principal, "# Launch plan v2")
        const { board } = yield* ok<{ board: { id: string } }>(principal, "svc_create_board", { title: "Launch plan" })
        yield* ok(principal, "svc_update_item_tags", { itemIds: [plan, board.id], add: ["launch"] })

        const byTitle = yield* ok<Items>(principal, "svc_find_workspace_items", { title: "launch PLAN" })
        expect(byTitle.items.map((i) => i.id)).toEqual([board.id, plan])
        const byTitleAndType = yield* ok<Items>(principal, "svc_find_workspace_items", {
          title: "Launch plan",
          type: "note"
        })
        expect(byTitleAndType.items.map((i) => i.id)).toEqual([plan])
        const byTag = yield* ok<Items>(principal, "svc_find_workspace_items", { tag: "LAUNCH", limit: 1 })
        expect(byTag.items.map((i) => i.id)).toEqual([board.id])
        const next = yield* ok<Items>(principal, "svc_find_workspace_items", {
          tag: "launch",
          limit: 1,
          cursor: byTag.nextCursor
        })
        expect(next.items.map((i) => i.id)).toEqual([plan])
        const none = yield* ok<Items>(principal, "svc_find_workspace_items", { url: "https://example.com/nothing" })
        expect(none.items).toEqual([])
        const empty = yield* call(principal, "svc_find_workspace_items", {})
        expect(empty).toMatchObject({ ok: false, status: "invalid" })

        const early = yield* ok<Items>(principal, "svc_list_workspace_items", {
          createdAfter: start.toISOString(),
          createdBefore: new Date(start.getTime() + 60_000).toISOString()
        })
        expect(early.items.map((i) => i.id)).toEqual([plan])
        const late = yield* ok<Items>(principal, "svc_list_workspace_items", {
          createdAfter: new Date(start.getTime() + 60_000).toISOString()
        })
        expect(late.items.map((i) => i.id).sort()).toEqual([board.id, other].sort())
        const tagged = yield* ok<Items>(principal, "svc_list_workspace_items", { tag: "launch", type: "board" })
        expect(tagged.items.map((i) => i.id)).toEqual([board.id])
        const backwards = yield* call(principal, "svc_list_workspace_items", {
          createdAfter: "2026-02-01T00:00:00Z",
          createdBefore: "2026-01-01T00:00:00Z"
        })
        expect(backwards).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "createdBefore" }] })
      })
    )
  })
})
