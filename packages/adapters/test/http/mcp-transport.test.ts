import { afterAll, describe, expect, it } from "@effect/vitest"
import { BASE, makeFakeHandler, tokens } from "./fakes.js"
import { errorOf, mcpPost, rpc } from "./requests.js"

const app = makeFakeHandler({ maxBodyBytes: 2048 })
afterAll(() => app.dispose())
const send = (request: Request) => app.handler(request)
const ping = rpc("ping")

describe("POST /mcp transport rules", () => {
  it("answers GET and DELETE with 405 and Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await send(
        new Request(`${BASE}/mcp`, { method, headers: { authorization: `Bearer ${tokens.full}` } })
      )
      expect(response.status).toBe(405)
      expect(response.headers.get("allow")).toBe("POST")
    }
  })

  it("refuses an Origin that is not allowed with 403, before looking at the token", async () => {
    const response = await send(mcpPost(BASE, ping, { headers: { origin: "https://evil.example" } }))
    expect(response.status).toBe(403)
  })

  it("lets through the public origin and local development origins on any port", async () => {
    for (const origin of [BASE, "http://localhost:6274", "http://127.0.0.1:3000"]) {
      const response = await send(mcpPost(BASE, ping, { token: tokens.full, headers: { origin } }))
      expect(response.status).toBe(200)
    }
  })

  it("needs application/json or */* in Accept (406), and takes a missing Accept as anything", async () => {
    expect(
      (await send(mcpPost(BASE, ping, { token: tokens.full, headers: { accept: "text/event-stream" } }))).status
    ).toBe(406)
    expect((await send(mcpPost(BASE, ping, { token: tokens.full, headers: { accept: "*/*" } }))).status).toBe(200)
    expect((await send(mcpPost(BASE, ping, { token: tokens.full, headers: { accept: undefined } }))).status).toBe(200)
  })

  it("needs Content-Type application/json (415)", async () => {
    expect(
      (await send(mcpPost(BASE, ping, { token: tokens.full, headers: { "content-type": "text/plain" } }))).status
    ).toBe(415)
    const charset = await send(
      mcpPost(BASE, ping, { token: tokens.full, headers: { "content-type": "application/json; charset=utf-8" } })
    )
    expect(charset.status).toBe(200)
  })

  it("refuses a body over the cap with 413, whether Content-Length announces it or not", async () => {
    const announced = await send(mcpPost(BASE, ping, { token: tokens.full, headers: { "content-length": "5000" } }))
    expect(announced.status).toBe(413)
    const big = { ...ping, params: { padding: "x".repeat(4096) } }
    const unannounced = await send(mcpPost(BASE, big, { token: tokens.full }))
    expect(unannounced.status).toBe(413)
  })

  it("refuses an unsupported MCP-Protocol-Version header with 400 and lists the versions it speaks", async () => {
    const response = await send(
      mcpPost(BASE, ping, { token: tokens.full, headers: { "mcp-protocol-version": "1999-01-01" } })
    )
    expect(response.status).toBe(400)
    const error = await errorOf(response)
    expect(error.code).toBe(-32004)
    expect(error.data).toMatchObject({
      requested: "1999-01-01",
      supported: expect.arrayContaining(["2025-11-25", "2026-07-28"])
    })
  })

  it("answers a missing or wrong bearer token with 401, the resource-metadata challenge and -32001", async () => {
    for (const token of [undefined, "not-a-token"]) {
      const response = await send(mcpPost(BASE, ping, { token }))
      expect(response.status).toBe(401)
      expect(response.headers.get("www-authenticate")).toBe(
        `Bearer realm="mcp", resource_metadata="${BASE}/.well-known/oauth-protected-resource"`
      )
      expect((await errorOf(response)).code).toBe(-32001)
    }
  })

  it("ignores a token in the query string and reads the Bearer scheme in any case", async () => {
    const inQuery = mcpPost(BASE, ping)
    const response = await send(new Request(`${BASE}/mcp?access_token=${tokens.full}`, inQuery))
    expect(response.status).toBe(401)
    const lowerCase = await send(mcpPost(BASE, ping, { headers: { authorization: `bearer ${tokens.full}` } }))
    expect(lowerCase.status).toBe(200)
  })

  it("answers a body that is not JSON with -32700 and HTTP 400", async () => {
    const response = await send(mcpPost(BASE, "{not json", { token: tokens.full }))
    expect(response.status).toBe(400)
    expect(await errorOf(response)).toMatchObject({ code: -32700 })
  })

  it("refuses batches and broken envelopes with -32600", async () => {
    const batch = await send(mcpPost(BASE, [ping, rpc("ping", undefined, 2)], { token: tokens.full }))
    expect(batch.status).toBe(400)
    expect((await errorOf(batch)).code).toBe(-32600)
    const noVersion = await send(mcpPost(BASE, { id: 7, method: "ping" }, { token: tokens.full }))
    expect(noVersion.status).toBe(400)
    expect(await noVersion.json()).toMatchObject({ id: 7, error: { code: -32600 } })
  })

  it("acknowledges notifications (and stray responses) with 202 and an empty body", async () => {
    for (const message of [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      { jsonrpc: "2.0", id: 3, result: {} }
    ]) {
      const response = await send(mcpPost(BASE, message, { token: tokens.full }))
      expect(response.status).toBe(202)
      expect(await response.text()).toBe("")
    }
  })

  it("answers JSON, never an event stream, and never issues a session id", async () => {
    const response = await send(
      mcpPost(
        BASE,
        rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }),
        {
          token: tokens.full
        }
      )
    )
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(response.headers.get("mcp-session-id")).toBeNull()
  })

  it("turns a defect into -32603 with a request id and no internals", async () => {
    const response = await send(
      mcpPost(BASE, rpc("tools/call", { name: "svc_list_tags", arguments: {} }), { token: tokens.full })
    )
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(text).not.toContain("secret stack detail")
    const { error } = JSON.parse(text) as { error: { code: number; message: string } }
    expect(error.code).toBe(-32603)
    expect(error.message).toMatch(/internal error \(request id [0-9a-f-]{36}\)/)
  })
})
