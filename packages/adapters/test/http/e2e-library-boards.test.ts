/**
 * The black-box session of the Boards & documents tools, as an agent would run it: once through the
 * official MCP SDK client over the network, once through the REST form, on real storage.
 */
import { describe, expect, layer } from "@effect/vitest"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { connectMcpClient } from "../support/mcp-client.js"
import { jsonOf, restCall } from "./requests.js"

type Body = Record<string, unknown>
/** Calls a tool and answers its body (`{ ok, … }`) and the HTTP status where there is one. */
type CallTool = (name: string, args: Body) => Promise<{ readonly body: Body; readonly status?: number }>

const connect = (url: string, token: string) => connectMcpClient(url, token, "svc-e2e-boards")

const viaMcp =
  (client: Client): CallTool =>
  async (name, args) => {
    const result = await client.callTool({ name, arguments: args })
    const body = result.structuredContent as Body
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(body) }])
    expect(result.isError === true).toBe(body.ok === false)
    return { body }
  }

const viaRest =
  (url: string, token: string): CallTool =>
  async (name, args) => {
    const response = await fetch(restCall(url, name, args, token))
    return { body: await jsonOf(response), status: response.status }
  }

/** The session: a board of notes and a table, connections, tags, a patch, the trash; answers what it saw. */
const session = async (call: CallTool) => {
  const ok = async <A = Body>(name: string, args: Body): Promise<A> => {
    const { body } = await call(name, args)
    if (body.ok !== true) throw new Error(`${name} failed: ${JSON.stringify(body)}`)
    return body as A
  }
  const { board } = await ok<{ board: { id: string } }>("svc_create_board", { title: "Launch board" })
  const hook = (await ok<{ note: { id: string } }>("svc_create_note", { markdown: "# Hook\n\nShip on Friday." })).note
  const story = (await ok<{ note: { id: string } }>("svc_create_note", { markdown: "# Story\n\nWhy we built it." }))
    .note
  const { table } = await ok<{ table: { id: string } }>("svc_create_table", {
    title: "Posts",
    columns: [{ name: "Title" }, { name: "Views", type: "number" }],
    rows: [{ Title: "Teaser", Views: 10 }]
  })
  await ok("svc_add_table_rows", { tableId: table.id, rows: [{ Title: "Demo", Views: 25 }] })
  const placed = await ok<{ board: { itemCount: number } }>("svc_save_items_to_board", {
    boardId: board.id,
    items: [{ itemId: hook.id, x: 0, y: 0 }, { itemId: story.id, x: 400, y: 0 }, { itemId: table.id }]
  })
  expect(placed.board.itemCount).toBe(3)
  await ok("svc_connect_items", { fromItemId: hook.id, toItemId: story.id, label: "leads to", boardId: board.id })
  await ok("svc_connect_items", { fromItemId: story.id, toItemId: table.id, label: "measured by", boardId: board.id })
  await ok("svc_update_item_tags", { itemIds: [hook.id, story.id], add: ["launch", "Copy"] })

  const patched = await ok<{ note: { markdown: string } }>("svc_patch_note", {
    noteId: hook.id,
    edits: [{ find: "Friday", replace: "Monday" }]
  })
  expect(patched.note.markdown).toBe("# Hook\n\nShip on Monday.")
  const conflict = await call("svc_patch_note", { noteId: hook.id, edits: [{ find: "Friday", replace: "Sunday" }] })
  expect(conflict.body).toMatchObject({ ok: false, status: "conflict" })
  expect(String(conflict.body.message)).toContain("not found")

  const read = await ok<{ items: Array<{ id: string }>; connections: Array<{ label: string }> }>("svc_read_board", {
    boardId: board.id
  })
  expect(read.items.map((i) => i.id).sort()).toEqual([hook.id, story.id, table.id].sort())
  expect(read.connections.map((c) => c.label).sort()).toEqual(["leads to", "measured by"])
  const rows = await ok<{ rows: Array<{ cells: Body }> }>("svc_read_table", { tableId: table.id })
  expect(rows.rows.map((r) => r.cells)).toEqual([
    { Title: "Teaser", Views: 10 },
    { Title: "Demo", Views: 25 }
  ])
  const tags = await ok<{ tags: Array<{ name: string; itemCount: number }> }>("svc_list_tags", {})
  expect(tags.tags.map((t) => [t.name, t.itemCount])).toEqual([
    ["Copy", 2],
    ["launch", 2]
  ])
  const found = await ok<{ items: Array<{ id: string }> }>("svc_find_workspace_items", { tag: "LAUNCH", type: "note" })
  expect(found.items.map((i) => i.id).sort()).toEqual([hook.id, story.id].sort())
  const links = await ok<{ connections: Array<{ direction: string }> }>("svc_get_connections", { itemId: story.id })
  expect(links.connections.map((c) => c.direction).sort()).toEqual(["incoming", "outgoing"])

  await ok("svc_trash_item", { itemId: story.id })
  const listed = await ok<{ items: Array<{ id: string }> }>("svc_list_workspace_items", {})
  expect(listed.items.map((i) => i.id)).not.toContain(story.id)
  const trash = await ok<{ items: Array<{ id: string }> }>("svc_list_workspace_items", { inTrash: true })
  expect(trash.items.map((i) => i.id)).toEqual([story.id])
  const after = await ok<{ board: { itemCount: number }; connections: Array<unknown> }>("svc_read_board", {
    boardId: board.id
  })
  expect(after.board.itemCount).toBe(2)
  expect(after.connections).toEqual([])
  await ok("svc_trash_item", { itemId: story.id, restore: true })
  const back = await ok<{ board: { itemCount: number } }>("svc_read_board", { boardId: board.id })
  expect(back.board.itemCount).toBe(3)
  await ok("svc_trash_board", { boardId: board.id })
  const gone = await call("svc_read_board", { boardId: board.id })
  return { gone, boardId: board.id }
}

layer(TestApp.layer, { timeout: "90 seconds", excludeTestServices: true })((it) => {
  describe("an agent session over boards, notes, tables, tags and the trash", () => {
    it.scoped("through the official MCP SDK client", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        const client = yield* connect(app.url, user.token)
        const { tools } = yield* Effect.promise(() => client.listTools())
        const byName = new Map(tools.map((tool) => [tool.name, tool]))
        for (const name of ["svc_trash_item", "svc_trash_board", "svc_update_note", "svc_update_table_rows"]) {
          expect(byName.get(name)?.annotations?.destructiveHint, name).toBe(true)
        }
        for (const name of ["svc_read_board", "svc_read_table", "svc_get_connections", "svc_list_tags"]) {
          expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true)
        }
        expect(byName.get("svc_patch_note")?.annotations?.destructiveHint).toBe(false)
        const { gone } = yield* Effect.promise(() => session(viaMcp(client)))
        expect(gone.body).toMatchObject({ ok: false, status: "not-found" })
      })
    )

    it.effect("through the REST form, with HTTP codes", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        const call = viaRest(app.url, user.token)
        const { gone } = yield* Effect.promise(() => session(call))
        expect(gone).toMatchObject({ status: 404, body: { ok: false, status: "not-found" } })
        const conflict = yield* Effect.promise(async () => {
          const note = await call("svc_create_note", { markdown: "a a" })
          const noteId = (note.body.note as { id: string }).id
          return call("svc_patch_note", { noteId, edits: [{ find: "a", replace: "b" }] })
        })
        expect(conflict).toMatchObject({ status: 409, body: { ok: false, status: "conflict" } })
        expect(String(conflict.body.message)).toContain("occurs 2 times")
      })
    )

    it.effect("refuses the write tools to a read-only key and serves it the reads", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const owner = yield* app.signUp()
        const reader = yield* app.signUp({
          access: { kind: "custom", parts: { boards: "read", workspace: "read" } }
        })
        const write = yield* Effect.promise(() => viaRest(app.url, reader.token)("svc_create_board", { title: "Nope" }))
        expect(write).toMatchObject({ status: 403, body: { ok: false, status: "forbidden" } })
        const read = yield* Effect.promise(() => viaRest(app.url, reader.token)("svc_list_tags", {}))
        expect(read).toMatchObject({ status: 200, body: { ok: true, tags: [] } })
        const foreign = yield* Effect.promise(() =>
          viaRest(app.url, reader.token)("svc_list_tags", { workspaceId: owner.workspace.id })
        )
        expect(foreign).toMatchObject({ status: 404, body: { ok: false, status: "not-found" } })
      })
    )
  })
})
