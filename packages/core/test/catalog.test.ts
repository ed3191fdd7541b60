import { describe, expect, it } from "@effect/vitest"
import { catalog, toolGroups } from "../src/tools/catalog.js"

describe("the tool catalog", () => {
  it("holds 110 tools and 3 deprecated aliases, every name unique", () => {
    expect(catalog).toHaveLength(113)
    expect(new Set(catalog.map((e) => e.name)).size).toBe(113)
    const aliases = catalog.filter((e) => e.deprecated)
    expect(aliases.map((e) => [e.name, e.aliasOf])).toEqual([
      ["svc_read_card", "svc_read_social_post"],
      ["svc_create_sticky_note", "svc_create_note"],
      ["svc_create_scheduling_draft", "svc_schedule_post"]
    ])
  })

  it("points every alias at a tool of the same group and write flag", () => {
    for (const alias of catalog.filter((e) => e.aliasOf)) {
      const target = catalog.find((e) => e.name === alias.aliasOf)
      expect(target?.group).toBe(alias.group)
      expect(target?.write).toBe(alias.write)
    }
  })

  it("uses only the ten groups of the service description", () => {
    expect(new Set(catalog.map((e) => e.group))).toEqual(new Set(Object.keys(toolGroups)))
  })

  it("gives every entry a readable title", () => {
    expect(catalog.find((e) => e.name === "svc_ask_custom_ai")?.title).toBe("Ask custom AI")
    expect(catalog.find((e) => e.name === "svc_list_auto_dm_rules")?.title).toBe("List auto DM rules")
  })

  it("counts the spec's write tools per group", () => {
    const writes = (group: string) => catalog.filter((e) => e.group === group && e.write).length
    expect(writes("Boards & documents")).toBe(23)
    expect(writes("Store")).toBe(17)
    expect(writes("Workspace")).toBe(0)
  })
})
