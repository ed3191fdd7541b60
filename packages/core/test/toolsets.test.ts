import { describe, expect, it } from "@effect/vitest"
import { fullAccess, readOnlyAccess } from "../src/auth/access.js"
import {
  defineTool,
  makeToolRegistry,
  parseDefaultToolsets,
  resolveToolSelection,
  SELECTIONS_KEPT,
  selectedToolsets,
  type ToolSelection,
  type ToolSelectionRequest,
  toolsetNames
} from "../src/tools/index.js"
import { Effect, Either } from "effect"

const none: ToolSelectionRequest = {
  toolsetsHeader: undefined,
  toolsetsQuery: undefined,
  readOnlyHeader: undefined,
  readOnlyQuery: undefined
}

const resolved = (request: Partial<ToolSelectionRequest>, keyDefault?: ReadonlyArray<"workspace" | "boards">) =>
  resolveToolSelection({ ...none, ...request }, keyDefault)

const selection = (request: Partial<ToolSelectionRequest>, keyDefault?: ReadonlyArray<"workspace" | "boards">) => {
  const answer = resolved(request, keyDefault)
  if (Either.isLeft(answer)) throw new Error(answer.left.message)
  return answer.right
}

const refusal = (request: Partial<ToolSelectionRequest>) => {
  const answer = resolved(request)
  if (Either.isRight(answer)) throw new Error("expected a refusal")
  return answer.left
}

// Two tools of the service description, one read and one write, in different groups.
const tools = [
  defineTool({
    name: "svc_list_workspaces",
    title: "List workspaces",
    group: "Workspace",
    write: false,
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    description: "Lists workspaces.",
    input: {},
    output: {},
    handler: () => Effect.succeed({})
  }),
  defineTool({
    name: "svc_create_board",
    title: "Create board",
    group: "Boards & documents",
    write: true,
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    description: "Creates a board.",
    input: {},
    output: {},
    handler: () => Effect.succeed({})
  })
]

describe("toolset selections", () => {
  it("costs nothing when nothing narrows: no header, no query, no key default, or all and false", () => {
    expect(selection({})).toBeUndefined()
    expect(selection({ toolsetsHeader: "all", readOnlyQuery: "false" })).toBeUndefined()
    expect(selection({ toolsetsHeader: "  " })).toBeUndefined()
  })

  it("reads names case-insensitively with spaces trimmed, and gives equal selections one object", () => {
    const one = selection({ toolsetsHeader: " Workspace , BOARDS " }) as ToolSelection
    const two = selection({ toolsetsQuery: "boards,workspace,boards" }) as ToolSelection
    expect(one).toBe(two)
    expect(selectedToolsets(one)).toEqual(["workspace", "boards"])
    expect(one.readOnly).toBe(false)
  })

  it("lets the header and the query agree, and refuses them when they differ", () => {
    expect(selection({ toolsetsHeader: "workspace", toolsetsQuery: "WORKSPACE" })?.key).toBe("workspace")
    expect(refusal({ toolsetsHeader: "workspace", toolsetsQuery: "boards" }).message).toContain("disagree")
    expect(refusal({ readOnlyHeader: "true", readOnlyQuery: "false" }).message).toContain("disagree")
  })

  it("refuses an unknown name listing the valid ones, and a read-only flag that is not true or false", () => {
    const unknown = refusal({ toolsetsHeader: "workspace,bords" })
    expect(unknown.message).toContain('"bords"')
    expect(unknown.validToolsets).toContain("custom_ai")
    expect(unknown.validToolsets).toContain("all")
    expect(refusal({ readOnlyQuery: "yes" }).message).toContain("readonly")
  })

  it("serves the key's default toolsets when the request names none, and the request's toolsets otherwise", () => {
    expect(selection({}, ["boards"])?.key).toBe("boards")
    expect(selection({ readOnlyHeader: "true" }, ["boards"])?.key).toBe("boards;readonly")
    expect(selection({ toolsetsHeader: "workspace" }, ["boards"])?.key).toBe("workspace")
    expect(selection({ toolsetsHeader: "all" }, ["boards"])).toBeUndefined()
  })

  it("parses a key's default toolsets into catalog order, with all (or nothing) as every group", () => {
    expect(parseDefaultToolsets(["store, Workspace", "boards"])).toEqual(Either.right(["workspace", "boards", "store"]))
    expect(parseDefaultToolsets(["all"])).toEqual(Either.right(null))
    expect(parseDefaultToolsets([])).toEqual(Either.right(null))
    expect(Either.isLeft(parseDefaultToolsets(["nope"]))).toBe(true)
  })

  it("has the registry hand out one array per grant and selection, so an encoded list is reused", () => {
    const registry = makeToolRegistry(tools)
    const workspace = selection({ toolsetsHeader: "workspace" })
    const names = (list: ReadonlyArray<{ readonly entry: { readonly name: string } }>) => list.map((t) => t.entry.name)
    expect(registry.servedTo({ kind: "full" }, undefined)).toBe(registry.visibleTo({ kind: "full" }))
    expect(registry.servedTo({ kind: "full" }, workspace)).toBe(
      registry.servedTo({ kind: "full" }, selection({ toolsetsQuery: "WORKSPACE" }))
    )
    expect(names(registry.servedTo({ kind: "full" }, workspace))).toEqual(["svc_list_workspaces"])
    expect(names(registry.servedTo({ kind: "full" }, selection({ readOnlyHeader: "true" })))).toEqual([
      "svc_list_workspaces"
    ])
    // The grant stays the ceiling: a read-only grant is never served the board tool, whatever the toolsets.
    expect(names(registry.servedTo(readOnlyAccess, selection({ toolsetsHeader: "boards" })))).toEqual([])
  })
})

describe("the lists served per toolset selection", () => {
  it("are kept for the most recently served selections only, however many mixes callers name", () => {
    const registry = makeToolRegistry(tools)
    // Every mix of toolsets, read-only and not: thousands of selections, each a list the faces keep an encoding of.
    const mixes = Array.from({ length: 2 ** toolsetNames.length }, (_, mask) =>
      toolsetNames.filter((_, bit) => (mask & (1 << bit)) !== 0).join(",")
    ).filter((mix) => mix !== "")
    const selections = mixes.flatMap((mix) => [
      selection({ toolsetsHeader: mix }) as ToolSelection,
      selection({ toolsetsHeader: mix, readOnlyHeader: "true" }) as ToolSelection
    ])
    expect(selections.length).toBeGreaterThan(SELECTIONS_KEPT * 10)
    const first = registry.servedTo(fullAccess, selections[0])
    // Served again while kept: the same list, so its encoded answer is reused.
    expect(registry.servedTo(fullAccess, selections[0])).toBe(first)
    for (const each of selections) registry.servedTo(fullAccess, each)
    const last = selections.at(-1) as ToolSelection
    expect(registry.servedTo(fullAccess, last)).toBe(registry.servedTo(fullAccess, last))
    // The first was let go long ago: a new list, equal to the old one.
    const again = registry.servedTo(fullAccess, selections[0])
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })
})
