import { describe, expect, it } from "@effect/vitest"
import { toolGroups } from "../src/tools/groups.js"
import { specTools } from "../src/tools/spec-names.js"

describe("the service description's tool names", () => {
  it("holds 110 tools and 3 deprecated aliases, every name unique", () => {
    expect(specTools).toHaveLength(113)
    expect(new Set(specTools.map((e) => e.name)).size).toBe(113)
    const aliases = specTools.filter((e) => e.aliasOf !== undefined)
    expect(aliases.map((e) => [e.name, e.aliasOf])).toEqual([
      ["svc_read_card", "svc_read_social_post"],
      ["svc_create_sticky_note", "svc_create_note"],
      ["svc_create_scheduling_draft", "svc_schedule_post"]
    ])
  })

  it("points every alias at a tool of the same group and write flag", () => {
    for (const alias of specTools.filter((e) => e.aliasOf)) {
      const target = specTools.find((e) => e.name === alias.aliasOf)
      expect(target?.aliasOf).toBeUndefined()
      expect(target?.group).toBe(alias.group)
      expect(target?.write).toBe(alias.write)
    }
  })

  it("uses only the ten groups of the service description", () => {
    expect(new Set(specTools.map((e) => e.group))).toEqual(new Set(Object.keys(toolGroups)))
  })

  it("counts the spec's write tools per group", () => {
    const writes = (group: string) => specTools.filter((e) => e.group === group && e.write).length
    expect(writes("Boards & documents")).toBe(23)
    expect(writes("Store")).toBe(17)
    expect(writes("Workspace")).toBe(0)
  })
})
