import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { describe, expect, it } from "@effect/vitest"
import { engineName, svc } from "./support/environment.js"
import { useServer } from "./support/server-fixture.js"
import { startServer } from "./support/server-process.js"

const fixture = useServer()

const bootstrapKey = (output: string) => /svc_pat_[0-9A-Za-z]{36}/.exec(output)?.[0]

const mcpClient = async (baseUrl: string, token: string) => {
  const client = new Client({ name: "server-test", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } }
    })
  )
  return client
}

describe(`svc serve on ${engineName}`, { timeout: 120_000 }, () => {
  it("prints the URLs and a working key once on an empty database", async () => {
    const output = fixture.server.output()
    expect(output).toContain(`${fixture.server.baseUrl}/mcp`)
    expect(output).toContain("owner@demo.svc.local")
    const token = bootstrapKey(output)
    expect(token).toBeDefined()
    const health = await fetch(`${fixture.server.baseUrl}/health`)
    expect(await health.json()).toEqual({ ok: true, mode: "stateless" })
  })

  it("serves an MCP client and REST with the same key, and keeps the data across a clean restart", async () => {
    const baseUrl = fixture.server.baseUrl
    const token = bootstrapKey(fixture.server.output()) ?? ""
    const client = await mcpClient(baseUrl, token)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toContain("svc_create_note")
    const created = await client.callTool({
      name: "svc_create_note",
      arguments: { markdown: "# Kept\n\nacross restarts" }
    })
    const note = (created.structuredContent as { note: { id: string } }).note
    await client.close()

    const rest = await fetch(`${baseUrl}/v1/tools/svc_get_note_markdown`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ noteId: note.id })
    })
    expect(rest.status).toBe(200)
    expect(await rest.json()).toMatchObject({ ok: true, note: { id: note.id, title: "Kept" } })

    // Beside the running server: on the embedded engine the command goes to the server over its admin socket
    // (the directory is the server's alone), on PostgreSQL it opens the database itself.
    const listed = await svc(["keys", "list", "--email", "owner@demo.svc.local"], fixture.env)
    expect(listed).toMatchObject({ code: 0, stderr: "" })
    expect(listed.stdout).toMatch(/^key_\w+ {2}svc_pat_\w+…/m)

    expect(await fixture.server.stop()).toBe(0)
    fixture.server = await startServer(fixture.env)
    expect(bootstrapKey(fixture.server.output())).toBeUndefined()
    const again = await fetch(`${fixture.server.baseUrl}/v1/tools/svc_get_note_markdown`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ noteId: note.id })
    })
    expect(await again.json()).toMatchObject({ ok: true, note: { markdown: "# Kept\n\nacross restarts" } })
  })
})
