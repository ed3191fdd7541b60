/**
 * `svc serve` behind a proxy that publishes it under a path (`PUBLIC_URL=https://svc.example/tools`): the addresses
 * it gives out carry the path, and it answers both a proxy that passes the path on and one that takes it off.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"

let server: RunningServer | undefined
let dispose = async () => {}

beforeAll(async () => {
  const database = await freshDatabase()
  dispose = database.dispose
  server = await startServer({ ...database.env, SVC_BOOTSTRAP: "false", PUBLIC_URL: "https://svc.example/tools/" })
}, 120_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await dispose()
})

const get = (path: string, init?: RequestInit) => fetch(`${server?.baseUrl ?? ""}${path}`, init)

describe("svc serve with a PUBLIC_URL that has a path", { timeout: 120_000 }, () => {
  it("answers under the path and without it, and sends MCP clients to metadata under the path", async () => {
    expect((await get("/tools/health")).status).toBe(200)
    expect((await get("/health")).status).toBe(200)
    expect(server?.output()).toContain("public URL https://svc.example/tools")

    const unauthorized = await get("/tools/mcp?probe=1", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}"
    })
    expect(unauthorized.status).toBe(401)
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(unauthorized.headers.get("www-authenticate") ?? "")?.[1]
    expect(metadataUrl).toBe("https://svc.example/tools/.well-known/oauth-protected-resource")

    // The resource's metadata where each proxy style delivers it, and in the path-inserted form (RFC 9728).
    for (const path of [
      "/tools/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource/tools/mcp"
    ]) {
      const resource = await get(path)
      expect(resource.status, path).toBe(200)
      expect(await resource.json()).toMatchObject({
        resource: "https://svc.example/tools/mcp",
        authorization_servers: ["https://svc.example/tools"]
      })
    }
    // The authorization server's metadata, where clients look for an issuer with a path (RFC 8414) too.
    for (const path of [
      "/.well-known/oauth-authorization-server/tools",
      "/tools/.well-known/oauth-authorization-server"
    ]) {
      const metadata = await get(path)
      expect(metadata.status, path).toBe(200)
      expect(await metadata.json()).toMatchObject({
        issuer: "https://svc.example/tools",
        token_endpoint: "https://svc.example/tools/oauth/token"
      })
    }
    // The store API's answers under the path keep their query.
    const store = await get("/tools/store-app/v1/products?limit=5")
    expect(store.status).toBe(401)
    expect(await store.json()).toMatchObject({ ok: false, error: "unauthorized" })
  })
})
