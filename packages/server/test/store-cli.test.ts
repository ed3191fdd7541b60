import { describe, expect, it } from "@effect/vitest"
import { startServer } from "./support/server-process.js"
import { engineName, svcHere, svcJson, useFreshDatabase } from "./support/environment.js"

const currentEnv = useFreshDatabase({ SVC_BOOTSTRAP: "false" })
const json = (args: ReadonlyArray<string>) => svcJson(args, currentEnv())

describe(`svc store and custom-ais commands on ${engineName}`, { timeout: 480_000 }, () => {
  it("sets up a store from the CLI, then sells through the running server's store API", async () => {
    const email = "seller@example.com"
    expect(
      (await json(["accounts", "create", "--email", email, "--password", "long password 1", "--plan", "starter"])).code
    ).toBe(0)

    const refused = await json(["store", "set", "--email", email, "--card-processor", "maybe"])
    expect(refused.code).toBe(2)
    expect((await json(["store", "set", "--email", email, "--email-list-add-buyers", "maybe"])).code).toBe(2)
    expect((await json(["store", "set", "--email", email, "--email-double-opt-in", "yes"])).code).toBe(2)

    const set = await json([
      "store",
      "set",
      "--email",
      email,
      "--support-email",
      "Help@Example.com",
      "--card-processor",
      "connected",
      "--email-list-add-buyers",
      "off",
      "--email-double-opt-in",
      "on"
    ])
    expect(set.code).toBe(0)
    expect(set.body.store).toMatchObject({
      supportEmail: "help@example.com",
      cardProcessor: "connected",
      emailListAddBuyers: false,
      emailDoubleOptIn: true
    })

    const customAi = await json(["custom-ais", "create", "--email", email, "--name", "Writing coach"])
    expect(customAi.code).toBe(0)
    expect(customAi.body.id).toMatch(/^cai_/)
    const text = await svcHere(["custom-ais", "create", "--email", email, "--name", "Second"], currentEnv())
    expect(text.stdout).toMatch(/cai_[0-9a-z]+/)
    expect((await json(["custom-ais", "create", "--email", email])).code).toBe(2)

    const key = await json(["keys", "create", "--email", email])
    const server = await startServer(currentEnv())
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${server.baseUrl}/store-app/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key.body.token}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        return { status: response.status, body: (await response.json()) as Record<string, unknown> }
      }
      const ais = await call("GET", "/custom-ais")
      expect(ais.body.custom_ais).toHaveLength(2)
      const created = await call("POST", "/products", { custom_ai_id: customAi.body.id, price_cents: 4900 })
      expect(created.status).toBe(201)
      expect(created.body.can_publish).toBe(true)
      const id = (created.body.product as { id: string }).id
      expect((await call("POST", `/products/${id}/publish`)).status).toBe(200)
      const sale = await call("POST", "/sales", {
        event: "sale",
        product: id,
        email: "buyer@example.com",
        order_id: "A-1"
      })
      expect(sale.body).toEqual({ ok: true, status: "granted" })
      const products = await call("GET", "/products")
      expect(products.body.products).toEqual([
        {
          id,
          name: "Writing coach (one-time)",
          title: "Writing coach",
          billing: "one-time",
          live: true,
          ownCheckout: false
        }
      ])
      const openapi = await fetch(`${server.baseUrl}/store-app/v1/openapi.json`)
      expect(openapi.status).toBe(200)
    } finally {
      await server.stop()
    }
  })
})
