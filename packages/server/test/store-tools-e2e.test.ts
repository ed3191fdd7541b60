/**
 * The Store tools over a real `svc serve`, as a seller's agent works: the official MCP SDK client lists them with
 * their annotations, lists stores, creates and publishes a Custom AI's product; the REST form does the same; a
 * Store-read key reads and is refused changes. Then a seller's whole journey, once over MCP and once over REST:
 * products, a bundle sold and refunded, 500 customers imported twice, the overview's figures, a cohort, a discount
 * code.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { engineName, freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { setUpSeller, setUpSellerWithReadKey, storeApi } from "./support/webhooks.js"

type Answer = Record<string, unknown>

let dispose = async () => {}
let server: RunningServer | undefined
let baseUrl = ""
let seller: Awaited<ReturnType<typeof setUpSellerWithReadKey>>
/** One seller per face for the journey, so each one's overview counts only its own sales. */
let journeySellers: ReadonlyArray<Awaited<ReturnType<typeof setUpSeller>>> = []

const mcpClient = async (token: string) => {
  const client = new Client({ name: "store-tools-e2e", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } }
    })
  )
  return client
}

/** The structured answer of an MCP tool call (its failures included). */
const callMcp = async (client: Client, name: string, args: Answer) =>
  (await client.callTool({ name, arguments: args })).structuredContent as Answer

/** `POST /v1/tools/<name>`: the HTTP status and the answer. */
const callRest = async (token: string, name: string, args: Answer) => {
  const response = await fetch(`${baseUrl}/v1/tools/${name}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(args)
  })
  return { status: response.status, body: (await response.json()) as Answer }
}

const productTools = {
  svc_get_custom_ai_product: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  svc_save_custom_ai_product: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  svc_publish_custom_ai_product: { readOnlyHint: false, destructiveHint: false, idempotentHint: true }
}

const storeToolNames = [
  "svc_list_stores",
  "svc_get_seller_overview",
  ...Object.keys(productTools),
  "svc_get_bundle",
  "svc_save_bundle",
  "svc_list_customers",
  "svc_get_customer",
  "svc_manage_customer_access",
  "svc_import_customers",
  "svc_manage_cohorts",
  "svc_manage_content_links",
  "svc_manage_sales"
]

beforeAll(async () => {
  const database = await freshDatabase()
  dispose = database.dispose
  const env = { ...database.env, SVC_BOOTSTRAP: "false" }
  seller = await setUpSellerWithReadKey(env)
  journeySellers = [
    await setUpSeller(env, "journey-mcp@example.com", 1),
    await setUpSeller(env, "journey-rest@example.com", 1)
  ]
  server = await startServer(env)
  baseUrl = server.baseUrl
}, 120_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await dispose()
})

describe(`Store tools over svc serve on ${engineName}`, { timeout: 60_000 }, () => {
  it("serves the Store tools to the MCP SDK client and creates and publishes a Custom AI product", async () => {
    const client = await mcpClient(seller.token)
    try {
      const { tools } = await client.listTools()
      const listed = new Map(tools.map((tool) => [tool.name, tool]))
      for (const [name, hints] of Object.entries(productTools)) {
        expect(listed.get(name)?.annotations, name).toMatchObject({ ...hints, openWorldHint: false })
        expect(listed.get(name)?.outputSchema, name).toBeDefined()
      }
      for (const name of storeToolNames) {
        const annotations = listed.get(name)?.annotations
        expect(typeof annotations?.readOnlyHint, name).toBe("boolean")
        expect(typeof annotations?.destructiveHint, name).toBe("boolean")
        expect(annotations?.openWorldHint, name).toBe(false)
      }

      const me = await storeApi(baseUrl, seller.token)<{ store: { handle: string } }>("GET", "/me")
      const stores = await callMcp(client, "svc_list_stores", {})
      expect(stores).toMatchObject({ ok: true, stores: [{ handle: me.body.store.handle, planAllowsStore: true }] })

      const saved = await callMcp(client, "svc_save_custom_ai_product", {
        customAIId: seller.customAiId,
        fields: { title: "Coaching Club", price_cents: 2900, billing: "monthly" }
      })
      expect(saved).toMatchObject({ ok: true, created: true, can_publish: true, product: { status: "draft" } })
      const published = await callMcp(client, "svc_publish_custom_ai_product", {
        customAIId: seller.customAiId,
        live: true
      })
      expect(published).toMatchObject({ ok: true, product: { status: "live", live: true, price_cents: 2900 } })
      const read = await callMcp(client, "svc_get_custom_ai_product", { customAIId: seller.customAiId })
      const productId = (read.product as { id: string }).id
      const viaApi = await storeApi(baseUrl, seller.token)("GET", `/products/${productId}`)
      expect(read).toEqual(viaApi.body)

      const invalid = await client.callTool({
        name: "svc_save_custom_ai_product",
        arguments: { customAIId: seller.customAiId, fields: { price_cents: 50 } }
      })
      expect(invalid.isError).toBe(true)
      expect(invalid.structuredContent).toMatchObject({
        ok: false,
        status: "invalid",
        errors: [{ path: "fields.price_cents" }]
      })
    } finally {
      await client.close()
    }
  })

  it("does the same over REST, and lets a Store-read key read but refuses it changes", async () => {
    const customAIId = seller.secondCustomAiId
    const saved = await callRest(seller.token, "svc_save_custom_ai_product", {
      customAIId,
      fields: { title: "Second", price_cents: 1900 }
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ ok: true, created: true, product: { title: "Second", status: "draft" } })
    const published = await callRest(seller.token, "svc_publish_custom_ai_product", { customAIId, live: true })
    expect(published.body).toMatchObject({ ok: true, product: { status: "live" } })
    const missing = await callRest(seller.token, "svc_get_custom_ai_product", { customAIId: "cai_unknown" })
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ ok: false, status: "not-found" })

    const read = await callRest(seller.readToken, "svc_get_custom_ai_product", { customAIId })
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ ok: true, product: { title: "Second", status: "live" } })
    const change = await callRest(seller.readToken, "svc_save_custom_ai_product", {
      customAIId,
      fields: { title: "Renamed" }
    })
    expect(change.status).toBe(403)
    expect(change.body).toMatchObject({ ok: false, status: "forbidden" })
    const off = await callRest(seller.readToken, "svc_publish_custom_ai_product", { customAIId, live: false })
    expect(off.body).toMatchObject({ ok: false, status: "forbidden" })

    const reader = await mcpClient(seller.readToken)
    try {
      const viaMcp = await callMcp(reader, "svc_save_custom_ai_product", { customAIId, fields: { title: "Renamed" } })
      expect(viaMcp).toMatchObject({ ok: false, status: "forbidden" })
    } finally {
      await reader.close()
    }
    const after = await callRest(seller.token, "svc_get_custom_ai_product", { customAIId })
    expect(after.body).toMatchObject({ product: { title: "Second", status: "live" } })
  })

  /** The seller's journey the issue names, through one face's `call`. */
  const journey = async (
    call: (name: string, args: Answer) => Promise<Answer>,
    journeySeller: (typeof journeySellers)[number],
    prefix: string
  ) => {
    const ok = async (name: string, args: Answer) => {
      const answer = await call(name, args)
      expect(answer, `${name} ${JSON.stringify(args)}`).toMatchObject({ ok: true })
      return answer
    }
    const [firstAi, secondAi] = [journeySeller.customAiId, ...journeySeller.moreCustomAiIds]
    const { stores } = (await ok("svc_list_stores", {})) as { stores: ReadonlyArray<{ handle: string }> }
    const storeHandle = stores[0]?.handle
    expect(storeHandle).toBeDefined()

    // Two Custom AI products, then a bundle of both, live, on the store named by its handle.
    const productIds: Array<string> = []
    for (const [customAIId, price] of [
      [firstAi, 4900],
      [secondAi, 2900]
    ] as const) {
      await ok("svc_save_custom_ai_product", { storeHandle, customAIId, fields: { price_cents: price } })
      const live = await ok("svc_publish_custom_ai_product", { storeHandle, customAIId, live: true })
      productIds.push((live.product as { id: string }).id)
    }
    const bundle = await ok("svc_save_bundle", {
      storeHandle,
      productIds,
      fields: { title: "Both coaches", price_cents: 6900 },
      status: "live"
    })
    const bundleId = (bundle.bundle as { id: string }).id
    expect(bundle).toMatchObject({ bundle: { kind: "bundle", status: "live" }, products: [{}, {}] })

    // Sold through svc_manage_sales: the bundle's own access and each product's.
    const buyer = `${prefix}-ada@example.com`
    const sold = await ok("svc_manage_sales", {
      storeHandle,
      action: "record",
      event: "sale",
      productId: bundleId,
      email: buyer,
      orderId: `${prefix}-order-1`
    })
    expect(sold.status).toBe("granted")
    const accessOf = async () => {
      const { customer } = (await ok("svc_get_customer", { storeHandle, email: buyer })) as {
        customer: { products: ReadonlyArray<{ product_id: string; has_access: boolean }> }
      }
      return Object.fromEntries(customer.products.map((line) => [line.product_id, line.has_access]))
    }
    expect(await accessOf()).toEqual({
      [bundleId]: true,
      [productIds[0] as string]: true,
      [productIds[1] as string]: true
    })

    // Refunded: the bundle's access and both products' are gone.
    const { sales } = (await ok("svc_manage_sales", { storeHandle, action: "list", email: buyer })) as {
      sales: ReadonlyArray<{ id: string; product_id: string }>
    }
    expect(sales.map((sale) => sale.product_id)).toEqual([bundleId])
    const refunded = await ok("svc_manage_sales", { storeHandle, action: "refund", saleId: sales[0]?.id })
    expect(refunded.status).toBe("revoked")
    expect(await accessOf()).toEqual({
      [bundleId]: false,
      [productIds[0] as string]: false,
      [productIds[1] as string]: false
    })

    // 500 customers imported twice: the second run adds no one.
    const rows = Array.from({ length: 500 }, (_, index) => ({
      email: `${prefix}-reader-${index}@example.com`,
      productId: productIds[0]
    }))
    const first = (await ok("svc_import_customers", { storeHandle, rows })) as {
      results: ReadonlyArray<{ status: string }>
    }
    expect(first.results.filter((line) => line.status === "added")).toHaveLength(500)
    const second = (await ok("svc_import_customers", { storeHandle, rows })) as {
      results: ReadonlyArray<{ status: string }>
    }
    expect(second.results.filter((line) => line.status === "already_has_access")).toHaveLength(500)
    let listed = 0
    let cursor: string | undefined
    do {
      const page = (await ok("svc_list_customers", {
        storeHandle,
        productId: productIds[0],
        hasAccess: true,
        limit: 100,
        ...(cursor === undefined ? {} : { cursor })
      })) as { customers: ReadonlyArray<unknown>; nextCursor?: string }
      listed += page.customers.length
      cursor = page.nextCursor
    } while (cursor !== undefined)
    expect(listed).toBe(500)

    // The overview's figures are the sales made: one bundle sale of $69, refunded; the buyer and 500 imports.
    const overview = (await ok("svc_get_seller_overview", { storeHandle, period: "7d" })) as {
      figures: Record<string, { value: number }>
      top_products: ReadonlyArray<{ product_id: string; sales: number; revenue_cents: number }>
    }
    expect(overview.figures).toMatchObject({
      sales: { value: 1 },
      revenue_cents: { value: 6900 },
      refunds: { value: 1 },
      refunded_cents: { value: 6900 },
      net_revenue_cents: { value: 0 },
      new_customers: { value: 501 }
    })
    expect(overview.top_products[0]).toMatchObject({ product_id: bundleId, sales: 1, revenue_cents: 6900 })

    // A cohort, and an imported buyer moved into it.
    const created = await ok("svc_manage_cohorts", {
      storeHandle,
      action: "create",
      productId: productIds[0],
      name: "Spring",
      capacity: 10
    })
    const cohortId = (created.cohort as { id: string }).id
    const moved = await ok("svc_manage_cohorts", {
      storeHandle,
      action: "move",
      productId: productIds[0],
      email: `${prefix}-reader-7@example.com`,
      cohortId
    })
    expect(moved).toMatchObject({ status: "moved", cohort: { id: cohortId, members: 1 } })

    // A discount code on the first product, its checkout link on the address the server is reached at.
    const made = await ok("svc_manage_sales", {
      storeHandle,
      action: "create_code",
      productId: productIds[0],
      kind: "percent",
      value: 20
    })
    const code = made.discountCode as { code: string; checkout_url: string; active: boolean }
    expect(code).toMatchObject({ active: true, checkout_url: `${baseUrl}/c/${productIds[0]}?code=${code.code}` })
  }

  it("takes a seller through products, a bundle sold and refunded, an import, the overview, a cohort and a discount code over MCP", async () => {
    const [mcpSeller] = journeySellers
    if (mcpSeller === undefined) throw new Error("no journey seller")
    const client = await mcpClient(mcpSeller.token)
    try {
      await journey((name, args) => callMcp(client, name, args), mcpSeller, "mcp")
    } finally {
      await client.close()
    }
  })

  it("takes a seller through the same journey over REST", async () => {
    const [, restSeller] = journeySellers
    if (restSeller === undefined) throw new Error("no journey seller")
    await journey(async (name, args) => (await callRest(restSeller.token, name, args)).body, restSeller, "rest")
  })
})
