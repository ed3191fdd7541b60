import { JSONSchema, type Schema } from "effect"

/** A JSON value. */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | JsonObject
/** A JSON object, such as a JSON Schema. */
export interface JsonObject {
  readonly [key: string]: Json
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * A JSON Schema 2020-12 document for a tool schema, shaped for agents: references to
 * shared definitions are written out in place (our tool schemas are not recursive), the
 * machine-made `title`s Effect adds (`maxLength(100)`) are dropped, since descriptions say more, and so is
 * the `required: []` of a record whose fields are all optional (it says nothing, in every tool list), and so are the
 * fixed `$id`s Effect gives unknown values. A tool
 * refuses unknown fields at every level of its input, so `additionalProperties: false` is said once, at the root,
 * rather than on each nested record: every entry of a tool list is read by an agent, and bytes there cost context.
 */
export const toolJsonSchema = (schema: Schema.Schema.Any): JsonObject => {
  const document = JSONSchema.make(schema, { target: "jsonSchema2020-12" }) as unknown as JsonObject
  const defs = isObject(document.$defs) ? document.$defs : {}
  // `root`: the node is the schema itself (or the definition it refers to), not a part of it.
  const clean = (node: Json, depth: number, root = false): Json => {
    if (depth > 64) throw new Error("tool schema is too deep or recursive")
    if (Array.isArray(node)) return node.map((item: Json) => clean(item, depth + 1))
    if (!isObject(node)) return node
    let out: Record<string, Json> = {}
    const ref = node.$ref
    if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
      const target = defs[ref.slice("#/$defs/".length)]
      if (isObject(target)) out = { ...(clean(target, depth + 1, root) as Record<string, Json>) }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/$defs/")) continue
      if (key === "$defs" || key === "$schema" || key === "title") continue
      // Effect marks `Schema.Unknown` and `Schema.Any` with a fixed `$id` (`/schemas/unknown`): two such values in one
      // document (two records of unknown values) are the same id twice, which JSON Schema forbids. `{}` says it all.
      if (key === "$id" && typeof value === "string" && value.startsWith("/schemas/")) continue
      if (key === "required" && Array.isArray(value) && value.length === 0) continue
      if (key === "additionalProperties" && value === false && !root) continue
      out[key] =
        (key === "properties" || key === "patternProperties") && isObject(value)
          ? cleanMap(value, depth + 1)
          : clean(value, depth + 1)
    }
    return out
  }
  // The keys of `properties` are field names, not keywords: a field called `title` must survive.
  const cleanMap = (map: JsonObject, depth: number): Json =>
    Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, clean(schema, depth)]))
  return clean(document, 0, true) as JsonObject
}
