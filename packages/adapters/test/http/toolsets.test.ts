import { gunzipSync } from "node:zlib"
import { describe, expect, layer } from "@effect/vitest"
import type { Access, Part } from "@svc/core/auth"
import { type ListedTool, toolGroups, toolsetNames } from "@svc/core/tools"
import { Effect } from "effect"
import { FACES, type Face, sendVia, TestApp } from "../support/app.js"
import { errorOf, jsonOf, mcpHeaders, resultOf, restCall, rpc } from "./requests.js"

/** How a test names toolsets: headers and a query string, each optional. */
interface Narrowing {
  readonly headers?: Record<string, string>
  readonly query?: string
}

/** A caller over one face with one key, speaking MCP and REST with any narrowing. */
interface Caller {
  readonly mcp: (body: unknown, narrowing?: Narrowing) => Promise<Response>
  readonly listRest: (narrowing?: Narrowing) => Promise<Response>
  readonly callRest: (name: string, body: unknown, narrowing?: Narrowing) => Promise<Response>
  readonly registry: ReadonlyArray<ListedTool>
}

const callerOver =
  (face: Face) =>
  (body: (caller: Caller) => Promise<void>, key: { access?: Access; toolsets?: ReadonlyArray<Part> } = {}) =>
    Effect.gen(function* () {
      const app = yield* TestApp
      const { token } = yield* app.signUp(key)
      const send = sendVia(app, face)
      const target = (path: string, narrowing?: Narrowing) =>
        `${app.url}${path}${narrowing?.query === undefined ? "" : `?${narrowing.query}`}`
      const caller: Caller = {
        mcp: (message, narrowing) =>
          send(
            new Request(target("/mcp", narrowing), {
              method: "POST",
              headers: { ...mcpHeaders(token), ...narrowing?.headers },
              body: JSON.stringify(message)
            })
          ),
        listRest: (narrowing) =>
          send(
            new Request(target("/v1/tools", narrowing), {
              headers: { authorization: `Bearer ${token}`, ...narrowing?.headers }
            })
          ),
        callRest: (name, message, narrowing) => {
          const plain = restCall(app.url, name, message, token)
          const headers = new Headers(plain.headers)
          for (const [header, value] of Object.entries(narrowing?.headers ?? {})) headers.set(header, value)
          return send(
            new Request(target(`/v1/tools/${name}`, narrowing), {
              method: "POST",
              headers,
              body: JSON.stringify(message)
            })
          )
        },
        registry: app.registry.tools
      }
      yield* Effect.promise(() => body(caller))
    })

const stateless = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {}
}

/** The names `tools/list` answers, in order. */
const mcpNames = async (response: Response): Promise<ReadonlyArray<string>> => {
  expect(response.status).toBe(200)
  const result = await resultOf(response)
  return (result.tools as ReadonlyArray<{ name: string }>).map((tool) => tool.name)
}

const restNames = async (response: Response): Promise<ReadonlyArray<string>> => {
  expect(response.status).toBe(200)
  const body = await jsonOf(response)
  return (body.tools as ReadonlyArray<{ name: string }>).map((tool) => tool.name)
}

/** The served names the registry holds for `keep`, in catalog order. */
const namesWhere = (registry: ReadonlyArray<ListedTool>, keep: (tool: ListedTool) => boolean) =>
  registry.filter(keep).map((tool) => tool.entry.name)

const partOf = (tool: ListedTool): Part => toolGroups[tool.entry.group].part

const VALID = [...toolsetNames, "all"]

/**
 * The fields the 2026-07-28 schema requires (schema/2026-07-28/schema.ts in modelcontextprotocol/modelcontextprotocol):
 * `Result` requires `resultType`; `CacheableResult` adds `ttlMs` (a number, minimum 0) and `cacheScope`
 * ("public" | "private"); `DiscoverResult` adds `supportedVersions` and `capabilities`; `ListToolsResult` adds
 * `tools` (each `Tool` with `name` and an `inputSchema` whose `type` is "object"); `CallToolResult` adds `content`.
 * The Python SDK (`mcp` 2.3) rejects a result that lacks any of them.
 */
const expectCacheable = (result: Record<string, unknown>) => {
  expect(result.resultType).toBe("complete")
  expect(Number.isInteger(result.ttlMs) && (result.ttlMs as number) >= 0).toBe(true)
  expect(result.cacheScope).toBe("private")
  expect(result._meta).toMatchObject({ "io.modelcontextprotocol/serverInfo": { name: "svc", version: "1.0.0" } })
}

layer(TestApp.layer, { excludeTestServices: true, timeout: "60 seconds" })((it) => {
  for (const face of FACES) {
    const withCaller = callerOver(face)

    describe(`toolsets on tools/list and GET /v1/tools (${face})`, () => {
      it.effect("narrows to the named groups by header or query, case and spaces aside, on both faces", () =>
        withCaller(async ({ mcp, listRest, registry }) => {
          const wanted = namesWhere(registry, (tool) => ["workspace", "boards"].includes(partOf(tool)))
          expect(wanted.length).toBeGreaterThan(0)
          expect(wanted.length).toBeLessThan(registry.length)
          const byHeader = { headers: { "x-mcp-toolsets": " Workspace , BOARDS " } }
          const byQuery = { query: "toolsets=workspace,boards" }
          expect(await mcpNames(await mcp(rpc("tools/list"), byHeader))).toEqual(wanted)
          expect(await mcpNames(await mcp(rpc("tools/list"), byQuery))).toEqual(wanted)
          expect(await restNames(await listRest(byHeader))).toEqual(wanted)
          expect(await restNames(await listRest(byQuery))).toEqual(wanted)
          const highlights = namesWhere(registry, (tool) => partOf(tool) === "highlights")
          expect(await mcpNames(await mcp(rpc("tools/list"), { headers: { "x-mcp-toolsets": "highlights" } }))).toEqual(
            highlights
          )
        })
      )

      it.effect(
        "serves read-only tools alone with X-MCP-Readonly or readonly=true, and combines it with toolsets",
        () =>
          withCaller(async ({ mcp, listRest, registry }) => {
            const reads = namesWhere(registry, (tool) => !tool.entry.write)
            expect(reads.length).toBeLessThan(registry.length)
            expect(await mcpNames(await mcp(rpc("tools/list"), { headers: { "x-mcp-readonly": "true" } }))).toEqual(
              reads
            )
            expect(await restNames(await listRest({ query: "readonly=TRUE" }))).toEqual(reads)
            // Boards & documents has writes only: with read-only it serves nothing, and the workspace reads stay.
            const combined = { headers: { "x-mcp-toolsets": "workspace,boards", "x-mcp-readonly": "1" } }
            expect(await mcpNames(await mcp(rpc("tools/list"), combined))).toEqual(
              namesWhere(registry, (tool) => partOf(tool) === "workspace" && !tool.entry.write)
            )
            expect(
              await mcpNames(
                await mcp(rpc("tools/list"), { headers: { "x-mcp-toolsets": "boards", "x-mcp-readonly": "true" } })
              )
            ).toEqual([])
            // `false` and `all` narrow nothing: the whole list, as with no header.
            const all = { headers: { "x-mcp-toolsets": "all", "x-mcp-readonly": "false" } }
            expect(await mcpNames(await mcp(rpc("tools/list"), all))).toEqual(registry.map((tool) => tool.entry.name))
          })
      )

      it.effect("keeps the grant as the ceiling: a toolset never shows a tool the key may not use", () =>
        withCaller(
          async ({ mcp, registry }) => {
            const names = await mcpNames(
              await mcp(rpc("tools/list"), { headers: { "x-mcp-toolsets": "workspace,boards" } })
            )
            expect(names).toEqual(namesWhere(registry, (tool) => partOf(tool) === "workspace"))
          },
          { access: { kind: "custom", parts: { workspace: "read", highlights: "read" } } }
        )
      )

      it.effect("answers an unknown toolset with 400 naming the valid ones, on MCP and REST", () =>
        withCaller(async ({ mcp, listRest, callRest }) => {
          const mcpAnswer = await mcp(rpc("tools/list"), { headers: { "x-mcp-toolsets": "workspace,nope" } })
          expect(mcpAnswer.status).toBe(400)
          const error = await errorOf(mcpAnswer)
          expect(error.message).toContain('"nope"')
          for (const name of VALID) expect(error.message).toContain(name)
          expect(error.data).toEqual({ validToolsets: VALID })
          for (const answer of [
            await listRest({ query: "toolsets=nope" }),
            await callRest("svc_list_workspaces", {}, { headers: { "x-mcp-toolsets": "nope" } })
          ]) {
            expect(answer.status).toBe(400)
            expect(await jsonOf(answer)).toMatchObject({
              ok: false,
              status: "invalid",
              message: expect.stringContaining("custom_ai"),
              validToolsets: VALID
            })
          }
        })
      )

      it.effect("refuses a read-only flag that is not true or false, and a header and query that disagree", () =>
        withCaller(async ({ mcp, listRest }) => {
          const flag = await mcp(rpc("tools/list"), { headers: { "x-mcp-readonly": "maybe" } })
          expect(flag.status).toBe(400)
          expect((await errorOf(flag)).message).toContain("X-MCP-Readonly")
          const disagree = await listRest({ headers: { "x-mcp-toolsets": "workspace" }, query: "toolsets=boards" })
          expect(disagree.status).toBe(400)
          expect((await jsonOf(disagree)).message).toContain("disagree")
          // The same selection written two ways agrees.
          const agree = await listRest({
            headers: { "x-mcp-toolsets": "boards,workspace" },
            query: "toolsets=workspace,boards"
          })
          expect(agree.status).toBe(200)
        })
      )
    })

    describe(`tools/call outside the served set (${face})`, () => {
      it.effect(
        "answers a tool outside the toolsets as an unknown tool (MCP -32602, REST 404) and runs those inside",
        () =>
          withCaller(async ({ mcp, callRest }) => {
            const narrowing = { headers: { "x-mcp-toolsets": "workspace" } }
            const outside = await mcp(
              rpc("tools/call", { name: "svc_create_note", arguments: { markdown: "# x" } }),
              narrowing
            )
            expect(outside.status).toBe(200)
            const unknown = await errorOf(outside)
            const typo = await errorOf(await mcp(rpc("tools/call", { name: "svc_nope", arguments: {} }), narrowing))
            expect(unknown.code).toBe(-32602)
            expect(unknown.message).toBe(typo.message.replace("svc_nope", "svc_create_note"))
            const rest = await callRest("svc_create_note", { markdown: "# x" }, { query: "toolsets=workspace" })
            const restTypo = await callRest("svc_nope", {}, { query: "toolsets=workspace" })
            expect(rest.status).toBe(404)
            expect((await jsonOf(rest)).message).toBe(
              ((await jsonOf(restTypo)).message as string).replace("svc_nope", "svc_create_note")
            )
            const readOnly = await callRest(
              "svc_create_note",
              { markdown: "# x" },
              { headers: { "x-mcp-readonly": "true" } }
            )
            expect(readOnly.status).toBe(404)
            const inside = await mcp(rpc("tools/call", { name: "svc_list_workspaces", arguments: {} }), narrowing)
            expect((await resultOf(inside)).structuredContent).toMatchObject({ ok: true })
            expect((await callRest("svc_list_workspaces", {}, narrowing)).status).toBe(200)
          })
      )
    })

    describe(`a key's default toolsets (${face})`, () => {
      it.effect(
        "serves the key's default toolsets when the request names none; a request narrows or replaces them",
        () =>
          withCaller(
            async ({ mcp, listRest, callRest, registry }) => {
              const defaults = namesWhere(registry, (tool) => ["workspace", "highlights"].includes(partOf(tool)))
              expect(await mcpNames(await mcp(rpc("tools/list")))).toEqual(defaults)
              expect(await restNames(await listRest())).toEqual(defaults)
              expect((await callRest("svc_create_note", { markdown: "# x" })).status).toBe(404)
              // Narrowed by the request.
              expect(
                await mcpNames(await mcp(rpc("tools/list"), { headers: { "x-mcp-toolsets": "highlights" } }))
              ).toEqual(namesWhere(registry, (tool) => partOf(tool) === "highlights"))
              // Read-only alone keeps the default toolsets.
              expect(await restNames(await listRest({ query: "readonly=true" }))).toEqual(defaults)
              // A default, not a ceiling: a request naming other toolsets is served them (within the grant).
              expect(await restNames(await listRest({ query: "toolsets=all" }))).toEqual(
                registry.map((tool) => tool.entry.name)
              )
              expect(
                (await callRest("svc_create_note", { markdown: "# x" }, { query: "toolsets=boards" })).status
              ).toBe(200)
            },
            { toolsets: ["workspace", "highlights"] }
          )
      )
    })

    describe(`instructions name only what is served (${face})`, () => {
      it.effect("describes the served groups alone, and only what they hold", () =>
        withCaller(async ({ mcp }) => {
          const full = await resultOf(await mcp(rpc("initialize", { protocolVersion: "2025-11-25", capabilities: {} })))
          const text = full.instructions as string
          expect(text).toContain("Workspace")
          expect(text).toContain("Boards & documents")
          expect(text).toContain("Highlights & captures")
          expect(text).toContain("Store (run your stores")
          expect(text).toContain("Custom AI (build")
          expect(text).toContain("Skills (")
          expect(text).toContain("Scheduling (schedule and publish posts")
          expect(text).toContain("Social intelligence (research creators, posts and ads")
          expect(text).toContain("cost AI credits")
          const narrowed = { headers: { "x-mcp-toolsets": "highlights" } }
          const discover = await resultOf(await mcp(rpc("server/discover", { _meta: stateless }), narrowed))
          const only = discover.instructions as string
          expect(only).toContain("Highlights & captures")
          expect(only).toContain("2 tools")
          expect(only).not.toContain("Workspace (")
          expect(only).not.toContain("Boards")
          expect(only).not.toContain("credit")
          const initialized = await resultOf(
            await mcp(rpc("initialize", { protocolVersion: "2025-11-25", capabilities: {} }), {
              headers: { "x-mcp-readonly": "true" }
            })
          )
          expect(initialized.instructions).toContain("all read-only")
          expect(initialized.instructions).not.toContain("Boards")
        })
      )
    })

    describe(`the 2026-07-28 results carry what that revision requires (${face})`, () => {
      it.effect(
        "server/discover and tools/list carry resultType, ttlMs and cacheScope private; tools/call resultType",
        () =>
          withCaller(async ({ mcp, registry }) => {
            const discover = await resultOf(await mcp(rpc("server/discover", { _meta: stateless })))
            expectCacheable(discover)
            expect(Array.isArray(discover.supportedVersions)).toBe(true)
            expect(typeof discover.capabilities).toBe("object")
            const headers = { "mcp-protocol-version": "2026-07-28" }
            for (const narrowing of [{ headers }, { headers: { ...headers, "x-mcp-toolsets": "workspace" } }]) {
              const list = await resultOf(await mcp(rpc("tools/list", { _meta: stateless }), narrowing))
              expectCacheable(list)
              const tools = list.tools as ReadonlyArray<{ name: unknown; inputSchema: { type: unknown } }>
              expect(tools.length).toBeGreaterThan(0)
              for (const tool of tools) {
                expect(typeof tool.name).toBe("string")
                expect(tool.inputSchema.type).toBe("object")
              }
            }
            // A gzip answer carries the same result (the fields are in the cached bytes, not added per request).
            const zipped = await mcp(rpc("tools/list", { _meta: stateless }), {
              headers: { ...headers, "accept-encoding": "gzip" }
            })
            // `fetch` inflates it; the web handler hands over the gzip bytes as sent.
            const bytes = new Uint8Array(await zipped.arrayBuffer())
            const text =
              bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString() : Buffer.from(bytes).toString()
            expectCacheable((JSON.parse(text) as { result: Record<string, unknown> }).result)
            const call = await resultOf(
              await mcp(rpc("tools/call", { name: "svc_list_workspaces", arguments: {}, _meta: stateless }), {
                headers
              })
            )
            expect(call.resultType).toBe("complete")
            expect(Array.isArray(call.content)).toBe(true)
            expect(call._meta).toMatchObject({ "io.modelcontextprotocol/serverInfo": { name: "svc" } })
            // The handshake revisions are unchanged: no caching fields there.
            const legacy = await resultOf(await mcp(rpc("tools/list")))
            expect(legacy).not.toHaveProperty("ttlMs")
            expect(legacy).not.toHaveProperty("resultType")
            expect((legacy.tools as ReadonlyArray<unknown>).length).toBe(registry.length)
          })
      )
    })
  }
})
