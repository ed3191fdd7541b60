/**
 * The size of the tool list an agent reads before its first call. Every entry of `tools/list` costs context in
 * every conversation, and the catalog grows to 113 tools: the average entry of the whole list, as `tools/list`
 * renders it (compact JSON), stays within budget. Every failure stays valid against every output schema.
 */
import { expect, layer } from "@effect/vitest"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { type ListedTool, ToolFailure, ToolRegistry, toolGroups } from "@svc/core/tools"
import { Effect, Schema } from "effect"
import { toMcpTool } from "../../src/http/mcp/tool-list.js"
import { testCoreLayer } from "../support/core.js"

/** Bytes of the average entry of the whole list and of its read-only part, at most (issue 23 §6, issue 37). */
const BUDGET = 1500

/**
 * Bytes of the average entry of one toolset, at most. The budget is the list's average, not each tool's (issue 37):
 * a toolset is asked for to read fewer bytes than the whole list, and one that holds the product tools, whose
 * typed product fields an agent must read to fill them, averages above the list. This ceiling keeps any toolset
 * from growing unnoticed.
 */
const TOOLSET_CEILING = 2500

const bytes = (value: unknown): number => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)))

const entrySizes = (listed: ListedTool) => {
  const tool = toMcpTool(listed.descriptor)
  return {
    name: tool.name,
    total: bytes(tool),
    inputSchema: bytes(tool.inputSchema),
    outputSchema: bytes(tool.outputSchema),
    description: bytes(tool.description),
    annotations: bytes(tool.annotations),
    _meta: bytes(tool._meta)
  }
}

/** The average entry of a list, and a report naming its largest entries with where their bytes go. */
const measure = (tools: ReadonlyArray<ListedTool>) => {
  const sizes = tools.map(entrySizes).sort((a, b) => b.total - a.total)
  const total = sizes.reduce((sum, size) => sum + size.total, 0)
  const average = Math.round(total / Math.max(1, sizes.length))
  const largest = sizes
    .slice(0, 5)
    .map(({ name, ...parts }) => `  ${name}: ${JSON.stringify(parts)}`)
    .join("\n")
  return { average, total, report: `${sizes.length} tools, ${total} bytes, ${average} per entry; largest:\n${largest}` }
}

layer(testCoreLayer(), { timeout: "60 seconds" })("the tool list an agent reads", (it) => {
  it.effect(
    `averages at most ${BUDGET} bytes per entry, with and without writes, and at most ${TOOLSET_CEILING} for each toolset`,
    () =>
      Effect.gen(function* () {
        const registry = yield* ToolRegistry
        const whole = measure(registry.tools)
        expect(whole.average, `tools/list is over budget: ${whole.report}`).toBeLessThanOrEqual(BUDGET)
        // Every selection a caller can ask for (`X-MCP-Toolsets` / `X-MCP-Readonly`) stays under the ceiling: a
        // toolset alone, and its read tools alone. A union of toolsets averages between its parts.
        const lines = [`every toolset: ${whole.report}`]
        const reads = measure(registry.tools.filter((listed) => !listed.entry.write))
        expect(reads.average, `read-only list over budget: ${reads.report}`).toBeLessThanOrEqual(BUDGET)
        for (const group of Object.keys(toolGroups)) {
          const tools = registry.tools.filter((listed) => listed.entry.group === group)
          if (tools.length === 0) continue
          const name = toolGroups[group as keyof typeof toolGroups].part
          const toolset = measure(tools)
          expect(toolset.average, `toolset ${name} over its ceiling: ${toolset.report}`).toBeLessThanOrEqual(
            TOOLSET_CEILING
          )
          const readTools = tools.filter((listed) => !listed.entry.write)
          const readOnly = measure(readTools)
          if (readTools.length > 0) {
            expect(
              readOnly.average,
              `toolset ${name}, read-only, over its ceiling: ${readOnly.report}`
            ).toBeLessThanOrEqual(TOOLSET_CEILING)
          }
          lines.push(
            `${name}: ${tools.length} tools, ${toolset.total} bytes (${toolset.average} each); ` +
              `read-only ${readTools.length} tools, ${readOnly.total} bytes`
          )
        }
        console.info(lines.join("\n"))
      })
  )

  it.effect("keeps every failure valid against every output schema, as the official SDK checks it", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      const validator = new AjvJsonSchemaValidator()
      const failures: ReadonlyArray<ToolFailure> = [
        { ok: false, status: "not-found", message: "No note note_x in this workspace." },
        { ok: false, status: "invalid", message: "Fix the input.", errors: [{ path: "markdown", message: "x" }] },
        { ok: false, status: "invalid", message: "Fix the input.", errors: [] }
      ]
      for (const failure of failures) expect(Schema.is(ToolFailure)(failure)).toBe(true)
      for (const { descriptor } of registry.tools) {
        const check = validator.getValidator(toMcpTool(descriptor).outputSchema)
        for (const failure of failures) expect(check(failure), descriptor.name).toMatchObject({ valid: true })
        expect(check({ ok: false, status: "invalid" }).valid, descriptor.name).toBe(false)
      }
    })
  )
})
