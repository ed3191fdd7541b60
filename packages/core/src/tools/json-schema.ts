import { JSONSchema, type Schema } from "effect"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const isObject = (value: Json | undefined): value is { readonly [key: string]: Json } =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * A JSON Schema 2020-12 document for a tool schema, shaped for agents: references to
 * shared definitions are written out in place (our tool schemas are not recursive), and the
 * machine-made `title`s Effect adds (`maxLength(100)`) are dropped, since descriptions say more.
 */
export const toolJsonSchema = (schema: Schema.Schema.Any): { readonly [key: string]: Json } => {
  const root = JSONSchema.make(schema, { target: "jsonSchema2020-12" }) as unknown as { readonly [key: string]: Json }
  const defs = isObject(root.$defs) ? root.$defs : {}
  const clean = (node: Json, depth: number): Json => {
    if (depth > 64) throw new Error("tool schema is too deep or recursive")
    if (Array.isArray(node)) return node.map((item: Json) => clean(item, depth + 1))
    if (!isObject(node)) return node
    let out: Record<string, Json> = {}
    const ref = node.$ref
    if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
      const target = defs[ref.slice("#/$defs/".length)]
      if (isObject(target)) out = { ...(clean(target, depth + 1) as Record<string, Json>) }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/$defs/")) continue
      if (key === "$defs" || key === "$schema" || key === "title") continue
      out[key] =
        (key === "properties" || key === "patternProperties") && isObject(value)
          ? cleanMap(value, depth + 1)
          : clean(value, depth + 1)
    }
    return out
  }
  // The keys of `properties` are field names, not keywords: a field called `title` must survive.
  const cleanMap = (map: { readonly [key: string]: Json }, depth: number): Json =>
    Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, clean(schema, depth)]))
  return clean(root, 0) as { readonly [key: string]: Json }
}
