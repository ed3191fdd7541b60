/**
 * The reference: the official `@modelcontextprotocol/sdk` (1.x) stateless pattern, as its docs show it —
 * a low-level `Server` and a `WebStandardStreamableHTTPServerTransport` built per request (no session id
 * generator = stateless), one JSON Schema validator (Ajv) shared by all of them, and `@hono/node-server`'s
 * request listener (what the SDK's own Node transport wraps) in front. `enableJsonResponse` makes it answer
 * plain JSON like ours instead of an SSE stream.
 *
 * It lists the same tools as ours (their definitions are handed over in a file) and runs two of them on
 * the same engine as ours: `svc_get_note_markdown` reads one note row by id with the one-note form of our
 * repository's query, and `svc_create_note` inserts one. No authentication, no rate limit, no event log.
 * Run as its own process: `PORT=… REF_ENGINE=pglite|postgres REF_DATA_DIR|REF_DATABASE_URL=… REF_TOOLS=<file>
 * REF_NOTE=<json> node --import tsx reference.ts` (see note-table.ts).
 */
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { getRequestListener } from "@hono/node-server"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool
} from "@modelcontextprotocol/sdk/types.js"
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { NOTE_READ, noteOf, openDatabase, seedNotes } from "./note-table.js"

const db = await openDatabase()
const seed = await seedNotes(db)

type Answer = Record<string, unknown>

const runners: Record<string, (args: Record<string, unknown>) => Promise<Answer>> = {
  svc_get_note_markdown: async (args) => {
    const rows = await db.query(NOTE_READ, [args.noteId, seed.workspaceId])
    const row = rows[0]
    return row === undefined
      ? { ok: false, status: "not-found", message: `no note ${String(args.noteId)}` }
      : { ok: true, note: noteOf(row) }
  },
  svc_create_note: async (args) => {
    const markdown = String(args.markdown)
    const title = typeof args.title === "string" ? args.title : (markdown.split("\n")[0] ?? "").replace(/^#+\s*/, "")
    const rows = await db.query(
      `INSERT INTO reference_notes (id, workspace_id, type, title, body, created_at, updated_at)
       VALUES ($1, $2, 'note', $3, $4, now(), now()) RETURNING id, title, body, created_at, updated_at`,
      [`note_${randomBytes(10).toString("hex")}`, seed.workspaceId, title, markdown]
    )
    return { ok: true, note: noteOf(rows[0] ?? {}) }
  }
}

// Our tool definitions, and one validator per input schema, compiled once and shared by every request.
const tools = JSON.parse(readFileSync(process.env.REF_TOOLS ?? "", "utf8")) as ReadonlyArray<Tool>
const validator = new AjvJsonSchemaValidator()
const checks = new Map(tools.map((tool) => [tool.name, validator.getValidator(tool.inputSchema as JsonSchemaType)]))

const toolResult = (answer: Answer): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(answer) }],
  structuredContent: answer,
  ...(answer.ok === false ? { isError: true } : {})
})

const makeServer = () => {
  const server = new Server(
    { name: "svc-bench-reference", version: "1.0.0" },
    { capabilities: { tools: {} }, jsonSchemaValidator: validator }
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools] }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params
    const check = checks.get(name)
    const run = runners[name]
    if (check === undefined || run === undefined) throw new McpError(ErrorCode.InvalidParams, `no tool named ${name}`)
    const args = request.params.arguments ?? {}
    const checked = check(args)
    if (!checked.valid) {
      return toolResult({ ok: false, status: "invalid", message: checked.errorMessage ?? "invalid input" })
    }
    return toolResult(await run(args))
  })
  return server
}

const handle = async (request: Request): Promise<Response> => {
  if (new URL(request.url).pathname === "/health") return Response.json({ ok: true })
  // Stateless: a new server and transport per request, and no sessionIdGenerator (so no session id).
  const server = makeServer()
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request)
  } finally {
    void transport.close()
    void server.close()
  }
}

const http = createServer(getRequestListener(handle))
http.listen(Number(process.env.PORT), "127.0.0.1")
process.on("SIGTERM", () => {
  http.closeAllConnections()
  http.close(() => {
    void db.close().finally(() => process.exit(0))
  })
})
