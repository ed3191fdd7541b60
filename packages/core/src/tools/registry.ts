import { Context, Effect, Layer } from "effect"
import { type Access, allows } from "../auth/access.js"
import { type ToolGroup, toolGroups } from "./groups.js"
import { toolJsonSchema } from "./json-schema.js"
import { schemaWithoutUnservedReferences, withoutUnservedReferences } from "./served-references.js"
import { specTools, specToolsByName } from "./spec-names.js"
import type { Tool, ToolAlias } from "./tool.js"
import { selects, type ToolSelection } from "./toolsets.js"

/** A tool as `tools/list` and `GET /v1/tools` show it. */
export interface ToolDescriptor {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly group: ToolGroup
  readonly write: boolean
  readonly deprecated?: true
  readonly aliasOf?: string
  readonly inputSchema: ReturnType<typeof toolJsonSchema>
  readonly outputSchema: ReturnType<typeof toolJsonSchema>
  readonly annotations: {
    readonly title: string
    readonly readOnlyHint: boolean
    readonly destructiveHint: boolean
    readonly idempotentHint: boolean
    readonly openWorldHint: boolean
  }
}

/** A name the registry serves: a tool's own, or a deprecated alias of it. */
export interface ToolEntry {
  readonly name: string
  readonly title: string
  readonly group: ToolGroup
  readonly write: boolean
  readonly deprecated?: true
  /** For a deprecated alias: the tool it calls. */
  readonly aliasOf?: string
}

/** A served name with its descriptor and the tool that runs (the target, for an alias). */
export interface ListedTool {
  readonly entry: ToolEntry
  readonly tool: Tool
  readonly descriptor: ToolDescriptor
}

/** The tools a server serves, computed once at start-up in the service description's order. */
export interface ToolRegistryShape {
  readonly tools: ReadonlyArray<ListedTool>
  readonly find: (name: string) => ListedTool | undefined
  /** The tools a credential with `access` may use; the same array for equal grants. */
  readonly visibleTo: (access: Access) => ReadonlyArray<ListedTool>
  /**
   * The tools a credential with `access` is served under a request's toolset selection (every tool it may use when
   * `undefined`); the same array for equal grants and selections.
   */
  readonly servedTo: (access: Access, selection: ToolSelection | undefined) => ReadonlyArray<ListedTool>
  /** Names of the service description this registry does not serve. */
  readonly missing: ReadonlyArray<string>
}

/** The tools of one area, built from its services. */
export type Toolset<R = never> = Effect.Effect<ReadonlyArray<Tool>, never, R>

/** Whether a grant lets a caller use a tool at all (reads need read, writes need edit). */
export const canUse = (access: Access, tool: { readonly group: ToolGroup; readonly write: boolean }): boolean =>
  allows(access, toolGroups[tool.group].part, tool.write ? "edit" : "read")

const refuse = (message: string): never => {
  throw new Error(`${message} (see packages/core/src/tools/spec-names.ts)`)
}

// Each tool must be one of the service description, in its group and with its write flag; each alias one of
// the deprecated names the description gives that tool. A mismatch stops the server from starting.
const checkAgainstSpec = (tool: Tool): void => {
  const spec = specToolsByName.get(tool.name)
  if (spec === undefined || spec.aliasOf !== undefined)
    refuse(`tool ${tool.name} is not a tool of the service description`)
  else if (spec.group !== tool.group)
    refuse(`tool ${tool.name} is in ${tool.group}; the service description puts it in ${spec.group}`)
  else if (spec.write !== tool.write)
    refuse(`tool ${tool.name} says write: ${tool.write}; the service description says ${spec.write}`)
  if (tool.annotations.destructiveHint && !tool.write) refuse(`read-only tool ${tool.name} cannot be destructive`)
  for (const alias of tool.aliases) {
    if (specToolsByName.get(alias.name)?.aliasOf !== tool.name) {
      refuse(`${alias.name} is not a deprecated alias of ${tool.name} in the service description`)
    }
  }
}

const describe = (entry: ToolEntry, tool: Tool): ToolDescriptor => ({
  name: entry.name,
  title: entry.title,
  // An alias repeats none of its tool's description: an agent reads that once, under the name to use.
  description: entry.aliasOf
    ? `Deprecated name of ${entry.aliasOf}: the same input and answer. Call ${entry.aliasOf} instead.`
    : tool.description,
  group: entry.group,
  write: entry.write,
  ...(entry.deprecated ? { deprecated: true as const } : {}),
  ...(entry.aliasOf ? { aliasOf: entry.aliasOf } : {}),
  inputSchema: toolJsonSchema(tool.inputSchema),
  outputSchema: toolJsonSchema(tool.outputSchema),
  annotations: {
    title: entry.title,
    readOnlyHint: !entry.write,
    destructiveHint: tool.annotations.destructiveHint,
    idempotentHint: tool.annotations.idempotentHint,
    openWorldHint: tool.annotations.openWorldHint
  }
})

/** A list as it is served: each tool's texts name only tools of the list (see served-references.ts). */
const servedList = (listed: ReadonlyArray<ListedTool>): ReadonlyArray<ListedTool> => {
  const names = new Set(listed.map((tool) => tool.entry.name))
  return listed.map((tool) => {
    const { descriptor } = tool
    const description = withoutUnservedReferences(descriptor.description, names)
    const inputSchema = schemaWithoutUnservedReferences(descriptor.inputSchema, names)
    const outputSchema = schemaWithoutUnservedReferences(descriptor.outputSchema, names)
    return description === descriptor.description &&
      inputSchema === descriptor.inputSchema &&
      outputSchema === descriptor.outputSchema
      ? tool
      : { ...tool, descriptor: { ...descriptor, description, inputSchema, outputSchema } }
  })
}

/** How many toolset selections a grant's served lists are kept for (most recently served first). */
export const SELECTIONS_KEPT = 64

/** Builds the registry; throws at start-up when a tool disagrees with the service description or comes twice. */
export const makeToolRegistry = (implemented: ReadonlyArray<Tool>): ToolRegistryShape => {
  const served = new Map<string, { readonly tool: Tool; readonly alias?: ToolAlias }>()
  for (const tool of implemented) {
    checkAgainstSpec(tool)
    for (const name of [tool.name, ...tool.aliases.map((alias) => alias.name)]) {
      if (served.has(name)) refuse(`tool ${name} is defined twice`)
    }
    served.set(tool.name, { tool })
    for (const alias of tool.aliases) served.set(alias.name, { tool, alias })
  }
  const built: Array<ListedTool> = []
  for (const spec of specTools) {
    const found = served.get(spec.name)
    if (found === undefined) continue
    const { tool, alias } = found
    const entry: ToolEntry = alias
      ? {
          name: alias.name,
          title: alias.title,
          group: tool.group,
          write: tool.write,
          deprecated: true,
          aliasOf: tool.name
        }
      : { name: tool.name, title: tool.title, group: tool.group, write: tool.write }
    built.push({ entry, tool, descriptor: describe(entry, tool) })
  }
  // The catalog's own texts name no tool this server lacks, as each narrower list's name none outside it.
  const tools = servedList(built)
  const index = new Map(tools.map((listed) => [listed.entry.name, listed]))
  const visible = new Map<string, ReadonlyArray<ListedTool>>()
  const visibleTo = (access: Access): ReadonlyArray<ListedTool> => {
    const key = JSON.stringify(access)
    let list = visible.get(key)
    if (!list) {
      list = servedList(tools.filter((listed) => canUse(access, listed.entry)))
      // Grants are few (full, read-only, a handful of custom mixes); the bound keeps a hostile variety from growing it.
      if (visible.size < 1000) visible.set(key, list)
    }
    return list
  }
  // Keyed by the grant's list (one array per grant), then by the selection's key, at most SELECTIONS_KEPT of them.
  const bySelections = new WeakMap<ReadonlyArray<ListedTool>, Map<string, ReadonlyArray<ListedTool>>>()
  return {
    tools,
    find: (name) => index.get(name),
    visibleTo,
    servedTo: (access, selection) => {
      const allowed = visibleTo(access)
      if (selection === undefined) return allowed
      let bySelection = bySelections.get(allowed)
      if (bySelection === undefined) {
        bySelection = new Map()
        bySelections.set(allowed, bySelection)
      }
      let list = bySelection.get(selection.key)
      if (list === undefined) {
        list = servedList(allowed.filter((listed) => selects(selection, listed.entry)))
        // The faces keep each list's encoded answer for as long as the list is kept here (tens of kilobytes), and
        // a caller may name any of thousands of toolset mixes: only the most recently served ones are kept.
        if (bySelection.size >= SELECTIONS_KEPT) {
          const oldest = bySelection.keys().next()
          if (oldest.done !== true) bySelection.delete(oldest.value)
        }
      } else {
        // Re-inserted, so the map's order stays least recently served first.
        bySelection.delete(selection.key)
      }
      bySelection.set(selection.key, list)
      return list
    },
    missing: specTools.filter((spec) => !index.has(spec.name)).map((spec) => spec.name)
  }
}

/** The tools a server serves. Which areas' tools those are is decided where the server is composed. */
export class ToolRegistry extends Context.Tag("svc/tools/ToolRegistry")<ToolRegistry, ToolRegistryShape>() {
  /** The registry of the tools `toolsets` build, checked against the service description once, at start-up. */
  static readonly layer = <const Sets extends ReadonlyArray<Toolset<unknown>>>(
    toolsets: Sets
  ): Layer.Layer<ToolRegistry, never, Effect.Effect.Context<Sets[number]>> =>
    // `Effect.all` cannot name the union of the toolsets' services; the signature does.
    Layer.effect(
      ToolRegistry,
      Effect.map(Effect.all(toolsets as ReadonlyArray<Toolset<unknown>>), (sets) => makeToolRegistry(sets.flat()))
    ) as Layer.Layer<ToolRegistry, never, Effect.Effect.Context<Sets[number]>>
}
