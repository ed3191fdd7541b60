/**
 * The bare read: plain `node:http` answering `svc_get_note_markdown` (MCP `tools/call` on `/mcp`, and the REST form)
 * by parsing the JSON body and reading the note with our query, prepared on PostgreSQL, on the same engine as ours.
 * No authentication, no input validation, no framework: the least a server can do and still answer from the
 * database, so its figure is the floor under the other servers' and shows how far a server that reads a row can
 * get toward the ceiling on this machine. Not a target; for scale. Run as its own process by the bench:
 * `PORT=… REF_ENGINE=… REF_DATA_DIR|REF_DATABASE_URL=… REF_NOTE=<json> node --import tsx bare-read.ts`.
 */
import { createServer, type ServerResponse } from "node:http"
import { type Database, NOTE_READ, noteOf, openDatabase, seedNotes } from "./note-table.js"

const db: Database = await openDatabase()
const seed = await seedNotes(db)

const send = (response: ServerResponse, status: number, text: string) => {
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

const readNote = async (noteId: unknown): Promise<string> => {
  const rows = await db.query(NOTE_READ, [noteId, seed.workspaceId], "bare_note_read")
  const row = rows[0]
  return JSON.stringify(row === undefined ? { ok: false, status: "not-found" } : { ok: true, note: noteOf(row) })
}

const answer = async (url: string, body: string): Promise<readonly [number, string]> => {
  if (url === "/health") return [200, '{"ok":true}']
  const message = JSON.parse(body) as { id?: unknown; params?: { arguments?: { noteId?: unknown } }; noteId?: unknown }
  if (url.startsWith("/v1/tools/")) return [200, await readNote(message.noteId)]
  const text = await readNote(message.params?.arguments?.noteId)
  const result = `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`
  return [200, `{"jsonrpc":"2.0","id":${JSON.stringify(message.id ?? null)},"result":${result}}`]
}

const server = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    answer(request.url ?? "", Buffer.concat(chunks).toString("utf8")).then(
      ([status, text]) => send(response, status, text),
      (error: unknown) => send(response, 500, JSON.stringify({ ok: false, message: String(error) }))
    )
  })
})
server.listen(Number(process.env.PORT), "127.0.0.1")
process.on("SIGTERM", () => {
  server.closeAllConnections()
  server.close(() => {
    void db.close().finally(() => process.exit(0))
  })
})
