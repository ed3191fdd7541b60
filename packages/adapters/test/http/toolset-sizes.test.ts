/**
 * The size of each toolset's `tools/list`, measured from the real list over MCP, and checked to be a partition of the
 * whole list (every tool in exactly one toolset). The table is printed; the README's table is generated from the
 * registry (`npm run generate`, scripts/toolset-table.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import { toolsetNames } from "@svc/core/tools"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { mcpPost, resultOf, rpc } from "./requests.js"

/** Tools and compact-JSON bytes of the `tools` of one `tools/list` answer. */
const sizeOf = async (response: Response) => {
  const tools = (await resultOf(response)).tools as ReadonlyArray<unknown>
  return {
    tools: tools.length,
    bytes: tools.reduce<number>((sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool)), 0)
  }
}

layer(TestApp.layer, { excludeTestServices: true, timeout: "60 seconds" })((it) => {
  describe("toolset sizes", () => {
    it.effect("each toolset's share of tools/list, read-only share included; together they are the whole list", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const { token } = yield* app.signUp()
        yield* Effect.promise(async () => {
          const list = (headers: Record<string, string>) =>
            fetch(mcpPost(app.url, rpc("tools/list"), { token, headers })).then(sizeOf)
          const whole = await list({})
          const rows: Array<string> = [
            "| Toolset | Tools | Bytes | Read-only tools | Read-only bytes |",
            "|---|---:|---:|---:|---:|"
          ]
          let tools = 0
          let bytes = 0
          for (const name of toolsetNames) {
            const all = await list({ "x-mcp-toolsets": name })
            const reads = await list({ "x-mcp-toolsets": name, "x-mcp-readonly": "true" })
            tools += all.tools
            bytes += all.bytes
            rows.push(`| \`${name}\` | ${all.tools} | ${all.bytes} | ${reads.tools} | ${reads.bytes} |`)
          }
          const reads = await list({ "x-mcp-readonly": "true" })
          rows.push(`| \`all\` | ${whole.tools} | ${whole.bytes} | ${reads.tools} | ${reads.bytes} |`)
          console.log(rows.join("\n"))
          expect(tools).toBe(whole.tools)
          // A toolset alone leaves out the sentences naming tools of other toolsets (served-names.test.ts), so its
          // share weighs at most what its tools weigh in the whole list.
          expect(bytes).toBeLessThanOrEqual(whole.bytes)
        })
      })
    )
  })
})
