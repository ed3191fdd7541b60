import { afterAll, describe, expect, it } from "@effect/vitest"
import { BASE, makeFakeHandler } from "./fakes.js"

const app = makeFakeHandler()
afterAll(() => app.dispose())

describe("health and protected-resource metadata", () => {
  it("reports a stateless server on /health", async () => {
    const response = await app.handler(new Request(`${BASE}/health`))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true, mode: "stateless" })
  })

  it.each(["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"])(
    "serves the RFC 9728 document at %s to any origin",
    async (path) => {
      const response = await app.handler(new Request(`${BASE}${path}`, { headers: { origin: "https://claude.ai" } }))
      expect(response.status).toBe(200)
      expect(response.headers.get("access-control-allow-origin")).toBe("*")
      expect(await response.json()).toEqual({
        resource: `${BASE}/mcp`,
        authorization_servers: [BASE],
        bearer_methods_supported: ["header"],
        scopes_supported: ["read", "write"],
        resource_name: "svc"
      })
    }
  )

  it("answers a CORS preflight that asks for the mcp-protocol-version header", async () => {
    const response = await app.handler(
      new Request(`${BASE}/.well-known/oauth-protected-resource`, {
        method: "OPTIONS",
        headers: { origin: "https://claude.ai", "access-control-request-headers": "mcp-protocol-version" }
      })
    )
    expect(response.status).toBe(204)
    expect(response.headers.get("access-control-allow-origin")).toBe("*")
    expect(response.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version")
  })
})
