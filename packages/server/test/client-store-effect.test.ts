/**
 * The Effect face of the store API client (`@svc/client/effect`, derived from the `StoreApi` contract by
 * `HttpApiClient`) against a real `svc serve`: a call of each group, and error answers as the contract's errors.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { StoreApiClient, StoreForbidden, StoreInvalid, StoreNotFound, StoreUnauthorized } from "@svc/client/effect"
import { Effect, Layer, ParseResult } from "effect"
import { engineName, freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { setUpSellerWithReadKey } from "./support/webhooks.js"

let env: Record<string, string> = {}
let dispose = async () => {}
let server: RunningServer | undefined
let sellerToken = ""
let readToken = ""
let customAiId = ""
let secondCustomAiId = ""

beforeAll(async () => {
  const database = await freshDatabase()
  env = { ...database.env, SVC_BOOTSTRAP: "false" }
  dispose = database.dispose
  const seller = await setUpSellerWithReadKey(env)
  sellerToken = seller.token
  customAiId = seller.customAiId
  secondCustomAiId = seller.secondCustomAiId
  readToken = seller.readToken
  server = await startServer(env)
}, 120_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await dispose()
})

/** The client for one key, on `fetch`. */
const clientFor = (token: string) =>
  StoreApiClient.layer({ baseUrl: server?.baseUrl ?? "", token }).pipe(Layer.provide(FetchHttpClient.layer))

describe(`the store API client's Effect face against svc serve on ${engineName}`, { timeout: 120_000 }, () => {
  it.live("calls each group of the contract", () =>
    Effect.gen(function* () {
      const store = yield* StoreApiClient
      const me = yield* store.identity.me()
      expect(me.email).toBe("seller@example.com")
      expect((yield* store.identity.customAis()).custom_ais.map((ai) => ai.id)).toContain(customAiId)

      const created = yield* store.products.create({ payload: { custom_ai_id: customAiId, price_cents: 2900 } })
      const product = created.product.id
      yield* store.products.publish({ path: { id: product } })
      const sale = yield* store.sales.record({
        payload: { event: "sale", product, email: "buyer@example.com", order_id: "effect-1" }
      })
      expect(sale).toEqual({ ok: true, status: "granted" })
      const page = yield* store.sales.list({ urlParams: { product, limit: 10 } })
      expect(page.data.map((row) => row.order_id)).toEqual(["effect-1"])
      // Query values are typed as the OpenAPI document types them: a boolean, a number, a choice of words.
      const withAccess = yield* store.customers.list({ urlParams: { product, has_access: true, created_after: 0 } })
      expect(withAccess.data.map((row) => row.email)).toEqual(["buyer@example.com"])
      expect((yield* store.customers.list({ urlParams: { product, has_access: false } })).data).toEqual([])
      expect((yield* store.sales.list({ urlParams: { product, status: "refunded" } })).data).toEqual([])

      const found = yield* store.customers.find({ urlParams: { email: "buyer@example.com" } })
      expect(found.customers).toHaveLength(1)
      expect((yield* store.feeds.payments({ urlParams: {} })).payments).toEqual([])
      expect((yield* store.webhooks.eventTypes()).ok).toBe(true)
      const hook = yield* store.hooks.subscribe({
        payload: { event: "new_sale", target_url: "https://hooks.zapier.com/hooks/standard/1/effect" }
      })
      expect(yield* store.hooks.unsubscribe({ path: { id: hook.id } })).toEqual({
        ok: true,
        id: hook.id,
        deleted: true
      })
    }).pipe(Effect.provide(clientFor(sellerToken)))
  )

  it.live("fails with the contract's error classes, and refuses input the contract refuses before sending it", () =>
    Effect.gen(function* () {
      const store = yield* StoreApiClient
      const missing = yield* Effect.flip(store.products.get({ path: { id: "prod_missing" } }))
      expect(missing).toBeInstanceOf(StoreNotFound)
      // Each class has its name as `_tag`, for Effect.catchTag; the wire body does not carry it.
      const caught = yield* store.products.get({ path: { id: "prod_missing" } }).pipe(
        Effect.as("found"),
        Effect.catchTag("StoreNotFound", (error) => Effect.succeed(`${error._tag}: ${error.error}`))
      )
      expect(caught).toBe("StoreNotFound: not_found")
      expect(Object.keys(missing)).not.toContain("_tag")

      // A query value the contract refuses is refused before it is sent (and does not compile).
      // @ts-expect-error "pending" is not a sale status
      const wrongStatus = yield* Effect.flip(store.sales.list({ urlParams: { status: "pending" } }))
      expect(ParseResult.isParseError(wrongStatus)).toBe(true)
      // @ts-expect-error the page size is a number
      const wrongLimit = yield* Effect.flip(store.sales.list({ urlParams: { limit: "10" } }))
      expect(ParseResult.isParseError(wrongLimit)).toBe(true)

      const { product } = yield* store.products.create({ payload: { custom_ai_id: secondCustomAiId } })
      // Well-formed, but the server's product rules refuse trial days on a one-time product.
      const invalid = yield* Effect.flip(
        store.products.update({ path: { id: product.id }, payload: { trial_days: 7 } })
      )
      expect(invalid).toBeInstanceOf(StoreInvalid)
      expect(invalid).toMatchObject({ errors: [expect.objectContaining({ path: "trial_days" })] })

      const malformed = yield* Effect.flip(
        store.sales.record({ payload: { event: "sale", product: "x", email: "nope" } })
      )
      expect(ParseResult.isParseError(malformed)).toBe(true)
    }).pipe(Effect.provide(clientFor(sellerToken)))
  )

  it.live("fails with StoreUnauthorized for an unknown key and StoreForbidden for a change with a read-only key", () =>
    Effect.gen(function* () {
      const unknown = yield* Effect.flip(
        Effect.flatMap(StoreApiClient, (store) => store.identity.me()).pipe(
          Effect.provide(clientFor("svc_pat_not_a_key"))
        )
      )
      expect(unknown).toBeInstanceOf(StoreUnauthorized)
      const forbidden = yield* Effect.flip(
        Effect.flatMap(StoreApiClient, (store) =>
          store.products.create({ payload: { custom_ai_id: customAiId } })
        ).pipe(Effect.provide(clientFor(readToken)))
      )
      expect(forbidden).toBeInstanceOf(StoreForbidden)
      expect(forbidden).toMatchObject({ code: "api_key_access" })
    })
  )
})
