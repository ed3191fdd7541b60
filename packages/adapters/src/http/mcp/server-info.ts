import type { Implementation, ServerCapabilities } from "@modelcontextprotocol/sdk/types.js"
import { TOOL_CALLS_PER_MINUTE } from "@svc/core/limits"
import { type ListedTool, type ToolGroup, toolGroups } from "@svc/core/tools"

/** Who answers, as `initialize` and `server/discover` name it. */
export const serverInfo = { name: "svc", version: "1.0.0" } as const satisfies Implementation

/** Tools only; the list never changes while a server runs, so there is nothing to subscribe to. */
export const serverCapabilities = { tools: { listChanged: false } } as const satisfies ServerCapabilities

// What each group's served tools let an agent do, in a few words; only the groups a caller is served are named,
// so the text never promises what the caller cannot call (or what the server does not implement).
const groupWork: Record<ToolGroup, { readonly read: string; readonly write: string }> = {
  Workspace: {
    read: "list, find, search and read the items of your workspaces (notes, boards, tables, media cards, tags, chats)",
    write: "list, find, search and read the items of your workspaces"
  },
  "Highlights & captures": {
    read: "search your saved highlights and captures",
    write: "search your saved highlights and captures"
  },
  "Social intelligence": {
    read: "research creators, posts and ads on the configured networks and in your saved posts",
    write:
      "research creators, posts and ads on the configured networks and in your saved posts, and keep lists of creators and brands"
  },
  "Boards & documents": {
    read: "read boards and documents",
    write: "create and edit boards, notes and tables, and save links, posts, ads and media to them"
  },
  Scheduling: {
    read: "read your posting schedule, your scheduled and published posts, their analytics, auto-DM rules and licensed music",
    write:
      "schedule and publish posts to your own feed, Bluesky and Mastodon, upload their media, connect accounts, read their analytics and set auto-DM rules"
  },
  Routines: {
    read: "list your routines and their latest runs",
    write: "schedule prompts to your Custom AIs (routines), pause and change them"
  },
  Media: { read: "study top carousels", write: "study top carousels" },
  "Custom AI": {
    read: "read your Custom AI assistants and their knowledge, and their answers",
    write: "build, update and ask your Custom AI assistants"
  },
  Skills: { read: "list, read and export skills", write: "list, export and import skills" },
  Store: {
    read: "read your stores: seller overview, products, bundles and customers",
    write:
      "run your stores: products and bundles, customers and their access, imports, cohorts, content links and sales"
  }
}

const groupOrder = Object.keys(toolGroups) as ReadonlyArray<ToolGroup>

// The groups with tools that cost AI credits (research, asking a Custom AI, and routines, whose runs ask one).
const paidGroups: ReadonlyArray<ToolGroup> = ["Social intelligence", "Custom AI", "Routines"]

/**
 * What an agent reads first (`initialize` and `server/discover`): what the tools it is served are for and how
 * they behave, made from that very list, so it names only groups the caller is served.
 */
export const serverInstructions = (tools: ReadonlyArray<ListedTool>): string => {
  const listsWorkspaces = tools.some((listed) => listed.entry.name === "svc_list_workspaces")
  const served = new Map<ToolGroup, { writes: boolean }>()
  for (const { entry } of tools) {
    const group = served.get(entry.group)
    if (group === undefined) served.set(entry.group, { writes: entry.write })
    else if (entry.write) group.writes = true
  }
  const anyWrites = [...served.values()].some((group) => group.writes)
  const gated = groupOrder.filter((group) => served.has(group) && toolGroups[group].plan !== "free")
  const lines =
    served.size === 0
      ? [
          "svc is the tool server of a creator's workspace. This connection is served no tools: its credential or the",
          "toolsets it asked for (X-MCP-Toolsets, X-MCP-Readonly) leave none. Ask for other toolsets or another key."
        ]
      : [
          `svc is the tool server of a creator's workspace. This connection is served ${tools.length} tools, named svc_*,`,
          `${anyWrites ? "" : "all read-only, "}in these groups:`,
          `${groupOrder
            .filter((group) => served.has(group))
            .map((group) => `${group} (${served.get(group)?.writes ? groupWork[group].write : groupWork[group].read})`)
            .join("; ")}.`,
          "tools/list shows each with an input and output JSON Schema.",
          `Every tool takes an optional workspaceId${listsWorkspaces ? " (from svc_list_workspaces)" : ""}; leave it out to use your default workspace.`,
          "Answers give times in UTC (ISO 8601); write times in UTC or with an offset (only posting slots are local times, in the schedule's time zone).",
          "A tool answers { ok: true, ... } on success. When it cannot do the job it answers a result with isError true and",
          "{ ok: false, status, message, errors? }: on invalid, fix the fields named in errors and never resend the same",
          "input; on auth-expired, reconnect; on conflict, forbidden, not-found, unreachable or missing-workspace, tell the user.",
          "Lists are paged: pass the nextCursor of one page as cursor to read the next; it is absent on the last page.",
          ...(gated.length === 0 ? [] : [`${gated.join(" and ")} tools need the Starter plan or above.`]),
          ...(paidGroups.some((group) => served.has(group))
            ? [
                `Some tools cost AI credits, as their descriptions say${listsWorkspaces ? "; svc_list_workspaces shows the balance" : ""}.`
              ]
            : []),
          `A credential may make ${TOOL_CALLS_PER_MINUTE} tool calls a minute.`
        ]
  return lines.join(" ")
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const

/**
 * The instructions with the date and time they are given at, so an agent writes "tomorrow" right before its first
 * call. The rest of the text is the same for a served list and kept; this line is made per `initialize` or
 * `server/discover`, and says it is the time of that answer (a client may keep it for a whole session).
 */
export const instructionsAt = (instructions: string, nowMillis: number): string => {
  const now = new Date(nowMillis)
  const date = now.toISOString().slice(0, 10)
  const time = now.toISOString().slice(11, 16)
  return `${instructions} When this was sent it was ${WEEKDAYS[now.getUTCDay()]} ${date}, ${time} UTC.`
}
