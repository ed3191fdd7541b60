import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Call = StoreTest["Type"]["call"]

const live = (call: Call, token: string, customAiId: string, fields: Record<string, unknown> = {}) =>
  Effect.promise(async () => {
    const created = await call(token, "POST", "/products", { custom_ai_id: customAiId, ...fields })
    const id = (created.body.product as { id: string }).id
    const published = await call(token, "POST", `/products/${id}/publish`)
    if (published.status !== 200) throw new Error(JSON.stringify(published.body))
    return id
  })

const request = (call: Call, token: string, method: string, path: string, body?: unknown) =>
  Effect.promise(() => call(token, method, path, body))

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store quantity limits and waitlists (${engineName})`,
  (it) => {
    it.effect("turns sales and hand-adds away once a limited product has sold out; a refund frees a place", () =>
      Effect.gen(function* () {
        const { call, seller } = yield* StoreTest
        const s = yield* seller({ cardProcessor: "connected" })
        const product = yield* live(call, s.token, s.customAiId, { price_cents: 1500, quantity_limit: 2 })
        const sale = (email: string, order_id: string) =>
          request(call, s.token, "POST", "/sales", { event: "sale", product, email, order_id })
        expect((yield* sale("a@example.com", "o-1")).body).toEqual({ ok: true, status: "granted" })
        const view = yield* request(call, s.token, "GET", `/products/${product}`)
        expect(view.body.quantity_left).toBe(1)
        expect(view.body).not.toHaveProperty("waitlist_waiting")
        expect((yield* sale("b@example.com", "o-2")).body).toEqual({ ok: true, status: "granted" })

        const turned = yield* sale("c@example.com", "o-3")
        expect(turned.status).toBe(200)
        expect(turned.body).toMatchObject({ ok: false, status: "rejected", reason: "sold_out", waitlisted: false })
        expect(turned.body.message).toMatch(/sold out.*quantity_limit/)
        const added = yield* request(call, s.token, "POST", "/customers", { product, email: "d@example.com" })
        expect(added.body).toMatchObject({ ok: false, status: "rejected", reason: "sold_out", waitlisted: false })
        // Someone who has access keeps their place: a second order of theirs still counts.
        expect((yield* sale("a@example.com", "o-4")).body).toEqual({ ok: true, status: "granted" })
        expect((yield* sale("a@example.com", "o-4")).body).toEqual({ ok: true, status: "duplicate" })
        expect((yield* request(call, s.token, "GET", `/products/${product}`)).body.quantity_left).toBe(0)
        // Nothing of the turned-away buyers was recorded.
        const sales = yield* request(call, s.token, "GET", "/sales?email=c@example.com")
        expect(sales.body.data).toEqual([])
        expect((yield* request(call, s.token, "GET", "/customers/find?email=d@example.com")).body).toEqual({
          ok: true,
          customers: []
        })

        const refund = yield* request(call, s.token, "POST", "/sales", {
          event: "refund",
          product,
          email: "a@example.com",
          order_id: "o-1"
        })
        expect(refund.body).toEqual({ ok: true, status: "revoked" })
        expect((yield* request(call, s.token, "GET", `/products/${product}`)).body.quantity_left).toBe(1)
        expect((yield* sale("c@example.com", "o-3")).body).toEqual({ ok: true, status: "granted" })
        expect((yield* sale("e@example.com", "o-5")).body).toMatchObject({ reason: "sold_out" })
      })
    )

    it.effect("sells the last places once under concurrent sales", () =>
      Effect.gen(function* () {
        const { call, seller } = yield* StoreTest
        const s = yield* seller()
        const product = yield* live(call, s.token, s.customAiId, { quantity_limit: 3 })
        const answers = yield* Effect.all(
          Array.from({ length: 10 }, (_, i) =>
            request(call, s.token, "POST", "/sales", { event: "sale", product, email: `buyer${i}@example.com` })
          ),
          { concurrency: "unbounded" }
        )
        expect(answers.filter((a) => a.body.status === "granted")).toHaveLength(3)
        expect(answers.filter((a) => a.body.reason === "sold_out")).toHaveLength(7)
        const customers = yield* request(call, s.token, "GET", `/customers?product=${product}&has_access=true`)
        expect(customers.body.data).toHaveLength(3)
      })
    )

    it.effect("puts turned-away buyers on the waitlist of a sold-out product with quantity_waitlist", () =>
      Effect.gen(function* () {
        const { call, seller } = yield* StoreTest
        const s = yield* seller()
        const product = yield* live(call, s.token, s.customAiId, {
          billing: "monthly",
          quantity_limit: 1,
          quantity_waitlist: true
        })
        const sale = (email: string) => request(call, s.token, "POST", "/sales", { event: "sale", product, email })
        expect((yield* request(call, s.token, "GET", `/products/${product}`)).body).toMatchObject({
          quantity_left: 1,
          waitlist_waiting: 0
        })
        expect((yield* sale("first@example.com")).body).toEqual({ ok: true, status: "granted" })
        const waiting = yield* sale("second@example.com")
        expect(waiting.body).toMatchObject({ ok: false, reason: "sold_out", waitlisted: true })
        expect(waiting.body.message).toMatch(/on its waitlist \(1 waiting\)/)
        expect((yield* sale("second@example.com")).body).toMatchObject({ reason: "sold_out", waitlisted: true })
        const added = yield* request(call, s.token, "POST", "/customers", { product, email: "third@example.com" })
        expect(added.body).toMatchObject({ ok: false, reason: "sold_out", waitlisted: true })
        expect((yield* request(call, s.token, "GET", `/products/${product}`)).body).toMatchObject({
          quantity_left: 0,
          waitlist_waiting: 2
        })

        // The member's end frees the place; the next buyer off the waitlist gets it and leaves the list.
        const end = yield* request(call, s.token, "POST", "/sales", {
          event: "end",
          product,
          email: "first@example.com"
        })
        expect(end.body).toEqual({ ok: true, status: "revoked" })
        expect((yield* sale("second@example.com")).body).toEqual({ ok: true, status: "granted" })
        const view = yield* request(call, s.token, "GET", `/products/${product}`)
        expect(view.body).toMatchObject({ quantity_left: 0, waitlist_waiting: 1 })
        // Renewals are a member's billing, never turned away.
        const renewal = yield* request(call, s.token, "POST", "/sales", {
          event: "renewal",
          product,
          email: "second@example.com"
        })
        expect(renewal.body).toEqual({ ok: true, status: "renewed" })
      })
    )

    it.effect("takes waitlist emails instead of selling while waitlist_mode is on", () =>
      Effect.gen(function* () {
        const { call, seller } = yield* StoreTest
        const s = yield* seller({ cardProcessor: "none" })
        const product = yield* live(call, s.token, s.customAiId, { price_cents: 4900, waitlist_mode: true })
        expect((yield* request(call, s.token, "GET", `/products/${product}`)).body.waitlist_waiting).toBe(0)
        const sale = yield* request(call, s.token, "POST", "/sales", {
          event: "sale",
          product,
          email: "early@example.com",
          order_id: "w-1"
        })
        expect(sale.body).toMatchObject({ ok: false, status: "rejected", reason: "waitlist_mode", waitlisted: true })
        expect(sale.body.message).toMatch(/waitlist_mode/)
        const view = yield* request(call, s.token, "GET", `/products/${product}`)
        expect(view.body).toMatchObject({ waitlist_waiting: 1 })
        expect(view.body).not.toHaveProperty("quantity_left")
        // A hand-added person is not a sale: it is let in, and takes them off the waitlist.
        const added = yield* request(call, s.token, "POST", "/customers", {
          product,
          email: "early@example.com",
          send_email: false
        })
        expect(added.body).toEqual({ ok: true, status: "added" })
        expect((yield* request(call, s.token, "GET", `/products/${product}`)).body.waitlist_waiting).toBe(0)
        const again = yield* request(call, s.token, "POST", "/sales", {
          event: "sale",
          product,
          email: "early@example.com",
          order_id: "w-1"
        })
        expect(again.body).toMatchObject({ reason: "waitlist_mode", waitlisted: false })
        // Products without a waitlist do not carry the count at all.
        const plain = yield* live(call, s.token, yield* s.newCustomAi())
        const plainView = yield* request(call, s.token, "GET", `/products/${plain}`)
        expect(plainView.body).not.toHaveProperty("waitlist_waiting")
        expect(plainView.body).not.toHaveProperty("quantity_left")
      })
    )
  }
)
