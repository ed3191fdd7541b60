import { describe, expect, layer } from "@effect/vitest"
import { specTools, ToolRegistry } from "@svc/core/tools"
import { Effect } from "effect"
import { testCoreLayer } from "../support/core.js"

type Node = { readonly [key: string]: unknown }

const isDescribed = (node: Node): boolean =>
  (typeof node.description === "string" && node.description.length >= 10) ||
  // A nullable field (`anyOf: [member, null]`) is described by its member: the schema generator puts it there.
  (Array.isArray(node.anyOf) && node.anyOf.some((member) => isDescribed(member as Node)))

/**
 * The properties, down to `depth` levels, that do not say what they are. Every input property at any depth must:
 * agents read these descriptions to fill the input. An answer's own fields must too; the records inside them may be
 * the store API's rows, typed by that API's schemas and described in its OpenAPI document (which stays as it is),
 * and `tools/list` sends an answer's outline without prose anyway.
 */
const undescribed = (schema: Node, path: string, depth = Number.POSITIVE_INFINITY): Array<string> => {
  const out: Array<string> = []
  if (depth <= 0) return out
  const properties = (schema.properties ?? {}) as Record<string, Node>
  for (const [name, property] of Object.entries(properties)) {
    if (!isDescribed(property)) out.push(`${path}${name}`)
    out.push(...undescribed(property, `${path}${name}.`, depth - 1))
    if (typeof property.items === "object" && property.items !== null) {
      out.push(...undescribed(property.items as Node, `${path}${name}[].`, depth - 1))
    }
  }
  return out
}

layer(testCoreLayer(), { timeout: "60 seconds" })("tool contracts", (it) => {
  it.effect("pin each tool's name, annotations and input schema (change a snapshot only on purpose)", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      for (const { descriptor } of registry.tools) {
        const contract = {
          name: descriptor.name,
          title: descriptor.title,
          group: descriptor.group,
          write: descriptor.write,
          deprecated: descriptor.deprecated ?? false,
          aliasOf: descriptor.aliasOf ?? null,
          annotations: descriptor.annotations,
          inputSchema: descriptor.inputSchema
        }
        yield* Effect.promise(() =>
          expect(`${JSON.stringify(contract, null, 2)}\n`).toMatchFileSnapshot(
            `./__contracts__/${descriptor.name}.json`
          )
        )
      }
    })
  )

  describe("schemas agents can act on", () => {
    it.effect("describe every input and output field, refuse unknown fields, and name the workspace", () =>
      Effect.gen(function* () {
        const registry = yield* ToolRegistry
        // Every tool's undescribed fields at once, so one run names them all.
        expect(
          registry.tools.flatMap(({ descriptor }) => [
            ...undescribed(descriptor.inputSchema, `${descriptor.name}: `),
            ...undescribed(descriptor.outputSchema, `${descriptor.name} output: `, 1)
          ])
        ).toEqual([])
        for (const { descriptor } of registry.tools) {
          expect(descriptor.inputSchema.type, descriptor.name).toBe("object")
          expect(descriptor.inputSchema.additionalProperties, descriptor.name).toBe(false)
          expect(Object.keys(descriptor.inputSchema.properties as Node)).toContain("workspaceId")
          expect(JSON.stringify(descriptor.inputSchema)).not.toContain("$ref")
          expect(descriptor.description.length, descriptor.name).toBeGreaterThan(60)
          expect(descriptor.annotations.readOnlyHint).toBe(!descriptor.write)
        }
      })
    )

    it.effect("serve the foundation's five tools and the sticky-note alias, in catalog order", () =>
      Effect.gen(function* () {
        const registry = yield* ToolRegistry
        const served = registry.tools.map((t) => t.descriptor.name)
        for (const name of [
          "svc_list_workspaces",
          "svc_list_workspace_items",
          "svc_get_note_markdown",
          "svc_create_note",
          "svc_create_sticky_note",
          "svc_append_to_note"
        ]) {
          expect(served).toContain(name)
        }
        const order = specTools.map((entry) => entry.name).filter((name) => served.includes(name))
        expect(served).toEqual(order)
        expect(served.length + registry.missing.length).toBe(113)
      })
    )
  })
})
