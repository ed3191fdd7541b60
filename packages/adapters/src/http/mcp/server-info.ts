import type { Implementation, ServerCapabilities } from "@modelcontextprotocol/sdk/types.js"
import { TOOL_CALLS_PER_MINUTE } from "@svc/core/limits"

/** Who answers, as `initialize` and `server/discover` name it. */
export const serverInfo = { name: "svc", version: "1.0.0" } as const satisfies Implementation

/** Tools only; the list never changes while a server runs, so there is nothing to subscribe to. */
export const serverCapabilities = { tools: { listChanged: false } } as const satisfies ServerCapabilities

/** What an agent reads first: what the server is for and how its tools behave. */
export const serverInstructions = [
  "svc is the tool server of a creator's workspace: notes, boards and tables, social research, scheduled posts,",
  "routines, Custom AI assistants, skills and a store. Every tool is named svc_*; tools/list shows the ones",
  "your credential may use, with an input and output JSON Schema each.",
  "Every tool takes an optional workspaceId (from svc_list_workspaces); leave it out to use your default workspace.",
  "A tool answers { ok: true, ... } on success. When it cannot do the job it answers a result with isError true and",
  "{ ok: false, status, message, errors? }: on invalid, fix the fields named in errors and never resend the same",
  "input; on auth-expired, reconnect; on conflict, forbidden, not-found, unreachable or missing-workspace, tell the user.",
  "Lists are paged: pass the nextCursor of one page as cursor to read the next; it is absent on the last page.",
  "Research calls cost 0.1 to 0.5 AI credits and each Custom AI message 1 credit (2 with mode max); reading and",
  `changing your own workspace is free. A credential may make ${TOOL_CALLS_PER_MINUTE} tool calls a minute.`
].join(" ")
