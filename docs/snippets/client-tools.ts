// docs/client.md, "Tools": calling the tools with the typed client.
import { createToolClient, ToolCallError } from "@svc/client"

const client = createToolClient({
  baseUrl: "http://127.0.0.1:8787",
  token: process.env.SVC_TOKEN ?? "",
  transport: "rest", // or "mcp": the same methods, answers and errors
  timeoutMs: 10_000,
  retry: { attempts: 2, maxDelayMs: 65_000 }
})

// One method per tool, named as the tool; the input and the answer are typed from the tool's schemas.
const created = await client.svc_create_note({ markdown: "# Plan\n\nShip the client." })
const read = await client.svc_get_note_markdown({ noteId: created.note.id })
console.log(read.note.title) // "Plan"

// A name chosen at run time goes through `call`.
const workspaces = await client.call("svc_list_workspaces")
console.log(workspaces.workspaces.length)

// Every failure is one error class; `status` says what to do.
try {
  await client.svc_get_note_markdown({ noteId: "note_missing" }, { signal: AbortSignal.timeout(5_000) })
} catch (error) {
  if (!(error instanceof ToolCallError)) throw error // SvcTimeoutError, SvcConnectionError, an abort reason
  if (error.status === "invalid") for (const field of error.errors) console.error(field.path, field.message)
  else console.error(error.tool, error.status, error.message)
}
