import { expect, layer } from "@effect/vitest"
import { StoreSetup } from "@svc/core/store"
import { Effect, TestClock } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Seller = Effect.Effect.Success<ReturnType<Harness["seller"]>>

/** A published product of the seller (a new Custom AI each time), made through the store API. */
// Each product named for its Custom AI, so the top products tell them apart.
const liveProduct = (h: Harness, s: Seller, fields: Record<string, unknown> = {}) =>
  Effect.flatMap(s.newCustomAi(), (customAiId) =>
    h.liveProduct(s, { customAiId, fields: { title: `P ${customAiId.slice(-4)}`, ...fields } })
  )

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

const sell = (h: Harness, s: Seller, productId: string, email: string, orderId?: string) =>
  Effect.gen(function* () {
    const answer = yield* h.tool(s.token, "svc_manage_sales", {
      action: "record",
      event: "sale",
      productId,
      email,
      ...(orderId === undefined ? {} : { orderId })
    })
    expect(answer).toEqual({ ok: true, status: "granted" })
  })

layer(StoreTest.layer, { timeout: "120 seconds" })(`store seller overview (${engineName})`, (it) => {
  it.effect("compares a period's figures with the sales made, against the previous period", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      yield* at("2026-11-01T00:00:00Z")
      const s = yield* h.seller({ cardProcessor: "connected" })
      const course = yield* liveProduct(h, s, { price_cents: 2500 })
      const freebie = yield* liveProduct(h, s)
      const club = yield* liveProduct(h, s, { price_cents: 900, billing: "monthly" })

      // Another store's sales never count.
      const other = yield* h.seller({ cardProcessor: "connected" })
      const otherProduct = yield* liveProduct(h, other, { price_cents: 5000 })

      yield* at("2026-11-10T09:00:00Z") // the previous period
      yield* sell(h, s, course, "old@example.com", "o-0")
      yield* at("2026-11-15T10:00:00Z") // this period
      yield* sell(h, s, course, "ann@example.com", "o-1")
      yield* sell(h, s, course, "bob@example.com", "o-2")
      yield* sell(h, s, freebie, "cid@example.com")
      yield* sell(h, s, club, "dan@example.com", "o-3")
      yield* sell(h, other, otherProduct, "zed@example.com", "z-1")
      yield* at("2026-11-16T08:00:00Z")
      const bobSale = (
        (yield* h.tool(s.token, "svc_manage_sales", { action: "list", email: "bob@example.com" })).sales as Array<{
          id: string
        }>
      )[0]
      const refund = yield* h.tool(s.token, "svc_manage_sales", { action: "refund", saleId: bobSale?.id })
      expect(refund).toMatchObject({ ok: true, status: "revoked" })

      yield* at("2026-11-20T12:00:00Z")
      const week = yield* h.tool(s.token, "svc_get_seller_overview", { period: "7d" })
      expect(week.period).toEqual({ from: "2026-11-13T12:00:00.000Z", to: "2026-11-20T12:00:00.000Z" })
      expect(week.previous).toEqual({ from: "2026-11-06T12:00:00.000Z", to: "2026-11-13T12:00:00.000Z" })
      expect(week.figures).toEqual({
        // Paid rows: ann 2500, bob 2500 (an own checkout's refund leaves the row paid), dan 900.
        revenue_cents: { value: 5900, previous: 2500, change_pct: 136 },
        sales: { value: 4, previous: 1, change_pct: 300 },
        refunds: { value: 1, previous: 0, change_pct: null },
        refunded_cents: { value: 2500, previous: 0, change_pct: null },
        net_revenue_cents: { value: 3400, previous: 2500, change_pct: 36 },
        new_customers: { value: 4, previous: 1, change_pct: 300 },
        active_memberships: { value: 1, previous: 0, change_pct: null }
      })
      expect(week.top_products).toEqual([
        { product_id: course, product_title: expect.any(String), sales: 2, revenue_cents: 5000 },
        { product_id: club, product_title: expect.any(String), sales: 1, revenue_cents: 900 },
        { product_id: freebie, product_title: expect.any(String), sales: 1, revenue_cents: 0 }
      ])
      const events = week.latest_events as Array<{ type: string; summary: string; created_at: string }>
      expect(events).toHaveLength(10)
      expect(events[0]).toMatchObject({
        type: "purchase.refunded",
        created_at: "2026-11-16T08:00:00.000Z",
        summary: expect.stringContaining("bob@example.com")
      })
      expect(events.some((e) => e.summary.includes("zed@example.com"))).toBe(false)

      // The default is 30 days: every sale above is in it, none before it.
      const month = yield* h.tool(s.token, "svc_get_seller_overview", {})
      expect(month.figures).toMatchObject({
        revenue_cents: { value: 8400, previous: 0, change_pct: null },
        sales: { value: 5, previous: 0 },
        new_customers: { value: 5, previous: 0 }
      })

      // from/to: one day, `to` exclusive, compared with the day before.
      const day = yield* h.tool(s.token, "svc_get_seller_overview", { from: "2026-11-15", to: "2026-11-16" })
      expect(day.previous).toEqual({ from: "2026-11-14T00:00:00.000Z", to: "2026-11-15T00:00:00.000Z" })
      expect(day.figures).toMatchObject({
        revenue_cents: { value: 5900, previous: 0 },
        sales: { value: 4, previous: 0 },
        refunds: { value: 0, previous: 0 },
        active_memberships: { value: 1, previous: 0 }
      })
      const later = yield* h.tool(s.token, "svc_get_seller_overview", {
        from: "2026-11-16T00:00:00Z",
        to: "2026-11-16T09:00:00Z"
      })
      expect(later.figures).toMatchObject({ sales: { value: 0, previous: 0 }, refunds: { value: 1, previous: 0 } })

      // A cancelled membership keeps counting while it runs, and stops after its end.
      yield* h.tool(s.token, "svc_manage_sales", {
        action: "record",
        event: "cancel",
        productId: club,
        email: "dan@example.com",
        endsAt: "2026-12-15T00:00:00Z"
      })
      const afterCancel = yield* h.tool(s.token, "svc_get_seller_overview", { period: "7d" })
      expect(afterCancel.figures).toMatchObject({ active_memberships: { value: 1 } })
      const beyond = yield* h.tool(s.token, "svc_get_seller_overview", { from: "2026-12-20", to: "2026-12-21" })
      expect(beyond.figures).toMatchObject({ active_memberships: { value: 0, previous: 0 } })
    })
  )

  it.effect("refuses bad periods as invalid", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      yield* at("2026-11-20T12:00:00Z")
      const s = yield* h.seller()
      const overview = (args: Record<string, unknown>) => h.tool(s.token, "svc_get_seller_overview", args)
      const refused = (args: Record<string, unknown>, path: string) =>
        Effect.gen(function* () {
          const answer = yield* overview(args)
          expect(answer, JSON.stringify(args)).toMatchObject({ ok: false, status: "invalid" })
          expect((answer.errors as Array<{ path: string }>).map((e) => e.path)).toContain(path)
        })
      yield* refused({ period: "2d" }, "period")
      yield* refused({ from: "2026-11-01" }, "to")
      yield* refused({ to: "2026-11-01" }, "from")
      yield* refused({ period: "7d", from: "2026-11-01", to: "2026-11-02" }, "period")
      yield* refused({ from: "2026-11-02", to: "2026-11-02" }, "to")
      yield* refused({ from: "2026-11-03", to: "2026-11-02" }, "to")
      yield* refused({ from: "2025-01-01", to: "2026-01-03" }, "to")
      yield* refused({ from: "2026-02-30", to: "2026-03-02" }, "from")
      yield* refused({ from: "yesterday", to: "2026-03-02" }, "from")
      // 366 days is the longest period.
      expect(yield* overview({ from: "2024-01-01", to: "2025-01-01" })).toMatchObject({ ok: true })
      expect(yield* overview({ storeHandle: "no-such-store" })).toMatchObject({ ok: false, status: "not-found" })
    })
  )

  it.effect("lists the stores a key reaches, with the plan gate and the set-up checklist", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      yield* at("2026-11-20T12:00:00Z")
      const s = yield* h.seller({ supportEmail: null })
      const listed = yield* h.tool(s.token, "svc_list_stores", {})
      const stores = listed.stores as Array<Record<string, unknown>>
      expect(stores).toHaveLength(1)
      expect(listed.nextCursor).toBeUndefined()
      expect(stores[0]).toMatchObject({
        workspaceId: s.workspaceId,
        isDefault: true,
        plan: "starter",
        planAllowsStore: true,
        name: expect.any(String),
        handle: expect.any(String)
      })
      const done = (row: Record<string, unknown> | undefined) =>
        Object.fromEntries(((row?.setup ?? []) as Array<{ item: string; done: boolean }>).map((c) => [c.item, c.done]))
      expect(done(stores[0])).toEqual({ support_email: false, payment: false, product: false, live_product: false })
      expect(((stores[0]?.setup ?? []) as Array<{ message: string }>)[1]?.message).toMatch(
        /card processor.*own checkout/
      )
      // What only the owner or a store key can do says who, where and through which route; no command line.
      for (const item of (stores[0]?.setup ?? []) as Array<{ item: string; message: string }>) {
        expect(item.message).not.toContain("svc store")
        if (item.item === "support_email" || item.item === "payment") {
          expect(item.message).toMatch(/no tool sets/i)
          expect(item.message).toContain("PATCH /store-app/v1/settings")
        }
      }

      // The handle it answers is what the other store tools take.
      const handle = stores[0]?.handle as string
      expect(yield* h.tool(s.token, "svc_get_seller_overview", { storeHandle: handle })).toMatchObject({ ok: true })

      // Publishing needs the support email; the product sells through the seller's own checkout.
      yield* h.setUp(
        Effect.flatMap(StoreSetup, (setup) =>
          setup.set(s.workspaceId, { supportEmail: "help@example.com", cardProcessor: "none" })
        )
      )
      const created = yield* Effect.promise(() =>
        h.call(s.token, "POST", "/products", {
          custom_ai_id: s.customAiId,
          price_cents: 1500,
          checkout_mode: "external",
          checkout_url: "https://pay.example.com/c"
        })
      )
      expect(created.status).toBe(201)
      const draft = ((yield* h.tool(s.token, "svc_list_stores", {})).stores as Array<Record<string, unknown>>)[0]
      expect(done(draft)).toEqual({ support_email: true, payment: true, product: true, live_product: false })
      const id = (created.body.product as { id: string }).id
      expect((yield* Effect.promise(() => h.call(s.token, "POST", `/products/${id}/publish`))).status).toBe(200)
      const live = ((yield* h.tool(s.token, "svc_list_stores", {})).stores as Array<Record<string, unknown>>)[0]
      expect(done(live)).toEqual({ support_email: true, payment: true, product: true, live_product: true })

      // A Free-plan account is refused, naming the plan it needs.
      const free = yield* h.seller({ plan: "free" })
      const refused = yield* h.tool(free.token, "svc_list_stores", {})
      expect(refused).toMatchObject({ ok: false, status: "forbidden" })
      expect(refused.message).toMatch(/Starter plan/)
      expect(yield* h.tool(free.token, "svc_get_seller_overview", {})).toMatchObject({
        ok: false,
        status: "forbidden"
      })
    })
  )

  it.effect("lets a Store-read key read the overview and the stores", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      yield* at("2026-11-20T12:00:00Z")
      const reader = yield* h.seller({ access: { kind: "custom", parts: { store: "read" } } })
      expect(yield* h.tool(reader.token, "svc_list_stores", {})).toMatchObject({ ok: true })
      expect(yield* h.tool(reader.token, "svc_get_seller_overview", { period: "90d" })).toMatchObject({
        ok: true,
        figures: { sales: { value: 0, previous: 0, change_pct: null } }
      })
    })
  )
})
