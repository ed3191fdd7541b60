import { describe, expect, layer } from "@effect/vitest"
import { EventLog } from "@svc/core/events"
import { Effect, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { call, ok } from "./boards-calls.js"

type Board = { id: string; title: string; itemCount: number; updatedAt: string }
type Placed = { id: string; type: string; title: string; x: number; y: number }
type Conn = { id: string; fromItemId: string; toItemId: string; label: string; boardId: string | null }

const note = (principal: Parameters<typeof ok>[0], markdown: string) =>
  Effect.map(ok<{ note: { id: string } }>(principal, "svc_create_note", { markdown }), (a) => a.note.id)

layer(testCoreLayer(), { timeout: "60 seconds" })(`boards on ${engineName}`, (it) => {
  describe("create, rename, read", () => {
    it.effect("creates a board, renames it, and records both events", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* signUp()
        const { board } = yield* ok<{ board: Board }>(principal, "svc_create_board", { title: "  Launch  " })
        expect(board).toMatchObject({ title: "Launch", itemCount: 0 })
        expect(board.id).toMatch(/^board_/)
        yield* TestClock.adjust("1 second")
        const renamed = yield* ok<{ board: Board }>(principal, "svc_rename_board", {
          boardId: board.id,
          title: "Q3 launch"
        })
        expect(renamed.board).toMatchObject({ id: board.id, title: "Q3 launch" })
        expect(renamed.board.updatedAt).not.toBe(board.updatedAt)
        const again = yield* ok<{ board: Board }>(principal, "svc_rename_board", {
          boardId: board.id,
          title: "Q3 launch"
        })
        expect(again.board.updatedAt).toBe(renamed.board.updatedAt)
        const log = yield* EventLog
        const events = yield* log.list(workspace.id, {}, { limit: 10, after: undefined })
        // Sign-up's own events share the board's creation instant; keep to the board's.
        const boardEvents = events.rows.filter((e) => e.data.board_id === board.id || e.data.item_id === board.id)
        expect(boardEvents.map((e) => e.type)).toEqual(["board.renamed", "item.created"])
        const blank = yield* call(principal, "svc_create_board", { title: "   " })
        expect(blank).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "title" }] })
      })
    )

    it.effect("places items on a grid, moves them with x/y, and reads the board with its connections", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { board } = yield* ok<{ board: Board }>(principal, "svc_create_board", { title: "Ideas" })
        const a = yield* note(principal, "# Hook")
        const b = yield* note(principal, "# Story")
        const c = yield* note(principal, "# Call to action")
        const saved = yield* ok<{ board: Board; items: Array<Placed> }>(principal, "svc_save_items_to_board", {
          boardId: board.id,
          items: [{ itemId: a }, { itemId: b }, { itemId: c, x: 50, y: -20 }]
        })
        expect(saved.board.itemCount).toBe(3)
        expect(saved.items.map((i) => [i.id, i.x, i.y])).toEqual([
          [a, 0, 0],
          [b, 320, 0],
          [c, 50, -20]
        ])
        // Again without positions: nothing moves; with positions: it moves.
        const again = yield* ok<{ board: Board; items: Array<Placed> }>(principal, "svc_save_items_to_board", {
          boardId: board.id,
          items: [{ itemId: a }, { itemId: b, x: 1000, y: 400 }]
        })
        expect(again.board.itemCount).toBe(3)
        expect(again.items.map((i) => [i.id, i.x, i.y])).toEqual([
          [a, 0, 0],
          [b, 1000, 400]
        ])
        const onBoard = yield* ok<{ connection: Conn }>(principal, "svc_connect_items", {
          fromItemId: a,
          toItemId: b,
          label: "leads to",
          boardId: board.id
        })
        expect(onBoard.connection).toMatchObject({ fromItemId: a, toItemId: b, label: "leads to", boardId: board.id })
        const relabel = yield* ok<{ connection: Conn }>(principal, "svc_connect_items", {
          fromItemId: a,
          toItemId: b,
          label: "then",
          boardId: board.id
        })
        expect(relabel.connection.id).toBe(onBoard.connection.id)
        expect(relabel.connection.label).toBe("then")
        yield* ok(principal, "svc_connect_items", { fromItemId: b, toItemId: c })

        const read = yield* ok<{ board: Board; items: Array<Placed>; connections: Array<Conn>; nextCursor?: string }>(
          principal,
          "svc_read_board",
          { boardId: board.id, limit: 2 }
        )
        expect(read.board).toMatchObject({ id: board.id, title: "Ideas", itemCount: 3 })
        expect(read.items).toHaveLength(2)
        expect(read.nextCursor).toBeDefined()
        const rest = yield* ok<{ items: Array<Placed>; connections: Array<Conn>; nextCursor?: string }>(
          principal,
          "svc_read_board",
          { boardId: board.id, limit: 2, cursor: read.nextCursor }
        )
        expect(rest.nextCursor).toBeUndefined()
        expect([...read.items, ...rest.items].map((i) => i.id).sort()).toEqual([a, b, c].sort())
        const all = [...read.connections, ...rest.connections].map((x) => `${x.fromItemId}>${x.toItemId}:${x.label}`)
        expect(new Set(all)).toEqual(new Set([`${a}>${b}:then`, `${b}>${c}:`]))

        const listed = yield* ok<{ items: Array<{ id: string }> }>(principal, "svc_list_workspace_items", {
          boardId: board.id
        })
        expect(listed.items.map((i) => i.id).sort()).toEqual([a, b, c].sort())
      })
    )

    it.effect("refuses bad placements and connections with messages that say what to do", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { board } = yield* ok<{ board: Board }>(principal, "svc_create_board", { title: "B" })
        const a = yield* note(principal, "a")
        const b = yield* note(principal, "b")
        const self = yield* call(principal, "svc_save_items_to_board", {
          boardId: board.id,
          items: [{ itemId: board.id }]
        })
        expect(self).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "items.0.itemId" }] })
        const half = yield* call(principal, "svc_save_items_to_board", {
          boardId: board.id,
          items: [{ itemId: a, x: 1 }]
        })
        expect(half).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "items.0" }] })
        const missing = yield* call(principal, "svc_save_items_to_board", {
          boardId: board.id,
          items: [{ itemId: "note_nope" }]
        })
        expect(missing).toMatchObject({ ok: false, status: "not-found" })
        const tooMany = yield* call(principal, "svc_save_items_to_board", {
          boardId: board.id,
          items: Array.from({ length: 51 }, () => ({ itemId: a }))
        })
        expect(tooMany).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "items" }] })
        const offBoard = yield* call(principal, "svc_connect_items", { fromItemId: a, toItemId: b, boardId: board.id })
        expect(offBoard).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "boardId" }] })
        expect(String(offBoard.message)).toContain("svc_save_items_to_board")
        const loop = yield* call(principal, "svc_connect_items", { fromItemId: a, toItemId: a })
        expect(loop).toMatchObject({ ok: false, status: "invalid" })
        const notABoard = yield* call(principal, "svc_read_board", { boardId: a })
        expect(notABoard).toMatchObject({ ok: false, status: "not-found" })
      })
    )
  })

  describe("connections", () => {
    it.effect("lists an item's connections in both directions with the other item, paged", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const hub = yield* note(principal, "hub")
        const spokes = yield* Effect.forEach([1, 2, 3], (n) => note(principal, `spoke ${n}`))
        for (const [i, spoke] of spokes.entries()) {
          yield* TestClock.adjust("1 second")
          yield* ok(
            principal,
            "svc_connect_items",
            i === 0 ? { fromItemId: spoke, toItemId: hub } : { fromItemId: hub, toItemId: spoke }
          )
        }
        const page = yield* ok<{
          item: { id: string }
          connections: Array<Conn & { direction: string; otherItem: { id: string; title: string } }>
          nextCursor?: string
        }>(principal, "svc_get_connections", { itemId: hub, limit: 2 })
        expect(page.item.id).toBe(hub)
        expect(page.connections.map((c) => [c.direction, c.otherItem.id])).toEqual([
          ["outgoing", spokes[2]],
          ["outgoing", spokes[1]]
        ])
        const next = yield* ok<{
          connections: Array<{ direction: string; otherItem: { title: string } }>
          nextCursor?: string
        }>(principal, "svc_get_connections", { itemId: hub, limit: 2, cursor: page.nextCursor })
        expect(next.connections.map((c) => [c.direction, c.otherItem.title])).toEqual([["incoming", "spoke 1"]])
        expect(next.nextCursor).toBeUndefined()
      })
    )
  })

  describe("workspaces", () => {
    it.effect("answers not-found for another workspace's board, items and connections", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const { board } = yield* ok<{ board: Board }>(alice.principal, "svc_create_board", { title: "Private" })
        const a = yield* note(alice.principal, "a")
        const mine = yield* note(bob.principal, "mine")
        for (const [name, args] of [
          ["svc_read_board", { boardId: board.id }],
          ["svc_rename_board", { boardId: board.id, title: "x" }],
          ["svc_trash_board", { boardId: board.id }],
          ["svc_trash_item", { itemId: a }],
          ["svc_get_connections", { itemId: a }],
          ["svc_save_items_to_board", { boardId: board.id, items: [{ itemId: mine }] }],
          ["svc_connect_items", { fromItemId: mine, toItemId: a }],
          ["svc_list_workspace_items", { boardId: board.id }],
          ["svc_set_item_note", { itemId: a, note: "mine" }],
          ["svc_read_board", { boardId: board.id, workspaceId: alice.workspace.id }]
        ] as const) {
          const answer = yield* call(bob.principal, name, args)
          expect(answer, name).toMatchObject({ ok: false, status: "not-found" })
        }
      })
    )
  })
})
