/**
 * An agent fills a product's fields from the tool list alone. The official SDK client lists the tools; for every
 * field of `svc_save_custom_ai_product`'s `fields`, a value is chosen from what the listed schema says of it (its
 * type, values, limits and description, as an agent reads them), checked against the listed `inputSchema` with Ajv,
 * and sent. The call must succeed and the product must answer the value sent.
 */
import { describe, expect, layer } from "@effect/vitest"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { CustomAis } from "@svc/core/custom-ai"
import { StoreSetup } from "@svc/core/store"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { connectMcpClient } from "../support/mcp-client.js"

type Node = { readonly [key: string]: unknown }

const typeOf = (node: Node): string | undefined =>
  Array.isArray(node.type) ? (node.type.find((type) => type !== "null") as string | undefined) : (node.type as string)

/** A value for a field, read from its listed schema as an agent reads it: values, limits, then the description. */
const valueFor = (name: string, node: Node): unknown => {
  const description = String(node.description ?? "")
  if (Array.isArray(node.enum)) {
    const choices = node.enum.filter((choice) => choice !== null)
    return choices[choices.length - 1]
  }
  switch (typeOf(node)) {
    case "boolean":
      return true
    case "integer":
    case "number": {
      const minimum = typeof node.minimum === "number" ? node.minimum : 0
      const maximum = typeof node.maximum === "number" ? node.maximum : Number.MAX_SAFE_INTEGER
      // Prices say "100 to …" or "at least 100" in their description: the smallest amount an agent reads there.
      const stated = /(\d+) to \d+/.exec(description) ?? /at least (\d+)/.exec(description)
      return Math.min(maximum, Math.max(minimum, stated ? Number(stated[1]) : minimum, 2))
    }
    case "array": {
      const items = (node.items ?? {}) as Node
      return [valueFor(`${name}[]`, items)].filter((item) => item !== undefined)
    }
    case "object": {
      const properties = (node.properties ?? {}) as Record<string, Node>
      return Object.fromEntries(Object.entries(properties).map(([key, field]) => [key, valueFor(key, field)]))
    }
    case "string": {
      if (/YYYY-MM-DD/.test(description)) return "2027-03-01"
      if (/#rrggbb/.test(description)) return "#3366ff"
      if (/http or https/.test(description)) return "https://example.com/page"
      if (/lower-case letters, digits or dashes/.test(description)) return "agent-made"
      const max = typeof node.maxLength === "number" ? node.maxLength : 100
      return `Agent ${name}`.slice(0, max)
    }
    default:
      return undefined
  }
}

/** What a field's description says must be set with it ("Memberships only", "with quantity_limit", …). */
const alongside = (description: string): Record<string, unknown> => ({
  ...(/monthly billing only|Memberships only/i.test(description) ? { billing: "monthly", price_cents: 1000 } : {}),
  ...(/One-time paid products only/i.test(description) ? { billing: "one-time", price_cents: 10000 } : {}),
  ...(/with quantity_limit/i.test(description) ? { quantity_limit: 10 } : {}),
  ...(/checkout_mode is external/i.test(description) ? { checkout_mode: "external" } : {})
})

layer(TestApp.layer, { timeout: "120 seconds", excludeTestServices: true })((it) => {
  describe("product fields from the tool list", () => {
    it.scoped("every field of svc_save_custom_ai_product, filled from its listed schema, is saved as sent", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        yield* app.setUp(
          Effect.flatMap(StoreSetup, (setup) =>
            setup.set(user.workspace.id, { supportEmail: "help@example.com", cardProcessor: "connected" })
          )
        )
        // One product per field, as a new seller's first call would make it.
        const newCustomAi = (name: string) =>
          app.setUp(
            Effect.flatMap(CustomAis, (customAis) => customAis.create(user.workspace.id, { name })).pipe(
              Effect.map((created) => created.id),
              Effect.orDie
            )
          )
        const client = yield* connectMcpClient(app.url, user.token, "svc-product-fields")
        const { tools } = yield* Effect.promise(() => client.listTools())
        const listed = tools.find((tool) => tool.name === "svc_save_custom_ai_product")
        expect(listed).toBeDefined()
        const inputSchema = listed?.inputSchema as Node
        const fields = (inputSchema.properties as Record<string, Node>).fields as Node
        const properties = Object.entries(fields.properties as Record<string, Node>)
        // Every field of POST /products is there, typed.
        expect(properties.length).toBeGreaterThanOrEqual(33)
        const check = new AjvJsonSchemaValidator().getValidator(inputSchema)

        const saved: Array<string> = []
        for (const [name, node] of properties) {
          expect(typeOf(node), `${name} has a type`).toBeDefined()
          const value = valueFor(name, node)
          const description = String(node.description ?? "")
          // A field the description keeps to paid-question products is set on a new one (kind question).
          const args = /Paid-question products only/i.test(description)
            ? { kind: "question", fields: { [name]: value } }
            : { customAIId: yield* newCustomAi(`Coach ${name}`), fields: { ...alongside(description), [name]: value } }
          expect(check(args), `${name}: ${JSON.stringify(args)}`).toMatchObject({ valid: true })
          const result = yield* Effect.promise(() =>
            client.callTool({ name: "svc_save_custom_ai_product", arguments: args })
          )
          const answer = result.structuredContent as { readonly product?: Record<string, unknown> }
          expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeUndefined()
          expect(answer.product?.[name], name).toEqual(value)
          saved.push(name)
        }
        expect(saved).toContain("checkout_mode")
        expect(saved).toContain("sections")
        expect(saved).toContain("answer_within_days")
      })
    )
  })
})
