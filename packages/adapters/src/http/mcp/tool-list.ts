import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { type ListedTool, type ToolDescriptor, toolFailureJsonSchema } from "@svc/core/tools"
import { type GzipAnswers, makeGzipAnswers } from "./gzip-answers.js"
import { resultAnswer } from "./protocol.js"

/**
 * The MCP `outputSchema` of a tool. A failure is sent as `structuredContent` with `isError: true`, and
 * clients (the official SDK among them) check `structuredContent` against `outputSchema` even then, so
 * the schema admits the failure shape beside the success shape.
 */
const mcpOutputSchema = (descriptor: ToolDescriptor) => ({
  type: "object" as const,
  anyOf: [descriptor.outputSchema, toolFailureJsonSchema]
})

/** A catalog descriptor as an MCP tool; catalog extras travel under `_meta`. */
export const toMcpTool = (descriptor: ToolDescriptor) =>
  ({
    name: descriptor.name,
    title: descriptor.title,
    description: descriptor.description,
    inputSchema: { ...descriptor.inputSchema, type: "object" },
    outputSchema: mcpOutputSchema(descriptor),
    annotations: descriptor.annotations,
    _meta: {
      "svc/group": descriptor.group,
      "svc/write": descriptor.write,
      ...(descriptor.deprecated ? { "svc/deprecated": true } : {}),
      ...(descriptor.aliasOf ? { "svc/aliasOf": descriptor.aliasOf } : {})
    }
  }) satisfies Tool

/** A `tools/list` result, encoded once: its UTF-8 JSON, and its answers compressed for clients that take gzip. */
export interface EncodedToolList {
  readonly json: Uint8Array
  /** The whole JSON-RPC answer carrying `json`, as gzip (see gzip-answers.ts). */
  readonly gzipAnswer: GzipAnswers
}

interface EncodedLists {
  handshake?: EncodedToolList
  stateless?: EncodedToolList
}

const encoded = (json: Uint8Array): EncodedToolList => ({
  json,
  gzipAnswer: makeGzipAnswers((id) => Buffer.concat(resultAnswer(id, json)))
})

/**
 * The `tools/list` result as UTF-8 JSON bytes, encoded once per distinct tool list. The registry hands
 * out the same array for equal grants, so keying on the array makes a repeat `tools/list` free of JSON and
 * UTF-8 work (the list is the largest answer we send).
 */
export const makeToolListEncoder = () => {
  const cache = new WeakMap<ReadonlyArray<ListedTool>, EncodedLists>()
  const utf8 = new TextEncoder()
  return (tools: ReadonlyArray<ListedTool>, stateless: boolean): EncodedToolList => {
    let entry = cache.get(tools)
    if (entry === undefined) {
      entry = {}
      cache.set(tools, entry)
    }
    const key = stateless ? "stateless" : "handshake"
    const cached = entry[key]
    if (cached !== undefined) return cached
    const result = { tools: tools.map((listed) => toMcpTool(listed.descriptor)) }
    // The stateless revision marks every finished result with resultType "complete".
    const list = encoded(utf8.encode(JSON.stringify(stateless ? { ...result, resultType: "complete" } : result)))
    entry[key] = list
    return list
  }
}
