/** The requests of each load case: the same bytes to every server that serves the case. */
import type { CaseName, ServerKind } from "./settings.js"

/** One HTTP request as the load generator sends it, and how to tell a good answer. */
export interface CaseRequest {
  readonly path: string
  readonly body: string
  readonly succeeded: (body: string) => boolean
}

/** What the requests need to know about the data. */
export interface CaseData {
  readonly noteId: string
}

const rpc = (method: string, params: object) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })

// A tool failure still answers 200 on MCP, so the body itself must say it went well.
const toolSucceeded = (body: string) => body.includes('"ok":true') && !body.includes('"isError":true')

/** The request of a case. */
export const caseRequest = (name: CaseName, data: CaseData): CaseRequest => {
  switch (name) {
    case "mcp-call":
      return {
        path: "/mcp",
        body: rpc("tools/call", { name: "svc_get_note_markdown", arguments: { noteId: data.noteId } }),
        succeeded: toolSucceeded
      }
    case "mcp-list":
      return {
        path: "/mcp",
        body: rpc("tools/list", {}),
        // A gzipped answer (ours, and the ceiling sending our bytes) is not gunzipped here: that would make the
        // load generator the bottleneck. It must start with gzip's magic byte; the bench decodes our answer in
        // full before the run, so its content is checked there.
        succeeded: (body) => body.includes('"tools":[{') || body.startsWith("\u001f")
      }
    case "rest-call":
      return {
        path: "/v1/tools/svc_get_note_markdown",
        body: JSON.stringify({ noteId: data.noteId }),
        succeeded: (body) => body.includes('"ok":true')
      }
    case "mcp-write":
      // Every call makes a new note (the server picks the id), so one body serves. (autocannon 8's `[<id>]`
      // replacement is avoided: it assumes 27-character ids and sends a wrong Content-Length with hyperid 3.)
      return {
        path: "/mcp",
        body: rpc("tools/call", {
          name: "svc_create_note",
          arguments: { markdown: "# Bench\n\nWritten by the benchmark." }
        }),
        succeeded: toolSucceeded
      }
  }
}

/** The headers of every request: a JSON-RPC POST as an MCP client sends it, with the bench key. */
export const requestHeaders = (token: string): Record<string, string> => ({
  "content-type": "application/json",
  // What Node's fetch (the official SDK's transport) sends unless told otherwise; a server may compress.
  "accept-encoding": "gzip, deflate",
  // The SDK's transport insists on both; ours needs only application/json.
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
  authorization: `Bearer ${token}`
})

/** Whether a server serves a case at all (the SDK has no REST form of tools; the bare read only reads). */
export const serves = (server: ServerKind, name: CaseName): boolean =>
  server === "reference"
    ? name !== "rest-call"
    : server === "bare-read"
      ? name === "mcp-call" || name === "rest-call"
      : true
