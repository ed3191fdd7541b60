/**
 * The compact form of a tool's answer schema that `tools/list` sends as `outputSchema`.
 *
 * An agent reads the whole tool list before its first call, so every byte of it costs context in every
 * conversation: the full answer schemas (field prose, nested records written out, each with the failure branch)
 * were 62 % of the list. The outline keeps what a client needs to check an answer's shape and an agent needs to
 * expect one: the answer's own fields, their types and values, and which are always there. Records and lists of
 * records inside it are `object` and `array` (the tool's description names what they hold, and the answer shows
 * it); prose and `additionalProperties` are dropped. It is looser than the full schema, never stricter: every
 * answer that passes the full schema passes its outline.
 */
import type { Json, JsonObject } from "./json-schema.js"

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// A node that only holds a type (`{ type: "string" }`): a union of them is one `type` list.
const typesOf = (node: JsonObject): ReadonlyArray<Json> | undefined => {
  const keys = Object.keys(node)
  if (keys.length !== 1 || keys[0] !== "type") return undefined
  return Array.isArray(node.type) ? node.type : [node.type as Json]
}

/** A field's type: its literal value, its enum, or its JSON type; a list of plain values keeps its item type. */
const fieldOutline = (node: Json): JsonObject => {
  if (!isObject(node)) return {}
  // A single-valued literal (`ok: true`) reads best as its value.
  if (Array.isArray(node.enum) && node.enum.length === 1) return { const: node.enum[0] as Json }
  if (Array.isArray(node.anyOf)) {
    const members = node.anyOf.map(fieldOutline)
    const types = members.map(typesOf)
    if (types.every((list) => list !== undefined)) return { type: [...new Set(types.flat())] }
    return { anyOf: members }
  }
  const out: Record<string, Json> = {}
  if (node.type !== undefined) out.type = node.type
  if (Array.isArray(node.enum)) out.enum = node.enum
  if (node.type === "array" && isObject(node.items) && node.items.type !== "object") {
    out.items = fieldOutline(node.items)
  }
  return out
}

/** The outline of an answer's JSON Schema (an object, as `toolJsonSchema` makes it): see the module comment. */
export const outputOutline = (schema: JsonObject): JsonObject => {
  const properties = isObject(schema.properties) ? schema.properties : {}
  return {
    type: "object",
    ...(Array.isArray(schema.required) && schema.required.length > 0 ? { required: schema.required } : {}),
    properties: Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, fieldOutline(field)]))
  }
}
