import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeToolRegistry } from "../src/tools/registry.js"
import { defineTool, type ToolSpec } from "../src/tools/tool.js"

// A well-formed declaration of a real tool of the service description; each test breaks one thing of it.
const createNote: ToolSpec<{}, {}> = {
  name: "svc_create_note",
  title: "Create note",
  group: "Boards & documents",
  write: true,
  aliases: [{ name: "svc_create_sticky_note", title: "Create sticky note" }],
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  description: "Create a note (test double).",
  input: {},
  output: {},
  handler: () => Effect.succeed({})
}

const listWorkspaces: ToolSpec<{}, {}> = {
  ...createNote,
  name: "svc_list_workspaces",
  title: "List workspaces",
  group: "Workspace",
  write: false,
  aliases: []
}

describe("the tool registry, built at start-up", () => {
  it("serves declared tools and their declared aliases in the service description's order", () => {
    const registry = makeToolRegistry([defineTool(createNote), defineTool(listWorkspaces)])
    expect(registry.tools.map((listed) => listed.entry.name)).toEqual([
      "svc_list_workspaces",
      "svc_create_note",
      "svc_create_sticky_note"
    ])
    expect(registry.find("svc_create_sticky_note")?.descriptor).toMatchObject({
      title: "Create sticky note",
      deprecated: true,
      aliasOf: "svc_create_note",
      annotations: { title: "Create sticky note", readOnlyHint: false }
    })
    expect(registry.find("svc_list_workspaces")?.descriptor.annotations.readOnlyHint).toBe(true)
    expect(registry.missing).toHaveLength(113 - 3)
    expect(registry.missing).not.toContain("svc_create_sticky_note")
  })

  it("refuses a tool that is not in the service description", () => {
    expect(() => makeToolRegistry([defineTool({ ...createNote, name: "svc_make_coffee", aliases: [] })])).toThrow(
      "tool svc_make_coffee is not a tool of the service description"
    )
  })

  it("refuses a tool declared under a deprecated alias's name", () => {
    expect(() =>
      makeToolRegistry([defineTool({ ...createNote, name: "svc_create_sticky_note", aliases: [] })])
    ).toThrow("tool svc_create_sticky_note is not a tool of the service description")
  })

  it("refuses a tool in another group than the service description's", () => {
    expect(() => makeToolRegistry([defineTool({ ...createNote, group: "Workspace" })])).toThrow(
      "tool svc_create_note is in Workspace; the service description puts it in Boards & documents"
    )
  })

  it("refuses a tool whose write flag differs from the service description's", () => {
    expect(() => makeToolRegistry([defineTool({ ...listWorkspaces, write: true })])).toThrow(
      "tool svc_list_workspaces says write: true; the service description says false"
    )
  })

  it("refuses an alias the service description does not give that tool", () => {
    expect(() =>
      makeToolRegistry([defineTool({ ...createNote, aliases: [{ name: "svc_read_card", title: "Read card" }] })])
    ).toThrow("svc_read_card is not a deprecated alias of svc_create_note in the service description")
  })

  it("refuses a tool defined twice", () => {
    expect(() => makeToolRegistry([defineTool(listWorkspaces), defineTool(listWorkspaces)])).toThrow(
      "tool svc_list_workspaces is defined twice"
    )
  })

  it("refuses a read-only tool that says it is destructive", () => {
    const destructive = { ...listWorkspaces.annotations, destructiveHint: true }
    expect(() => makeToolRegistry([defineTool({ ...listWorkspaces, annotations: destructive })])).toThrow(
      "read-only tool svc_list_workspaces cannot be destructive"
    )
  })
})
