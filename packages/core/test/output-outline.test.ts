import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { toolJsonSchema } from "../src/tools/json-schema.js"
import { outputOutline } from "../src/tools/output-outline.js"

const Answer = Schema.Struct({
  ok: Schema.Literal(true).annotations({ description: "Always true on success." }),
  note: Schema.Struct({
    id: Schema.String.annotations({ description: "Note id." }),
    tags: Schema.Array(Schema.String)
  }).annotations({ description: "The note." }),
  rows: Schema.Array(Schema.Struct({ id: Schema.String })).annotations({ description: "Rows." }),
  ids: Schema.Array(Schema.String).annotations({ description: "Ids." }),
  kind: Schema.Literal("note", "link").annotations({ description: "Kind." }),
  url: Schema.NullOr(Schema.String).annotations({ description: "Address, or null." }),
  nextCursor: Schema.optional(Schema.String.annotations({ description: "The next page." }))
})

describe("the outline of an answer's schema", () => {
  it("keeps the answer's own fields, types, values and required names, and no prose or nested fields", () => {
    expect(outputOutline(toolJsonSchema(Answer))).toEqual({
      type: "object",
      required: ["ok", "note", "rows", "ids", "kind", "url"],
      properties: {
        ok: { const: true },
        note: { type: "object" },
        rows: { type: "array" },
        ids: { type: "array", items: { type: "string" } },
        kind: { type: "string", enum: ["note", "link"] },
        url: { type: ["string", "null"] },
        nextCursor: { type: "string" }
      }
    })
  })

  it("leaves out additionalProperties below the root of a tool schema, and empty required lists", () => {
    const input = toolJsonSchema(
      Schema.Struct({ entry: Schema.optional(Schema.Struct({ name: Schema.optional(Schema.String) })) })
    )
    expect(input).toEqual({
      type: "object",
      properties: { entry: { type: "object", properties: { name: { type: "string" } } } },
      additionalProperties: false
    })
    // A class is written as a reference to its definition: its own record is still the root.
    class Entry extends Schema.Class<Entry>("Entry")({ name: Schema.String }) {}
    expect(toolJsonSchema(Entry)).toMatchObject({ required: ["name"], additionalProperties: false })
  })
})
