import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { connectMcpClient } from "../support/mcp-client.js"

const connect = (url: string, token: string) => connectMcpClient(url, token, "svc-e2e")

layer(TestApp.layer, { timeout: "60 seconds", excludeTestServices: true })((it) => {
  describe("the official MCP SDK client against the Node server", () => {
    it.scoped("connects, sees the server, lists tools, writes a note and reads it back", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        const client = yield* connect(app.url, user.token)
        expect(client.getServerVersion()).toEqual({ name: "svc", version: "1.0.0" })
        expect(client.getInstructions()).toContain("svc_")

        const { tools } = yield* Effect.promise(() => client.listTools())
        const names = tools.map((tool) => tool.name)
        expect(names).toEqual(
          expect.arrayContaining(["svc_create_note", "svc_get_note_markdown", "svc_list_workspaces"])
        )

        const created = yield* Effect.promise(() =>
          client.callTool({ name: "svc_create_note", arguments: { title: "Plan", markdown: "# Launch\n\nShip it." } })
        )
        expect(created.isError).toBeUndefined()
        const note = (created.structuredContent as { ok: true; note: { id: string } }).note
        expect(note.id).toMatch(/^note_/)

        const read = yield* Effect.promise(() =>
          client.callTool({ name: "svc_get_note_markdown", arguments: { noteId: note.id } })
        )
        expect(read.structuredContent).toMatchObject({
          ok: true,
          note: { id: note.id, title: "Plan", markdown: "# Launch\n\nShip it." }
        })
        expect(read.content).toEqual([{ type: "text", text: JSON.stringify(read.structuredContent) }])
      })
    )

    it.scoped("gets tool failures as results the SDK accepts: invalid with per-field errors, not-found", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        const client = yield* connect(app.url, user.token)
        yield* Effect.promise(() => client.listTools())
        const invalid = yield* Effect.promise(() =>
          client.callTool({ name: "svc_create_note", arguments: { markdown: 42 } })
        )
        expect(invalid.isError).toBe(true)
        expect(invalid.structuredContent).toMatchObject({
          ok: false,
          status: "invalid",
          errors: [{ path: "markdown" }]
        })
        const missing = yield* Effect.promise(() =>
          client.callTool({ name: "svc_get_note_markdown", arguments: { noteId: "note_nope" } })
        )
        expect(missing.structuredContent).toMatchObject({ ok: false, status: "not-found" })
      })
    )

    it.scoped("refuses write tools to a read-only key with forbidden, and lists none", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const reader = yield* app.signUp({ access: { kind: "custom", parts: { boards: "read", workspace: "read" } } })
        const client = yield* connect(app.url, reader.token)
        const { tools } = yield* Effect.promise(() => client.listTools())
        expect(tools.length).toBeGreaterThan(0)
        expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true)
        const refused = yield* Effect.promise(() =>
          client.callTool({ name: "svc_create_note", arguments: { markdown: "no" } })
        )
        expect(refused).toMatchObject({ isError: true, structuredContent: { ok: false, status: "forbidden" } })
      })
    )

    it.effect("turns the SDK client away without a valid token", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const failure = yield* Effect.flip(
          Effect.scoped(connect(app.url, "svc_pat_not-a-real-token")).pipe(Effect.sandbox)
        )
        expect(String(failure)).toContain("-32001")
      })
    )
  })
})
