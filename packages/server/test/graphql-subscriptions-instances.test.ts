/**
 * `Subscription.events` across server processes: with two `svc serve` on one PostgreSQL, a sale recorded through
 * instance A reaches an SSE subscriber on instance B (both read the same event log). On PGlite one process owns
 * the data, so the sale and the subscriber share the one server.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { createClient } from "graphql-sse"
import { engineName, freshDatabase } from "./support/environment.js"
import { startServer } from "./support/server-process.js"
import { publishProduct, sell, setUpSeller, storeApi } from "./support/webhooks.js"

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const serve = async (env: Record<string, string>) => {
  const server = await startServer(env)
  cleanup.push(async () => {
    if (server.process.exitCode === null && server.process.signalCode === null) await server.stop()
  })
  return server
}

interface Received {
  readonly id: string
  readonly type: string
  readonly data: Record<string, unknown>
}

describe(`GraphQL subscriptions across processes on ${engineName}`, { timeout: 240_000 }, () => {
  it(
    engineName === "PostgreSQL"
      ? "a sale recorded through one svc serve reaches a subscriber on another"
      : "a sale recorded through svc serve reaches its subscriber (PGlite: one process owns the data)",
    async () => {
      const database = await freshDatabase()
      cleanup.push(database.dispose)
      const env = { ...database.env, SVC_BOOTSTRAP: "false", SVC_GRAPHQL_POLL_INTERVAL_MS: "200" }
      const seller = await setUpSeller(env)
      const writer = await serve(env)
      const reader = engineName === "PostgreSQL" ? await serve(env) : writer
      const call = storeApi(writer.baseUrl, seller.token)
      const productId = await publishProduct(call, seller.customAiId)

      const client = createClient({
        url: `${reader.baseUrl}/graphql`,
        headers: { authorization: `Bearer ${seller.token}` },
        retryAttempts: 0
      })
      const events = client
        .iterate<{ events: Received }>({
          query: `subscription { events(types: ["purchase.created"]) { id type data } }`
        })
        [Symbol.asyncIterator]()
      cleanup.push(async () => events.return?.())
      const first = events.next()
      // The feed starts from the moment it subscribes: give the request time to get there.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      await sell(call, productId, 1)

      const received = await first
      expect(received.value?.errors).toBeUndefined()
      expect(received.value?.data?.events).toMatchObject({
        type: "purchase.created",
        data: { buyer_email: "buyer1@example.com" }
      })
      expect(received.value?.data?.events.id).toMatch(/^evt_/)
    }
  )
})
