import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { type ListedTool, outputOutline, type ToolDescriptor, toolFailureOutline, toolGroups } from "@svc/core/tools"
import { type GzipAnswers, makeGzipAnswers } from "./gzip-answers.js"
import { cacheableFields, META_SERVER_INFO, resultAnswer } from "./protocol.js"
import { serverInfo } from "./server-info.js"

/**
 * The MCP `outputSchema` of a tool: the outline of its answer (see core's output-outline.ts) beside the compact
 * failure branch. A failure is sent as `structuredContent` with `isError: true`, and clients (the official SDK
 * among them) check `structuredContent` against `outputSchema` even then, so the schema admits both shapes.
 * The outline's own `type: "object"` is said once, at the top.
 */
const mcpOutputSchema = (descriptor: ToolDescriptor) => {
  const { type: _object, ...success } = outputOutline(descriptor.outputSchema)
  return { type: "object" as const, anyOf: [success, toolFailureOutline] }
}

/**
 * The four hints, always spelled out. The specification's defaults (destructive, open-world) are the opposite of
 * most of our tools, and a client or reviewer reading the list should not have to know them to read a hint right.
 * The title is the tool's own `title`.
 */
const mcpAnnotations = ({
  readOnlyHint,
  destructiveHint,
  idempotentHint,
  openWorldHint
}: ToolDescriptor["annotations"]) => ({
  readOnlyHint,
  destructiveHint,
  idempotentHint,
  openWorldHint
})

type JsonNode = Record<string, unknown>

const isNode = (value: unknown): value is JsonNode =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * A nullable field (`anyOf: [member, { type: "null" }]`, as the schema generator writes `Schema.NullOr`) as one
 * node: `type: [<member's type>, "null"]` with the member's keywords, which apply only to values of its type, so null
 * still passes them. An `enum` is the exception (it would refuse null), so null joins it. Undefined when the union is
 * not that shape.
 */
const mergedNullable = (node: JsonNode): JsonNode | undefined => {
  const members = node.anyOf
  if (!Array.isArray(members) || members.length !== 2) return undefined
  const [member, none] = members
  if (!isNode(member) || !isNode(none) || none.type !== "null" || Object.keys(none).length !== 1) return undefined
  if (typeof member.type !== "string" || "const" in member || "anyOf" in member) return undefined
  const { anyOf: _anyOf, ...outer } = node
  return {
    ...member,
    ...outer,
    type: [member.type, "null"],
    ...(Array.isArray(member.enum) ? { enum: [...member.enum, null] } : {})
  }
}

// "Up to 200 characters." beside `maxLength: 200` says the same thing twice.
const withoutLengthProse = (description: string, maxLength: unknown) =>
  typeof maxLength === "number" ? description.replace(` Up to ${maxLength} characters.`, "") : description

/**
 * An input schema as the MCP list sends it: without `minLength: 1`, which says only "not empty" and, on nearly
 * every string, cost ~45 bytes an entry; without the descriptions of the members of a described `anyOf` (a
 * nullable field) or of the items of a described array, which the schema generator fills with its defaults ("a
 * string at most 50 character(s) long"): the field's own description says what they are; with a nullable field as
 * one node of two types; and without a description's "Up to N characters." where `maxLength` says it. The server
 * still checks every rule with a per-field `invalid`, and `GET /v1/tools` and OpenAPI keep the full schema.
 */
const compactInput = (schema: unknown, described = false): unknown => {
  if (Array.isArray(schema)) return schema.map((member) => compactInput(member, described))
  if (!isNode(schema)) return schema
  const node = mergedNullable(schema) ?? schema
  const own = "description" in node
  const compact: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === "minLength" && value === 1) continue
    if (key === "description" && described) continue
    compact[key] =
      key === "description" && typeof value === "string"
        ? withoutLengthProse(value, node.maxLength)
        : compactInput(value, own && (key === "anyOf" || key === "items"))
  }
  return compact
}

/**
 * A catalog descriptor as an MCP tool. Catalog extras travel under `_meta`: the toolset that serves the tool (the
 * name `X-MCP-Toolsets` takes) and, for a deprecated alias, the tool it calls; whether it writes is `readOnlyHint`.
 * Every byte here is repeated in every entry an agent reads: the budget test keeps the average entry in bounds.
 */
export const toMcpTool = (descriptor: ToolDescriptor) =>
  ({
    name: descriptor.name,
    title: descriptor.title,
    description: descriptor.description,
    inputSchema: { ...(compactInput(descriptor.inputSchema) as ToolDescriptor["inputSchema"]), type: "object" },
    outputSchema: mcpOutputSchema(descriptor),
    annotations: mcpAnnotations(descriptor.annotations),
    _meta: {
      "svc/toolset": toolGroups[descriptor.group].part,
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
    // The stateless revision marks every finished result with resultType "complete", requires the caching fields
    // on a list, and names the server in `_meta`.
    const list = encoded(
      utf8.encode(
        JSON.stringify(
          stateless
            ? { ...result, resultType: "complete", ...cacheableFields, _meta: { [META_SERVER_INFO]: serverInfo } }
            : result
        )
      )
    )
    entry[key] = list
    return list
  }
}
