/**
 * The Store tools over a real `svc serve`, as a seller's agent works: the official MCP SDK client lists them with
 * their annotations, lists stores (once `svc_list_stores` is served), creates and publishes a Custom AI's product;
 * the REST form does the same; a Store-read key reads and is refused changes.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { engineName, freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { setUpSellerWithReadKey, storeApi } from "./support/webhooks.js"

type Answer = Record<string, unknown>

let dispose = async () => {}
let server: RunningServer | undefined
let baseUrl = ""
let seller: Awaited<ReturnType<typeof setUpSellerWithReadKey>>

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
      for (const name of storeToolNames.filter((n) => listed.has(n))) {
        const annotations = listed.get(name)?.annotations
        expect(typeof annotations?.readOnlyHint, name).toBe("boolean")
        expect(typeof annotations?.destructiveHint, name).toBe("boolean")
        expect(annotations?.openWorldHint, name).toBe(false)
      }

      if (listed.has("svc_list_stores")) {
        const me = await storeApi(baseUrl, seller.token)<{ store: { handle: string } }>("GET", "/me")
        const stores = await callMcp(client, "svc_list_stores", {})
        expect(stores.ok).toBe(true)
        expect(JSON.stringify(stores)).toContain(me.body.store.handle)
      }

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
})
