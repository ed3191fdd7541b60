import { afterAll, describe, expect, it } from "@effect/vitest"
import { BASE, makeFakeHandler, tokens } from "./fakes.js"
import { errorOf, jsonOf, mcpPost, resultOf, rpc } from "./requests.js"

const app = makeFakeHandler()
afterAll(() => app.dispose())
const call = (body: unknown, token: string = tokens.full, headers?: Record<string, string>) =>
  app.handler(mcpPost(BASE, body, { token, ...(headers ? { headers } : {}) }))
const stateless = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {}
}

describe("MCP initialize and lifecycle", () => {
  it.each(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])(
    "answers a client asking for %s with that version",
    async (version) => {
      const result = await resultOf(await call(rpc("initialize", { protocolVersion: version, capabilities: {} })))
      expect(result).toMatchObject({
        protocolVersion: version,
        serverInfo: { name: "svc", version: "1.0.0" },
        capabilities: { tools: { listChanged: false } }
      })
      expect(result.instructions).toEqual(expect.stringContaining("svc_"))
    }
  )

  it("offers its newest handshake version to a client asking for one it does not speak", async () => {
    const result = await resultOf(await call(rpc("initialize", { protocolVersion: "2024-10-07", capabilities: {} })))
    expect(result.protocolVersion).toBe("2025-11-25")
  })

  it("answers ping with an empty result and an unknown method with -32601", async () => {
    expect(await resultOf(await call(rpc("ping")))).toEqual({})
    const unknown = await call(rpc("resources/list"))
    expect(unknown.status).toBe(200)
    expect((await errorOf(unknown)).code).toBe(-32601)
  })
})

describe("MCP tools/list", () => {
  it("lists the caller's tools with the MCP fields, catalog extras under _meta, one page", async () => {
    const result = await resultOf(await call(rpc("tools/list")))
    expect(result.nextCursor).toBeUndefined()
    const tools = result.tools as Array<Record<string, unknown>>
    expect(tools.map((tool) => tool.name)).toEqual([
      "svc_get_note_markdown",
      "svc_list_tags",
      "svc_create_note",
      "svc_create_sticky_note"
    ])
    const create = tools.find((tool) => tool.name === "svc_create_note")
    expect(Object.keys(create ?? {}).sort()).toEqual(
      ["_meta", "annotations", "description", "inputSchema", "name", "outputSchema", "title"].sort()
    )
    expect(create).toMatchObject({
      inputSchema: { type: "object", required: ["markdown"] },
      annotations: { readOnlyHint: false, destructiveHint: false },
      _meta: { "svc/group": "Boards & documents", "svc/write": true }
    })
    const alias = tools.find((tool) => tool.name === "svc_create_sticky_note")
    expect(alias?._meta).toMatchObject({ "svc/deprecated": true, "svc/aliasOf": "svc_create_note" })
  })

  it("shows a read-only key no write tools", async () => {
    const result = await resultOf(await call(rpc("tools/list"), tokens.reader))
    const names = (result.tools as Array<{ name: string }>).map((tool) => tool.name)
    expect(names).toEqual(["svc_get_note_markdown", "svc_list_tags"])
  })

  it("serves the same encoded list to every caller with the same grant", async () => {
    const first = await (await call(rpc("tools/list", undefined, "a"))).text()
    const second = await (await call(rpc("tools/list", undefined, "a"), tokens.spare)).text()
    expect(second).toBe(first)
  })
})

describe("MCP tools/call", () => {
  it("answers a success as text and as structuredContent", async () => {
    const result = await resultOf(
      await call(rpc("tools/call", { name: "svc_create_note", arguments: { markdown: "# Hi" } }))
    )
    const expected = { ok: true, note: { id: "note_1", markdown: "# Hi" } }
    expect(result.structuredContent).toEqual(expected)
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(expected) }])
    expect(result.isError).toBeUndefined()
  })

  it("answers a tool failure as a result with isError, never as a protocol error", async () => {
    const response = await call(rpc("tools/call", { name: "svc_get_note_markdown", arguments: { noteId: "note_404" } }))
    expect(response.status).toBe(200)
    const result = await resultOf(response)
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toEqual({ ok: false, status: "not-found", message: "no note note_404" })
  })

  it("reports invalid arguments per field", async () => {
    const result = await resultOf(
      await call(rpc("tools/call", { name: "svc_create_note", arguments: { markdown: "", colour: "red" } }))
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

  it("refuses a write tool to a read-only key as forbidden", async () => {
    const result = await resultOf(
      await call(rpc("tools/call", { name: "svc_create_note", arguments: { markdown: "x" } }), tokens.reader)
    )
    expect(result).toMatchObject({ isError: true, structuredContent: { ok: false, status: "forbidden" } })
  })

  it("answers an unknown tool or a missing name with -32602", async () => {
    const unknown = await errorOf(await call(rpc("tools/call", { name: "svc_nope", arguments: {} })))
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining("svc_nope") })
    expect((await errorOf(await call(rpc("tools/call", { arguments: {} })))).code).toBe(-32602)
  })
})

describe("MCP 2026-07-28, the stateless revision", () => {
  it("answers server/discover with versions, capabilities, server info and instructions", async () => {
    const result = await resultOf(await call(rpc("server/discover", { _meta: stateless })))
    expect(result).toMatchObject({
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: "svc", version: "1.0.0" },
      resultType: "complete"
    })
    expect(typeof result.instructions).toBe("string")
  })

  it("serves tools without initialize when _meta names the version, marking results complete", async () => {
    const list = await resultOf(await call(rpc("tools/list", { _meta: stateless })))
    expect(list.resultType).toBe("complete")
    const answer = await resultOf(
      await call(
        rpc("tools/call", { name: "svc_get_note_markdown", arguments: { noteId: "note_1" }, _meta: stateless }),
        tokens.full,
        {
          "mcp-protocol-version": "2026-07-28"
        }
      )
    )
    expect(answer).toMatchObject({ resultType: "complete", structuredContent: { ok: true } })
  })

  it("refuses a _meta version it does not serve with -32004 and HTTP 400", async () => {
    const response = await call(
      rpc("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2027-01-01" } })
    )
    expect(response.status).toBe(400)
    expect(await errorOf(response)).toMatchObject({ code: -32004, data: { requested: "2027-01-01" } })
  })

  it("refuses a header that contradicts _meta, and the removed ping", async () => {
    const mismatch = await call(rpc("tools/list", { _meta: stateless }), tokens.full, {
      "mcp-protocol-version": "2025-06-18"
    })
    expect(mismatch.status).toBe(400)
    expect((await jsonOf(mismatch)).error).toMatchObject({ code: -32600 })
    expect((await errorOf(await call(rpc("ping", { _meta: stateless })))).code).toBe(-32601)
  })
})
