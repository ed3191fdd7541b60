/**
 * An agent reads tool names in the texts it is served (descriptions, field descriptions, the MCP `instructions`)
 * and calls them. A name it is not served answers "no tool named …" and wastes a turn, so no text served to a
 * caller names a `svc_*` tool outside what that caller is served: for the whole catalog, for each toolset with and
 * without its writes, and for every mix of per-toolset levels a key's grant or a selection can give.
 */
import { describe, expect, layer } from "@effect/vitest"
import type { Access, Level, Part } from "@svc/core/auth"
import { type ListedTool, specToolsByName, ToolRegistry, toolGroups } from "@svc/core/tools"
import { Effect } from "effect"
import { serverInstructions } from "../../src/http/mcp/server-info.js"
import { toMcpTool } from "../../src/http/mcp/tool-list.js"
import { testCoreLayer } from "../support/core.js"

// `svc_` words that are not tools: API key and token prefixes, the own checkout's sale source.
const NOT_TOOLS = new Set(["svc_pat_", "svc_checkout"])

const namesIn = (text: string): ReadonlyArray<string> => text.match(/\bsvc_[a-z0-9_]+/g) ?? []

/** Every text of a tool an agent reads: the `tools/list` entry and the full schemas `GET /v1/tools` serves. */
const textsOf = ({ descriptor }: ListedTool): string =>
  JSON.stringify([toMcpTool(descriptor), descriptor.inputSchema, descriptor.outputSchema])

/** The names `text` uses that `served` does not hold, each once; also any `svc_` word that is no tool at all. */
const strangers = (text: string, served: ReadonlyArray<ListedTool>): ReadonlyArray<string> => {
  const names = new Set(served.map((listed) => listed.entry.name))
  return [...new Set(namesIn(text))].filter(
    (name) => !names.has(name) && (specToolsByName.has(name) || !NOT_TOOLS.has(name))
  )
}

/** The descriptions in a schema that say nothing: what leaving out a field's only sentence would make. */
const emptyDescriptions = (schema: unknown, path: string): ReadonlyArray<string> => {
  if (typeof schema !== "object" || schema === null) return []
  return Object.entries(schema).flatMap(([key, value]) =>
    key === "description" && typeof value === "string"
      ? value.trim() === ""
        ? [path]
        : []
      : emptyDescriptions(value, `${path}.${key}`)
  )
}

const parts = Object.values(toolGroups).map((group) => group.part)
const custom = (levels: Partial<Record<Part, Level>>): Access => ({ kind: "custom", parts: levels })

layer(testCoreLayer(), { timeout: "60 seconds" })("tool names in served texts", (it) => {
  describe("tool descriptions and field descriptions", () => {
    it.effect("name only tools served with them, in the smallest set a tool is ever served in, and still say", () =>
      Effect.gen(function* () {
        const registry = yield* ToolRegistry
        const found: Array<string> = []
        const check = (label: string, served: ReadonlyArray<ListedTool>) => {
          for (const listed of served) {
            const unserved = strangers(textsOf(listed), served)
            if (unserved.length > 0) found.push(`${label}: ${listed.entry.name} names ${unserved.join(", ")}`)
            // A text loses only its sentences naming unserved tools, never all it says.
            const { descriptor } = listed
            if (descriptor.description.length < 60) found.push(`${label}: ${listed.entry.name} is left undescribed`)
            for (const empty of emptyDescriptions([descriptor.inputSchema, descriptor.outputSchema], "")) {
              found.push(`${label}: ${listed.entry.name} has an empty description at ${empty}`)
            }
          }
        }
        check("all", registry.servedTo({ kind: "full" }, undefined))
        check("all, read-only", registry.servedTo(custom(Object.fromEntries(parts.map((p) => [p, "read"]))), undefined))
        // Any served set is a union of per-toolset levels, so a text true in each toolset alone (read, or edit)
        // is true in every mix.
        for (const part of parts) {
          check(part, registry.servedTo(custom({ [part]: "edit" }), undefined))
          check(`${part}, read-only`, registry.servedTo(custom({ [part]: "read" }), undefined))
        }
        expect(found).toEqual([])
      })
    )
  })

  describe("the MCP instructions", () => {
    it.effect("name only served tools, for every pair of toolsets at every pair of levels", () =>
      Effect.gen(function* () {
        const registry = yield* ToolRegistry
        const built = parts.filter((part) => registry.tools.some((t) => toolGroups[t.entry.group].part === part))
        const found: Array<string> = []
        const levels: ReadonlyArray<Level> = ["off", "read", "edit"]
        // Every pair of parts at every pair of levels, the other parts all off, all read or all edit: the text of a
        // group names its own tools and at most one tool of another group (svc_list_workspaces), so a name could only
        // be left unserved by two parts together. All 3^n mixes took over a minute once research had tools.
        const mixes: Array<Partial<Record<Part, Level>>> = []
        for (const rest of levels) {
          for (const [i, first] of built.entries()) {
            for (const second of built.slice(i + 1)) {
              for (const a of levels) {
                for (const b of levels) {
                  mixes.push({ ...Object.fromEntries(built.map((part) => [part, rest])), [first]: a, [second]: b })
                }
              }
            }
          }
        }
        for (const grant of mixes) {
          const served = registry.servedTo(custom(grant), undefined)
          const unserved = strangers(serverInstructions(served), served)
          if (unserved.length > 0) found.push(`${JSON.stringify(grant)}: ${unserved.join(", ")}`)
        }
        expect(found.slice(0, 10)).toEqual([])
      })
    )
  })
})
