import { describe, expect, layer } from "@effect/vitest"
import { type Access, readOnlyAccess } from "@svc/core/auth"
import { specTools, specToolsByName } from "@svc/core/tools"
import { Effect } from "effect"
import { FACES, type Face, sendVia, TestApp } from "../support/app.js"
import { errorOf, jsonOf, mcpPost, resultOf, rpc } from "./requests.js"

/** Sends a JSON-RPC body to `POST /mcp` with one key, plus any extra headers. */
type Call = (body: unknown, headers?: Record<string, string>) => Promise<Response>

/** A caller over `face` holding the API key of a freshly opened account (full access unless `access` narrows it). */
const caller = (face: Face, access?: Access) =>
  Effect.gen(function* () {
    const app = yield* TestApp
    const { token } = yield* app.signUp(access === undefined ? {} : { access })
    const send = sendVia(app, face)
    const call: Call = (body, headers) =>
      send(mcpPost(app.url, body, { token, ...(headers === undefined ? {} : { headers }) }))
    return call
  })

/** Runs async test bodies over `face`, each with a caller of its own. */
const callerOver = (face: Face) => (body: (call: Call) => Promise<void>, access?: Access) =>
  Effect.flatMap(caller(face, access), (call) => Effect.promise(() => body(call)))

const stateless = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {}
}

/** Creates a note through `tools/call` and answers its stored form. */
const createNote = async (call: Call, markdown: string) => {
  const result = await resultOf(await call(rpc("tools/call", { name: "svc_create_note", arguments: { markdown } })))
  return (result.structuredContent as { note: { id: string; markdown: string } }).note
}

layer(TestApp.layer, { excludeTestServices: true, timeout: "60 seconds" })((it) => {
  for (const face of FACES) {
    const withCaller = callerOver(face)
    describe(`MCP initialize and lifecycle (${face})`, () => {
      it.effect.each(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])(
        "answers a client asking for %s with that version",
        (version) =>
          withCaller(async (call) => {
            const result = await resultOf(await call(rpc("initialize", { protocolVersion: version, capabilities: {} })))
            expect(result).toMatchObject({
              protocolVersion: version,
              serverInfo: { name: "svc", version: "1.0.0" },
              capabilities: { tools: { listChanged: false } }
            })
            expect(result.instructions).toEqual(expect.stringContaining("svc_"))
          })
      )

      it.effect("offers its newest handshake version to a client asking for one it does not speak", () =>
        withCaller(async (call) => {
          const result = await resultOf(
            await call(rpc("initialize", { protocolVersion: "2024-10-07", capabilities: {} }))
          )
          expect(result.protocolVersion).toBe("2025-11-25")
        })
      )

      it.effect("answers ping with an empty result and an unknown method with -32601", () =>
        withCaller(async (call) => {
          expect(await resultOf(await call(rpc("ping")))).toEqual({})
          const unknown = await call(rpc("resources/list"))
          expect(unknown.status).toBe(200)
          expect((await errorOf(unknown)).code).toBe(-32601)
        })
      )
    })

    describe(`MCP tools/list (${face})`, () => {
      it.effect(
        "lists every tool to a full key in catalog order with the MCP fields, catalog extras under _meta, one page",
        () =>
          Effect.gen(function* () {
            const { registry } = yield* TestApp
            yield* withCaller(async (call) => {
              const result = await resultOf(await call(rpc("tools/list")))
              expect(result.nextCursor).toBeUndefined()
              const tools = result.tools as Array<Record<string, unknown>>
              const names = tools.map((tool) => String(tool.name))
              // Core keeps gaining tools, so the list is checked against what it serves, in the catalog's order.
              expect(names).toEqual(registry.tools.map((listed) => listed.entry.name))
              expect(names).toEqual(specTools.map((entry) => entry.name).filter((name) => names.includes(name)))
              expect(names).toEqual(
                expect.arrayContaining([
                  "svc_list_workspaces",
                  "svc_list_workspace_items",
                  "svc_get_note_markdown",
                  "svc_create_note",
                  "svc_create_sticky_note",
                  "svc_append_to_note"
                ])
              )
              const create = tools.find((tool) => tool.name === "svc_create_note")
              expect(Object.keys(create ?? {}).sort()).toEqual(
                ["_meta", "annotations", "description", "inputSchema", "name", "outputSchema", "title"].sort()
              )
              expect(create).toMatchObject({
                inputSchema: { type: "object", required: ["markdown"] },
                // All four hints are spelled out, whatever the specification's defaults.
                _meta: { "svc/toolset": "boards" }
              })
              expect(create?.annotations).toEqual({
                readOnlyHint: false,
                destructiveHint: false,
                idempotentHint: false,
                openWorldHint: false
              })
              const alias = tools.find((tool) => tool.name === "svc_create_sticky_note")
              expect(alias?._meta).toMatchObject({ "svc/deprecated": true, "svc/aliasOf": "svc_create_note" })
            })
          })
      )

      it.effect("shows a read-only key its read tools and no write tools", () =>
        Effect.gen(function* () {
          const { registry } = yield* TestApp
          yield* withCaller(async (call) => {
            const result = await resultOf(await call(rpc("tools/list")))
            const tools = result.tools as Array<{ name: string; annotations: { readOnlyHint: boolean } }>
            const names = tools.map((tool) => tool.name)
            expect(names).toEqual(registry.visibleTo(readOnlyAccess).map((listed) => listed.entry.name))
            expect(names).toEqual(
              expect.arrayContaining(["svc_list_workspaces", "svc_list_workspace_items", "svc_get_note_markdown"])
            )
            expect(names.filter((name) => specToolsByName.get(name)?.write !== false)).toEqual([])
            expect(tools.every((tool) => tool.annotations.readOnlyHint)).toBe(true)
          }, readOnlyAccess)
        })
      )

      it.effect("serves the same encoded list to every caller with the same grant", () =>
        Effect.gen(function* () {
          const [one, other] = yield* Effect.all([caller(face), caller(face)])
          const [first, second] = yield* Effect.promise(() =>
            Promise.all([one(rpc("tools/list", undefined, "a")), other(rpc("tools/list", undefined, "a"))])
          )
          const text = yield* Effect.promise(() => first.text())
          expect(yield* Effect.promise(() => second.text())).toBe(text)
          expect(text).toContain("svc_create_note")
        })
      )
    })

    describe(`MCP tools/call (${face})`, () => {
      it.effect("answers a success as text and as structuredContent", () =>
        withCaller(async (call) => {
          const result = await resultOf(
            await call(rpc("tools/call", { name: "svc_create_note", arguments: { markdown: "# Hi" } }))
          )
          expect(result.structuredContent).toMatchObject({
            ok: true,
            note: { id: expect.stringMatching(/^note_/), markdown: "# Hi", characters: 4 }
          })
          expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }])
          expect(result.isError).toBeUndefined()
        })
      )

      it.effect("answers a tool failure as a result with isError, never as a protocol error", () =>
        withCaller(async (call) => {
          const response = await call(
            rpc("tools/call", { name: "svc_get_note_markdown", arguments: { noteId: "note_404" } })
          )
          expect(response.status).toBe(200)
          const result = await resultOf(response)
          expect(result.isError).toBe(true)
          expect(result.structuredContent).toEqual({
            ok: false,
            status: "not-found",
            message: expect.stringContaining("no note note_404")
          })
        })
      )

      it.effect("reports invalid arguments per field", () =>
        withCaller(async (call) => {
          const result = await resultOf(
            await call(
              rpc("tools/call", {
                name: "svc_append_to_note",
                arguments: { noteId: "note_1", markdown: "", colour: "red" }
              })
            )
          )
          expect(result.isError).toBe(true)
          expect(result.structuredContent).toMatchObject({
            ok: false,
            status: "invalid",
            errors: expect.arrayContaining([
              expect.objectContaining({ path: "markdown" }),
              expect.objectContaining({ path: "colour" })
            ])
          })
        })
      )

      it.effect("refuses a write tool to a read-only key as forbidden", () =>
        withCaller(async (call) => {
          const result = await resultOf(
            await call(rpc("tools/call", { name: "svc_create_note", arguments: { markdown: "x" } }))
          )
          expect(result).toMatchObject({ isError: true, structuredContent: { ok: false, status: "forbidden" } })
        }, readOnlyAccess)
      )

      it.effect("answers an unknown tool or a missing name with -32602", () =>
        withCaller(async (call) => {
          const unknown = await errorOf(await call(rpc("tools/call", { name: "svc_nope", arguments: {} })))
          expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining("svc_nope") })
          expect((await errorOf(await call(rpc("tools/call", { arguments: {} })))).code).toBe(-32602)
        })
      )
    })

    describe(`MCP 2026-07-28, the stateless revision (${face})`, () => {
      it.effect("answers server/discover with versions, capabilities, server info and instructions", () =>
        withCaller(async (call) => {
          const result = await resultOf(await call(rpc("server/discover", { _meta: stateless })))
          expect(result).toMatchObject({
            supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
            capabilities: { tools: { listChanged: false } },
            _meta: { "io.modelcontextprotocol/serverInfo": { name: "svc", version: "1.0.0" } },
            resultType: "complete",
            cacheScope: "private",
            ttlMs: 300_000
          })
          expect(typeof result.instructions).toBe("string")
        })
      )

      it.effect("serves tools without initialize when _meta names the version, marking results complete", () =>
        withCaller(async (call) => {
          const list = await resultOf(await call(rpc("tools/list", { _meta: stateless })))
          expect(list.resultType).toBe("complete")
          const note = await createNote(call, "# Stateless")
          const answer = await resultOf(
            await call(
              rpc("tools/call", { name: "svc_get_note_markdown", arguments: { noteId: note.id }, _meta: stateless }),
              { "mcp-protocol-version": "2026-07-28" }
            )
          )
          expect(answer).toMatchObject({
            resultType: "complete",
            structuredContent: { ok: true, note: { id: note.id, markdown: "# Stateless" } }
          })
        })
      )

      it.effect("refuses a _meta version it does not serve with -32022 and HTTP 400", () =>
        withCaller(async (call) => {
          const response = await call(
            rpc("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2027-01-01" } })
          )
          expect(response.status).toBe(400)
          expect(await errorOf(response)).toMatchObject({ code: -32022, data: { requested: "2027-01-01" } })
        })
      )

      it.effect("refuses a header that contradicts _meta, and the removed ping", () =>
        withCaller(async (call) => {
          const mismatch = await call(rpc("tools/list", { _meta: stateless }), { "mcp-protocol-version": "2025-06-18" })
          expect(mismatch.status).toBe(400)
          expect((await jsonOf(mismatch)).error).toMatchObject({ code: -32020 })
          expect((await errorOf(await call(rpc("ping", { _meta: stateless })))).code).toBe(-32601)
        })
      )
    })
  }
})
