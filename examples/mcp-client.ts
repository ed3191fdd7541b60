/**
 * An agent's view: connect to a running svc server with the official MCP SDK client, list the
 * tools, write a note and read it back.
 *
 *   SVC_URL=http://127.0.0.1:8787 SVC_KEY=svc_pat_… npx tsx examples/mcp-client.ts
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

const url = process.env.SVC_URL ?? "http://127.0.0.1:8787"
const key = process.env.SVC_KEY
if (!key) throw new Error("set SVC_KEY to an API key (npm start prints one; or npx svc keys create --email …)")

const client = new Client({ name: "svc-example", version: "1.0.0" })
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } }
  })
)

const { tools } = await client.listTools()
console.log(`${tools.length} tools:`, tools.map((tool) => tool.name).join(", "))

const created = await client.callTool({
  name: "svc_create_note",
  arguments: { markdown: "# Ideas\n\n- a course on pricing" }
})
const { note } = created.structuredContent as { note: { id: string } }
const read = await client.callTool({ name: "svc_get_note_markdown", arguments: { noteId: note.id } })
console.log(JSON.stringify(read.structuredContent, null, 2))
await client.close()
