// docs/client.md, "Store API": the store API with the typed client, as Promises and as Effect programs.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import {
  createStoreClient,
  StoreApiError,
  type StoreApiErrors,
  StoreInvalidError,
  StoreRateLimitedError
} from "@svc/client"
import { StoreApiClient } from "@svc/client/effect"
import { Effect } from "effect"

const store = createStoreClient({
  baseUrl: "http://127.0.0.1:8787",
  token: process.env.SVC_STORE_KEY ?? "", // an API key with Store access
  timeoutMs: 10_000,
  retry: { attempts: 1, maxDelayMs: 65_000 } // a store 429 asks for about a minute
})

// Grouped as the API is; each method takes one input (path parameters by name, then the query or the body).
const { custom_ais } = await store.identity.customAis()
const { product, publish_checklist } = await store.products.create({
  custom_ai_id: custom_ais[0]?.id ?? "",
  price_cents: 4900
})
// A fresh store lacks a support email and a card processor: the checklist names them, the settings set them.
if (publish_checklist.length > 0) {
  await store.settings.update({ support_email: "help@example.com", card_processor: "connected" })
}
await store.products.publish({ id: product.id })

// No order_id: the client makes one before the first attempt, so a retried call still counts once.
const sale = await store.sales.record({ event: "sale", product: product.id, email: "buyer@example.com" })
if (!sale.ok) console.log(`refused: ${sale.reason}`) // a refused sale is an answer, not an error

// Paged lists are async iterables that follow next_cursor; .page() is one page, .pages() page by page.
for await (const row of store.sales.list({ product: product.id, status: "paid", limit: 100 })) {
  console.log(row.buyer_email, row.amount, row.currency)
}
const firstPage = await store.customers.list({ has_access: true, limit: 10 }).page()
console.log(firstPage.data.length, firstPage.has_more, firstPage.next_cursor)

// One error class per status, all extending StoreApiError.
try {
  await store.customers.accessEmail({ product: product.id, email: "buyer@example.com" })
} catch (error) {
  if (error instanceof StoreRateLimitedError) console.log(`try again in ${error.retryAfterSeconds} s`)
  else if (error instanceof StoreInvalidError) for (const field of error.errors) console.log(field.path, field.message)
  else if (error instanceof StoreApiError) console.log(error.status, error.code, error.message)
  else throw error // SvcTimeoutError, SvcConnectionError, an abort reason
}

// The same classes in Effect code: each has a _tag, its class name, so Effect.catchTag matches it.
const productTitle = (id: string) =>
  Effect.tryPromise({ try: () => store.products.get({ id }), catch: (error) => error as StoreApiErrors }).pipe(
    Effect.map(({ product }) => product.title),
    Effect.catchTag("StoreNotFoundError", () => Effect.succeed("(no such product)"))
  )
console.log(await Effect.runPromise(productTitle(product.id)))

// The Effect face: the client derived from the server's HttpApi contract.
const recentSales = Effect.gen(function* () {
  const client = yield* StoreApiClient
  const page = yield* client.sales.list({ urlParams: { product: product.id, limit: 10 } })
  return page.data
}).pipe(
  Effect.catchTag("StoreNotFound", () => Effect.succeed([])),
  Effect.provide(StoreApiClient.layer({ baseUrl: "http://127.0.0.1:8787", token: process.env.SVC_STORE_KEY ?? "" })),
  Effect.provide(FetchHttpClient.layer)
)
console.log((await Effect.runPromise(recentSales)).length)
