import { Context } from "effect"
import { type Access, allows } from "../auth/access.js"
import { type CatalogEntry, catalog, catalogByName, type ToolGroup, toolGroups } from "./catalog.js"
import { toolJsonSchema } from "./json-schema.js"
import type { Tool } from "./tool.js"

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

/** A callable catalog entry: its descriptor and the tool that runs (the target, for an alias). */
export interface ListedTool {
  readonly entry: CatalogEntry
  readonly tool: Tool
  readonly descriptor: ToolDescriptor
}

/** The tools this build serves, computed once at start-up in catalog order. */
export interface ToolRegistryShape {
  readonly tools: ReadonlyArray<ListedTool>
  readonly find: (name: string) => ListedTool | undefined
  /** The tools a credential with `access` may use; the same array for equal grants. */
  readonly visibleTo: (access: Access) => ReadonlyArray<ListedTool>
  /** Catalog names with no working tool yet. */
  readonly missing: ReadonlyArray<string>
}

export class ToolRegistry extends Context.Tag("svc/tools/ToolRegistry")<ToolRegistry, ToolRegistryShape>() {}

/** Whether a grant lets a caller use a catalog entry at all (reads need read, writes need edit). */
export const canUse = (access: Access, entry: CatalogEntry): boolean =>
  allows(access, toolGroups[entry.group].part, entry.write ? "edit" : "read")

/** Builds the registry; throws at start-up when a tool does not match its catalog entry. */
export const makeToolRegistry = (implemented: ReadonlyArray<Tool>): ToolRegistryShape => {
  const byName = new Map<string, Tool>()
  for (const tool of implemented) {
    const entry = catalogByName.get(tool.name)
    if (!entry || entry.aliasOf) throw new Error(`tool ${tool.name} is not a tool of the catalog`)
    if (byName.has(tool.name)) throw new Error(`tool ${tool.name} is defined twice`)
    if (tool.hints.destructive && !entry.write) throw new Error(`read-only tool ${tool.name} cannot be destructive`)
    byName.set(tool.name, tool)
  }
  const tools: Array<ListedTool> = []
  for (const entry of catalog) {
    const tool = byName.get(entry.aliasOf ?? entry.name)
    if (!tool) continue
    const description = entry.aliasOf
      ? `Deprecated: use ${entry.aliasOf}, which this name calls. ${tool.description}`
      : tool.description
    tools.push({
      entry,
      tool,
      descriptor: {
        name: entry.name,
        title: entry.title,
        description,
        group: entry.group,
        write: entry.write,
        ...(entry.deprecated ? { deprecated: true as const } : {}),
        ...(entry.aliasOf ? { aliasOf: entry.aliasOf } : {}),
        inputSchema: toolJsonSchema(tool.inputSchema),
        outputSchema: toolJsonSchema(tool.outputSchema),
        annotations: {
          title: entry.title,
          readOnlyHint: !entry.write,
          destructiveHint: tool.hints.destructive,
          idempotentHint: tool.hints.idempotent,
          openWorldHint: tool.hints.openWorld
        }
      }
    })
  }
  const index = new Map(tools.map((listed) => [listed.entry.name, listed]))
  const visible = new Map<string, ReadonlyArray<ListedTool>>()
  return {
    tools,
    find: (name) => index.get(name),
    visibleTo: (access) => {
      const key = JSON.stringify(access)
      let list = visible.get(key)
      if (!list) {
        list = tools.filter((listed) => canUse(access, listed.entry))
        // Grants are few (full, read-only, a handful of custom mixes); the bound keeps a hostile variety from growing it.
        if (visible.size < 1000) visible.set(key, list)
      }
      return list
    },
    missing: catalog.filter((entry) => !index.has(entry.name)).map((entry) => entry.name)
  }
}
