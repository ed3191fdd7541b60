import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

// Paging 250 sales in one store needs more than the default 60 recorded sales per minute.
const harness = StoreTest.withSaleLimits({ perMinute: 1000 })

const live = (
  call: StoreTest["Type"]["call"],
  token: string,
  customAiId: string,
  fields: Record<string, unknown> = {}
) =>
  Effect.promise(async () => {
    const created = await call(token, "POST", "/products", { custom_ai_id: customAiId, ...fields })
    const id = (created.body.product as { id: string }).id
    const published = await call(token, "POST", `/products/${id}/publish`)
    if (published.status !== 200) throw new Error(JSON.stringify(published.body))
    return id
  })

layer(harness, { timeout: "120 seconds", excludeTestServices: true })(`store API (${engineName})`, (it) => {
  it.effect("refuses missing, malformed and revoked tokens with 401 and a shaped body", () =>
    Effect.gen(function* () {
      const { call } = yield* StoreTest
      const none = yield* Effect.promise(() => call(undefined, "GET", "/me"))
      expect(none.status).toBe(401)
      expect(none.body).toMatchObject({ ok: false, error: "unauthorized" })
      const bad = yield* Effect.promise(() => call("svc_pat_nope", "GET", "/me"))
      expect(bad.status).toBe(401)
      const nowhere = yield* Effect.promise(() => call(undefined, "DELETE", "/nowhere"))
      expect(nowhere.status).toBe(404)
      expect(nowhere.body).toMatchObject({ ok: false, error: "not_found" })
    })
  )

  it.effect("answers 402 below Starter, 403 for store off, and 403 api_key_access for read keys on writes", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* StoreTest
      const free = yield* seller({ plan: "free" })
      expect((yield* Effect.promise(() => call(free.token, "GET", "/me"))).status).toBe(402)
      const off = yield* seller({ access: { kind: "custom", parts: { boards: "edit" } } })
      const offAnswer = yield* Effect.promise(() => call(off.token, "GET", "/me"))
      expect(offAnswer.status).toBe(403)
      expect(offAnswer.body).toMatchObject({ ok: false, error: "forbidden", code: "api_key_access" })
      const reader = yield* seller({ access: { kind: "custom", parts: { store: "read" } } })
      const me = yield* Effect.promise(() => call(reader.token, "GET", "/me"))
      expect(me.status).toBe(200)
      expect(me.body).toMatchObject({ ok: true, store: { workspace_id: reader.workspaceId } })
      const write = yield* Effect.promise(() =>
        call(reader.token, "POST", "/products", { custom_ai_id: reader.customAiId })
      )
      expect(write.status).toBe(403)
      expect(write.body).toMatchObject({ ok: false, error: "forbidden", code: "api_key_access" })
      const sale = yield* Effect.promise(() =>
        call(reader.token, "POST", "/sales", { event: "sale", product: "prod_x", email: "a@example.com" })
      )
      expect(sale.status).toBe(403)
    })
  )

  it.effect("creates a product, refuses publishing until the checklist is met, then publishes", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* StoreTest
      const s = yield* seller({ supportEmail: null })
      const created = yield* Effect.promise(() =>
        call(s.token, "POST", "/products", { custom_ai_id: s.customAiId, price_cents: 2900, billing: "monthly" })
      )
      expect(created.status).toBe(201)
      expect(created.body.can_publish).toBe(false)
      expect((created.body.publish_checklist as Array<{ item: string }>).map((c) => c.item).sort()).toEqual([
        "payment",
        "support_email"
      ])
      const id = (created.body.product as { id: string }).id
      const again = yield* Effect.promise(() => call(s.token, "POST", "/products", { custom_ai_id: s.customAiId }))
      expect(again.status).toBe(409)
      expect(again.body).toMatchObject({ ok: false, error: "conflict" })
      const refused = yield* Effect.promise(() => call(s.token, "POST", `/products/${id}/publish`))
      expect(refused.status).toBe(409)
      const external = yield* Effect.promise(() =>
        call(s.token, "PATCH", `/products/${id}`, {
          checkout_mode: "external",
          checkout_url: "https://pay.example.com/x"
        })
      )
      expect(external.status).toBe(200)
      expect(external.body.publish_checklist).toEqual([expect.objectContaining({ item: "support_email" })])
      const otherStore = yield* seller()
      const hidden = yield* Effect.promise(() => call(otherStore.token, "GET", `/products/${id}`))
      expect(hidden.status).toBe(404)
      expect(hidden.body).toMatchObject({ ok: false, error: "not_found" })
    })
  )

  it.effect("validates product fields with 422 and unknown fields or malformed JSON with 400/422", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* StoreTest
      const s = yield* seller()
      const low = yield* Effect.promise(() =>
        call(s.token, "POST", "/products", { custom_ai_id: s.customAiId, price_cents: 50 })
      )
      expect(low.status).toBe(422)
      expect(low.body).toMatchObject({ ok: false, error: "invalid_field" })
      // A field that may be null fails each member of its union; the answer names it once, saying null is taken too.
      const huge = yield* Effect.promise(() =>
        call(s.token, "POST", "/products", { custom_ai_id: s.customAiId, quantity_limit: 99_999_999_999 })
      )
      expect(huge.status).toBe(422)
      expect(huge.body).toEqual({
        ok: false,
        error: "invalid_field",
        message: "quantity_limit: Expected a number between 1 and 1000000, actual 99999999999 (or null)",
        errors: [
          { path: "quantity_limit", message: "Expected a number between 1 and 1000000, actual 99999999999 (or null)" }
        ]
      })
      // Amounts past $999,999.99 are refused: a sale records the price in a 32-bit column, and no card network
      // charges that much in one payment anyway.
      const pricey = yield* Effect.promise(() =>
        call(s.token, "POST", "/products", {
          custom_ai_id: s.customAiId,
          price_cents: 3_000_000_000,
          billing: "one-time",
          compare_at_cents: 100_000_000,
          payment_plan: { count: 2, amount_cents: 1_500_000_000 }
        })
      )
      expect(pricey.status).toBe(422)
      expect(pricey.body).toMatchObject({
        ok: false,
        error: "invalid_field",
        errors: [
          { path: "price_cents", message: "price_cents must be at most 99999999 cents ($999,999.99)" },
          { path: "compare_at_cents", message: "compare_at_cents must be at most 99999999 cents ($999,999.99)" },
          {
            path: "payment_plan.amount_cents",
            message: "payment_plan.amount_cents must be at most 99999999 cents ($999,999.99)"
          }
        ]
      })
      const yearly = yield* Effect.promise(() =>
        call(s.token, "POST", "/products", { custom_ai_id: s.customAiId, yearly_price_cents: 9900 })
      )
      expect(yearly.status).toBe(422)
      const credits = yield* Effect.promise(() =>
        call(s.token, "POST", "/products", { custom_ai_id: s.customAiId, included_credits: 300 })
      )
      expect(credits.status).toBe(422)
      const unknown = yield* Effect.promise(() =>
        call(s.token, "POST", "/products", { custom_ai_id: s.customAiId, colour: 1 })
      )
      expect(unknown.status).toBe(422)
      const malformed = yield* Effect.promise(() => call(s.token, "POST", "/products", "{not json"))
      expect(malformed.status).toBe(400)
      expect(malformed.body).toMatchObject({ ok: false, error: "bad_request" })
      const limit = yield* Effect.promise(() => call(s.token, "GET", "/sales?limit=101"))
      expect(limit.status).toBe(400)
      expect(limit.body).toMatchObject({ ok: false, error: "bad_request" })
      const lines = Array.from({ length: 13 }, (_, i) => `line ${i}`)
      const many = yield* Effect.promise(() =>
        call(s.token, "POST", "/products", { custom_ai_id: s.customAiId, whats_included: lines })
      )
      expect(many.status).toBe(422)
    })
  )

  it.effect("records sales, renewals, cancels, ends and refunds with the documented statuses", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* StoreTest
      const s = yield* seller({ cardProcessor: "connected" })
      const product = yield* live(call, s.token, s.customAiId, { price_cents: 1500, billing: "monthly" })
      const post = (body: Record<string, unknown>) =>
        Effect.promise(() => call(s.token, "POST", "/sales", { product, email: "buyer@example.com", ...body }))
      expect((yield* post({ event: "cancel" })).body).toMatchObject({
        ok: false,
        status: "rejected",
        reason: "no_access"
      })
      expect((yield* post({ event: "sale", order_id: "o1" })).body).toEqual({ ok: true, status: "granted" })
      expect((yield* post({ event: "sale", order_id: "o1" })).body).toEqual({ ok: true, status: "duplicate" })
      expect((yield* post({ event: "renewal", order_id: "o2" })).body).toEqual({ ok: true, status: "renewed" })
      expect((yield* post({ event: "renewal", order_id: "o2" })).body).toEqual({ ok: true, status: "duplicate" })
      expect((yield* post({ event: "cancel", ends_at: Date.now() + 86_400_000 })).body).toEqual({
        ok: true,
        status: "cancelled"
      })
      expect((yield* post({ event: "end" })).body).toEqual({ ok: true, status: "revoked" })
      expect((yield* post({ event: "sale", order_id: "o3" })).body).toEqual({ ok: true, status: "restored" })
      expect((yield* post({ event: "refund", order_id: "o3" })).body).toEqual({ ok: true, status: "revoked" })
      expect((yield* post({ event: "refund", order_id: "o3" })).body).toEqual({ ok: true, status: "duplicate" })
      expect((yield* post({ event: "refund", order_id: "nope" })).body).toMatchObject({ reason: "order_not_found" })
      expect((yield* post({ event: "sale", product: "prod_missing" })).body).toMatchObject({
        ok: false,
        status: "rejected",
        reason: "product_not_found"
      })
      expect((yield* post({ event: "explode" })).status).toBe(422)

      const draft = yield* s.newCustomAi()
      const draftProduct = yield* Effect.promise(() => call(s.token, "POST", "/products", { custom_ai_id: draft }))
      const draftId = (draftProduct.body.product as { id: string }).id
      expect((yield* post({ event: "sale", product: draftId })).body).toMatchObject({ reason: "product_not_live" })

      // One access email: the first grant; restoring access later sends none.
      expect(yield* (yield* StoreTest).outbox(s.workspaceId)).toEqual([
        { recipient: "buyer@example.com", kind: "store.access" }
      ])
      const customer = yield* Effect.promise(() => call(s.token, "GET", "/customers/buyer@example.com"))
      expect(customer.body).toMatchObject({ ok: true, customer: { email: "buyer@example.com", has_access: false } })

      // Feeds: exactly the events each one should show.
      const sales = yield* Effect.promise(() => call(s.token, "GET", "/sales/recent"))
      expect((sales.body.sales as Array<{ order_id: string }>).map((r) => r.order_id)).toEqual(["o3", "o1"])
      const payments = yield* Effect.promise(() => call(s.token, "GET", "/memberships/payments"))
      expect((payments.body.payments as Array<{ payment: string }>).map((r) => r.payment)).toEqual([
        "first",
        "renewal",
        "first"
      ])
      const changes = yield* Effect.promise(() => call(s.token, "GET", "/memberships/changes"))
      expect((changes.body.changes as Array<{ change: string }>).map((r) => r.change)).toEqual(["ended", "cancelled"])
      const refunds = yield* Effect.promise(() => call(s.token, "GET", "/refunds/recent"))
      expect(refunds.body.refunds).toHaveLength(1)
      const customers = yield* Effect.promise(() => call(s.token, "GET", "/customers/recent"))
      expect(customers.body.customers).toHaveLength(1)
      const rows = yield* Effect.promise(() => call(s.token, "GET", "/sales"))
      const data = rows.body.data as Array<{ id: string; source: string; status: string }>
      expect(data).toHaveLength(2)
      expect(
        data.every((r) => r.id.startsWith("purchase:") && r.source === "own_checkout" && r.status === "paid")
      ).toBe(true)
      const one = yield* Effect.promise(() => call(s.token, "GET", `/sales/${encodeURIComponent(data[0]?.id ?? "")}`))
      expect(one.body).toMatchObject({ ok: true, sale: { id: data[0]?.id } })
      // An unknown event names the events once; a day the calendar lacks is no date (Date read it as 2 March).
      expect((yield* post({ event: "purchase" })).body).toMatchObject({
        error: "invalid_field",
        message: 'event: Expected "sale" | "renewal" | "cancel" | "end" | "refund", actual "purchase"'
      })
      const noSuchDay = yield* Effect.promise(() => call(s.token, "GET", "/sales?created_after=2026-02-30"))
      expect(noSuchDay.status).toBe(400)
      expect(noSuchDay.body).toMatchObject({ error: "bad_request" })
    })
  )

  it.effect("grants once for 50 concurrent copies of one order_id", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* StoreTest
      const s = yield* seller()
      const product = yield* live(call, s.token, s.customAiId)
      const answers = yield* Effect.promise(() =>
        Promise.all(
          Array.from({ length: 50 }, () =>
            call(s.token, "POST", "/sales", { event: "sale", product, email: "rush@example.com", order_id: "same" })
          )
        )
      )
      const statuses = answers.map((a) => a.body.status)
      expect(statuses.filter((x) => x === "granted")).toHaveLength(1)
      expect(statuses.filter((x) => x === "duplicate")).toHaveLength(49)
      const rows = yield* Effect.promise(() => call(s.token, "GET", "/sales"))
      expect(rows.body.data).toHaveLength(1)
    })
  )

  it.effect(
    "pages through 250 sales without gaps or repeats while new sales arrive",
    () =>
      Effect.gen(function* () {
        const { call, seller } = yield* StoreTest
        const s = yield* seller()
        const product = yield* live(call, s.token, s.customAiId)
        const sell = (n: string) =>
          call(s.token, "POST", "/sales", { event: "sale", product, email: `p${n}@example.com`, order_id: n })
        for (let batch = 0; batch < 25; batch++) {
          yield* Effect.promise(() => Promise.all(Array.from({ length: 10 }, (_, i) => sell(`a${batch * 10 + i}`))))
        }
        const seen: Array<string> = []
        let cursor: string | null = null
        let extra = 0
        do {
          const query: string = cursor === null ? "?limit=40" : `?limit=40&starting_after=${cursor}`
          const page = yield* Effect.promise(() => call(s.token, "GET", `/sales${query}`))
          expect(page.status).toBe(200)
          for (const row of page.body.data as Array<{ order_id: string }>) seen.push(row.order_id)
          cursor = page.body.has_more ? (page.body.next_cursor as string) : null
          yield* Effect.promise(() => sell(`b${extra++}`))
        } while (cursor !== null)
        const first = seen.filter((id) => id.startsWith("a"))
        expect(new Set(seen).size).toBe(seen.length)
        expect(first).toHaveLength(250)
      }),
    { timeout: 240_000 }
  )

  it.effect("adds customers for free, keeps access the seller switched off, and finds them", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* StoreTest
      const s = yield* seller()
      const product = yield* live(call, s.token, s.customAiId)
      const add = () =>
        Effect.promise(() => call(s.token, "POST", "/customers", { product, email: "gift@example.com" }))
      expect((yield* add()).body).toEqual({ ok: true, status: "added" })
      expect((yield* add()).body).toEqual({ ok: true, status: "already_has_access" })
      const removed = yield* Effect.promise(() =>
        call(s.token, "POST", "/customers/remove-access", { product, email: "gift@example.com" })
      )
      expect(removed.body).toEqual({ ok: true, status: "removed" })
      expect((yield* add()).body).toMatchObject({ ok: false, status: "rejected", reason: "access_off" })
      const found = yield* Effect.promise(() => call(s.token, "GET", "/customers/find?email=gift@example.com"))
      expect(found.body).toMatchObject({ ok: true, customers: [{ email: "gift@example.com", has_access: false }] })
      const nobody = yield* Effect.promise(() => call(s.token, "GET", "/customers/find?email=nobody@example.com"))
      expect(nobody.body).toEqual({ ok: true, customers: [] })
      const list = yield* Effect.promise(() => call(s.token, "GET", "/customers?has_access=false"))
      expect(list.body.data).toHaveLength(1)
      const recent = yield* Effect.promise(() => call(s.token, "GET", "/sales/recent"))
      expect(recent.body.sales).toEqual([])
    })
  )

  it.effect("serves an OpenAPI file that validates", () =>
    Effect.gen(function* () {
      const { raw } = yield* StoreTest
      const response = yield* Effect.promise(() => raw(new Request("http://store.test/store-app/v1/openapi.json")))
      expect(response.status).toBe(200)
      const document = (yield* Effect.promise(() => response.json())) as Record<string, unknown>
      const { Validator } = yield* Effect.promise(() => import("@seriousme/openapi-schema-validator"))
      const result = yield* Effect.promise(() => new Validator().validate(document))
      expect(result.errors ?? []).toEqual([])
      expect(result.valid).toBe(true)
    })
  )
})
