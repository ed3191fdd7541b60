/**
 * Store API points the spec's black-box checks found wrong: a renewal of a one-time product is refused on
 * every face, the customer find result carries `access`, and `next_cursor` is a string on every page.
 */
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { signUp } from "../support/core.js"
import { resolveStoreCaller, StoreSales } from "@svc/core/store"
import { Effect, Option } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Call = StoreTest["Type"]["call"]

const request = (call: Call, ...args: Parameters<Call>) => Effect.promise(() => call(...args))

const live = (call: Call, token: string, customAiId: string, fields: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const created = yield* request(call, token, "POST", "/products", { custom_ai_id: customAiId, ...fields })
    const id = (created.body.product as { id: string }).id
    const published = yield* request(call, token, "POST", `/products/${id}/publish`)
    if (published.status !== 200) return yield* Effect.dieMessage(JSON.stringify(published.body))
    return id
  })

/** What a sale event could have changed: the store's events, sale rows, access rows and claimed order ids. */
const footprint = (t: StoreTest["Type"], workspaceId: string) =>
  t.setUp(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const count = (rows: ReadonlyArray<{ readonly n: number }>) => Number(rows[0]?.n ?? 0)
      return {
        events: count(
          yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE workspace_id = ${workspaceId}`
        ),
        sales: count(
          yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM store_sales WHERE workspace_id = ${workspaceId}`
        ),
        mails: count(
          yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM mail_outbox WHERE workspace_id = ${workspaceId}`
        )
      }
    }).pipe(Effect.orDie)
  )

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store API spec details (${engineName})`,
  (it) => {
    it.effect("refuses a renewal of a one-time product by name, changing nothing and emitting no event", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const product = yield* live(t.call, s.token, s.customAiId, { billing: "one-time", price_cents: 0 })
        const before = yield* footprint(t, s.workspaceId)
        const renewal = yield* request(t.call, s.token, "POST", "/sales", {
          event: "renewal",
          product,
          email: "once@example.com",
          order_id: "o-renew"
        })
        expect(renewal.status).toBe(200)
        expect(renewal.body).toEqual({
          ok: false,
          status: "rejected",
          reason: "not_a_membership",
          message: expect.stringContaining("renewal applies to memberships")
        })
        expect(yield* footprint(t, s.workspaceId)).toEqual(before)
        const found = yield* request(t.call, s.token, "GET", "/customers/find?email=once@example.com")
        expect(found.body).toEqual({ ok: true, customers: [] })
        // The order id was not taken: the real sale with it is granted, not a duplicate.
        const sale = yield* request(t.call, s.token, "POST", "/sales", {
          event: "sale",
          product,
          email: "once@example.com",
          order_id: "o-renew"
        })
        expect(sale.body).toEqual({ ok: true, status: "granted" })
        // A buyer who has the one-time product is refused a renewal just the same.
        const after = yield* footprint(t, s.workspaceId)
        const again = yield* request(t.call, s.token, "POST", "/sales", {
          event: "renewal",
          product,
          email: "once@example.com"
        })
        expect(again.body).toMatchObject({ ok: false, status: "rejected", reason: "not_a_membership" })
        expect(yield* footprint(t, s.workspaceId)).toEqual(after)
      })
    )

    it.effect("refuses it the same way to an automation connection (OAuth scope store)", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const product = yield* live(t.call, s.token, s.customAiId, { billing: "one-time", price_cents: 0 })
        const answer = yield* t.setUp(
          Effect.gen(function* () {
            const user = yield* signUp()
            // The connection acts on the seller's store, as an OAuth token bound to that workspace does.
            const automation = yield* resolveStoreCaller(
              {
                ...user.principal,
                workspaceId: s.workspaceId,
                credential: { kind: "oauth", id: "tok_automation" },
                reach: "account"
              },
              true
            )
            expect(automation.automation).toBe(true)
            return yield* (yield* StoreSales).recordSale(automation, {
              event: "renewal",
              productId: product,
              email: "zap@example.com"
            })
          }).pipe(Effect.orDie)
        )
        expect(answer).toEqual({
          status: "rejected",
          reason: "not_a_membership",
          message: expect.stringContaining("renewal applies to memberships"),
          waitlisted: Option.none()
        })
      })
    )

    it.effect("still renews a membership", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const product = yield* live(t.call, s.token, s.customAiId, { billing: "monthly", price_cents: 0 })
        const renewal = yield* request(t.call, s.token, "POST", "/sales", {
          event: "renewal",
          product,
          email: "member@example.com"
        })
        expect(renewal.body).toEqual({ ok: true, status: "granted" })
      })
    )

    it.effect(
      "answers customer find matches with has_access, products_with_access and one access line per product",
      () =>
        Effect.gen(function* () {
          const t = yield* StoreTest
          const s = yield* t.seller()
          const kept = yield* live(t.call, s.token, s.customAiId, { price_cents: 0 })
          const removed = yield* live(t.call, s.token, yield* s.newCustomAi(), { price_cents: 0 })
          for (const product of [kept, removed]) {
            yield* request(t.call, s.token, "POST", "/customers", {
              product,
              email: "pat@example.com",
              send_email: false
            })
          }
          yield* request(t.call, s.token, "POST", "/customers/remove-access", {
            product: removed,
            email: "pat@example.com"
          })

          const found = yield* request(t.call, s.token, "GET", "/customers/find?email=pat@example.com")
          expect(found.status).toBe(200)
          const [match] = found.body.customers as ReadonlyArray<Record<string, unknown>>
          expect(match).toMatchObject({ email: "pat@example.com", has_access: true, products_with_access: [kept] })
          expect(match).not.toHaveProperty("products")
          const access = (match?.access ?? []) as ReadonlyArray<Record<string, unknown>>
          expect(access).toHaveLength(2)
          expect(access.find((line) => line.product_id === kept)).toMatchObject({
            has_access: true,
            state: "active",
            how: "added"
          })
          expect(access.find((line) => line.product_id === removed)).toMatchObject({
            has_access: false,
            state: "removed"
          })

          const narrowed = yield* request(
            t.call,
            s.token,
            "GET",
            `/customers/find?email=pat@example.com&product=${removed}`
          )
          const [one] = narrowed.body.customers as ReadonlyArray<Record<string, unknown>>
          expect(one).toMatchObject({ has_access: false, products_with_access: [] })
          expect(((one?.access ?? []) as ReadonlyArray<{ product_id: string }>).map((l) => l.product_id)).toEqual([
            removed
          ])
        })
    )

    it.effect(
      "gives next_cursor as a string on every page: after the last row, and where an empty page was asked",
      () =>
        Effect.gen(function* () {
          const t = yield* StoreTest
          const s = yield* t.seller()
          // An empty list still answers a cursor (the start of the list): asked with it, the list reads whole.
          const empty = yield* request(t.call, s.token, "GET", "/sales")
          expect(empty.body).toEqual({ ok: true, data: [], has_more: false, next_cursor: expect.any(String) })
          const start = empty.body.next_cursor as string

          const product = yield* live(t.call, s.token, s.customAiId, { price_cents: 0 })
          for (const n of [1, 2, 3]) {
            yield* request(t.call, s.token, "POST", "/sales", { event: "sale", product, email: `b${n}@example.com` })
          }
          const fromStart = yield* request(t.call, s.token, "GET", `/sales?starting_after=${start}`)
          expect((fromStart.body.data as ReadonlyArray<unknown>).length).toBe(3)

          const first = yield* request(t.call, s.token, "GET", "/sales?limit=2")
          expect(first.body).toMatchObject({ has_more: true, next_cursor: expect.any(String) })
          const last = yield* request(t.call, s.token, "GET", `/sales?limit=2&starting_after=${first.body.next_cursor}`)
          expect(last.body).toMatchObject({ has_more: false, next_cursor: expect.any(String) })
          const lastRows = last.body.data as ReadonlyArray<{ buyer_email: string }>
          expect(lastRows.map((r) => r.buyer_email)).toEqual(["b1@example.com"])
          expect(last.body.next_cursor).not.toBe(first.body.next_cursor)

          // A poller keeps the last page's cursor: nothing is after it, and the answer hands the cursor back.
          const past = yield* request(t.call, s.token, "GET", `/sales?starting_after=${last.body.next_cursor}`)
          expect(past.body).toEqual({ ok: true, data: [], has_more: false, next_cursor: last.body.next_cursor })

          // The same on the customers and products lists.
          for (const path of ["/customers?limit=100", "/products?limit=100"]) {
            const page = yield* request(t.call, s.token, "GET", path)
            expect(page.status, path).toBe(200)
            expect(page.body, path).toMatchObject({ has_more: false, next_cursor: expect.any(String) })
            const after = yield* request(t.call, s.token, "GET", `${path}&starting_after=${page.body.next_cursor}`)
            expect(after.body, path).toEqual({
              ok: true,
              data: [],
              has_more: false,
              next_cursor: page.body.next_cursor
            })
          }
        })
    )
  }
)
