import type { ListedTool, ToolDescriptor } from "@svc/core/tools"

/** A tool as `GET /v1/tools` lists it: the catalog entry with both JSON Schemas. */
export const toListedToolJson = (tool: ToolDescriptor) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  group: tool.group,
  write: tool.write,
  ...(tool.deprecated ? { deprecated: true } : {}),
  ...(tool.aliasOf ? { aliasOf: tool.aliasOf } : {}),
  annotations: tool.annotations,
  inputSchema: tool.inputSchema,
  outputSchema: tool.outputSchema
})

/** JSON Schema of one `GET /v1/tools` entry, for the OpenAPI document. */
export const listedToolJsonSchema = {
  type: "object",
  required: ["name", "title", "description", "group", "write", "annotations", "inputSchema", "outputSchema"],
  properties: {
    name: { type: "string", description: "The tool name, as in POST /v1/tools/<name> and MCP tools/call." },
    title: { type: "string" },
    description: { type: "string" },
    group: { type: "string", description: "The catalog group, e.g. Boards & documents." },
    write: { type: "boolean", description: "True when the tool changes data (needs edit access)." },
    deprecated: { type: "boolean", enum: [true], description: "Present on retired names kept as aliases." },
    aliasOf: { type: "string", description: "For a retired name: the tool it calls." },
    annotations: { type: "object", description: "MCP tool annotations (readOnlyHint, destructiveHint, …)." },
    inputSchema: { type: "object", description: "JSON Schema (2020-12) of the request body." },
    outputSchema: { type: "object", description: "JSON Schema (2020-12) of the 200 answer." }
  }
} as const

/**
 * The `GET /v1/tools` body, encoded once per distinct tool list: the registry hands out the same
 * array for equal grants, so a repeat listing is a lookup.
 */
export const makeToolListingEncoder = () => {
  const cache = new WeakMap<ReadonlyArray<ListedTool>, string>()
  return (tools: ReadonlyArray<ListedTool>): string => {
    const cached = cache.get(tools)
    if (cached !== undefined) return cached
    const encoded = JSON.stringify({ ok: true, tools: tools.map((listed) => toListedToolJson(listed.descriptor)) })
    cache.set(tools, encoded)
    return encoded
  }
}
