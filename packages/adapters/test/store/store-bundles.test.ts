import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { ApiKeys } from "@svc/core/auth"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Seller = Effect.Effect.Success<ReturnType<Harness["seller"]>>

interface AccessLine {
  readonly product_id: string
  readonly has_access: boolean
  readonly state: string
  readonly how: string | null
  readonly access_ends_at: string | null
}

const request = (h: Harness, token: string, method: string, path: string, body?: unknown) =>
  Effect.promise(() => h.call(token, method, path, body))

/** A live Custom AI product of the seller (a new Custom AI each time). */
const liveProduct = (h: Harness, s: Seller, fields: Record<string, unknown>) => h.liveProduct(s, { fields })

/** A live bundle of the products, made through svc_save_bundle. */
const liveBundle = (h: Harness, s: Seller, productIds: ReadonlyArray<string>, fields: Record<string, unknown>) =>
  Effect.gen(function* () {
    const saved = yield* h.tool(s.token, "svc_save_bundle", { productIds, fields, status: "live" })
    expect(saved).toMatchObject({ ok: true, can_publish: true })
    return (saved.bundle as { id: string }).id
  })

/** The person's access lines, by product id. */
const accessOf = (h: Harness, s: Seller, email: string) =>
  Effect.gen(function* () {
    const answer = yield* request(h, s.token, "GET", `/customers/${encodeURIComponent(email)}`)
    expect(answer.status).toBe(200)
    const lines = (answer.body.customer as { products: ReadonlyArray<AccessLine> }).products
    return new Map(lines.map((l) => [l.product_id, l]))
  })

const sale = (h: Harness, s: Seller, body: Record<string, unknown>) =>
  Effect.map(request(h, s.token, "POST", "/sales", body), (answer) => answer.body)

const problemPaths = (answer: Record<string, unknown>) =>
  (answer.errors as ReadonlyArray<{ path: string }>).map((p) => p.path)

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(`bundles (${engineName})`, (it) => {
  it.effect("builds and publishes a bundle through svc_save_bundle; the products API shows it with its kind", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      const s = yield* h.seller({ cardProcessor: "connected" })
      const a = yield* liveProduct(h, s, { title: "Alpha", price_cents: 1900 })
      const b = yield* liveProduct(h, s, { title: "Beta", price_cents: 900 })

      const draft = yield* h.tool(s.token, "svc_save_bundle", { productIds: [a, b], fields: { price_cents: 2500 } })
      expect(draft).toMatchObject({
        ok: true,
        bundle: {
          kind: "bundle",
          custom_ai_id: null,
          bundle_product_ids: [a, b],
          status: "draft",
          title: "Alpha + Beta",
          price_cents: 2500,
          whats_included: ["Alpha", "Beta"]
        },
        products: [
          { id: a, title: "Alpha", status: "live" },
          { id: b, title: "Beta", status: "live" }
        ],
        can_publish: true,
        publish_checklist: []
      })
      const id = (draft.bundle as { id: string }).id
      const published = yield* h.tool(s.token, "svc_save_bundle", {
        bundleId: id,
        fields: { title: "Starter kit" },
        status: "live"
      })
      expect(published).toMatchObject({ ok: true, bundle: { id, status: "live", live: true, title: "Starter kit" } })

      const got = yield* h.tool(s.token, "svc_get_bundle", { bundleId: id })
      expect(got).toEqual(published)
      const api = yield* request(h, s.token, "GET", `/products/${id}`)
      expect(api.status).toBe(200)
      expect(api.body.product).toEqual(published.bundle)
      const own = yield* request(h, s.token, "GET", `/products/${a}`)
      expect(own.body.product).toMatchObject({ kind: "custom_ai" })
      expect(own.body.product).not.toHaveProperty("bundle_product_ids")
      const list = yield* request(h, s.token, "GET", "/products?limit=10")
      const rows = list.body.data as ReadonlyArray<{ id: string; kind: string; bundle_product_ids?: unknown }>
      expect(rows.find((r) => r.id === id)).toMatchObject({ kind: "bundle", bundle_product_ids: [a, b] })
      const patched = yield* request(h, s.token, "PATCH", `/products/${id}`, { tagline: "Both, for less" })
      expect(patched.status).toBe(200)
      expect(patched.body.product).toMatchObject({ kind: "bundle", tagline: "Both, for less" })
    })
  )

  it.effect(
    "a bundle sale through POST /sales and svc_manage_sales gives each product; a refund takes back only what it gave",
    () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller({ cardProcessor: "connected" })
        const a = yield* liveProduct(h, s, { title: "Alpha", price_cents: 1900 })
        const b = yield* liveProduct(h, s, { title: "Beta", price_cents: 900 })
        const bundle = yield* liveBundle(h, s, [a, b], { title: "Both", price_cents: 2500 })

        // ann owned Alpha before the bundle; bob had nothing.
        expect(yield* sale(h, s, { event: "sale", product: a, email: "ann@example.com", order_id: "o-ann-a" })).toEqual(
          {
            ok: true,
            status: "granted"
          }
        )
        expect(
          yield* sale(h, s, { event: "sale", product: bundle, email: "ann@example.com", order_id: "o-ann-bundle" })
        ).toEqual({ ok: true, status: "granted" })
        const byTool = yield* h.tool(s.token, "svc_manage_sales", {
          action: "record",
          event: "sale",
          productId: bundle,
          email: "bob@example.com",
          orderId: "o-bob-bundle"
        })
        expect(byTool).toEqual({ ok: true, status: "granted" })

        const ann = yield* accessOf(h, s, "ann@example.com")
        expect(ann.get(a)).toMatchObject({ has_access: true, how: "own_checkout" })
        expect(ann.get(b)).toMatchObject({ has_access: true, how: "bundle" })
        expect(ann.get(bundle)).toMatchObject({ has_access: true, how: "own_checkout" })
        const bob = yield* accessOf(h, s, "bob@example.com")
        expect([bob.get(a), bob.get(b)]).toMatchObject([
          { has_access: true, how: "bundle" },
          { has_access: true, how: "bundle" }
        ])

        const sold = (yield* h.events(s.workspaceId)).filter(
          (e) => e.type === "purchase.created" && e.data.product_id === bundle
        )
        expect(sold.map((e) => [e.data.buyer_email, e.data.bundle_products])).toEqual([
          [
            "ann@example.com",
            [
              { product_id: a, product_title: "Alpha", access: "already_had" },
              { product_id: b, product_title: "Beta", access: "granted" }
            ]
          ],
          [
            "bob@example.com",
            [
              { product_id: a, product_title: "Alpha", access: "granted" },
              { product_id: b, product_title: "Beta", access: "granted" }
            ]
          ]
        ])
        const given = (yield* h.events(s.workspaceId)).filter(
          (e) => e.type === "customer.created" && e.data.email === "bob@example.com"
        )
        expect(given.map((e) => [e.data.product_id, e.data.how, e.data.bundle_id])).toEqual(
          expect.arrayContaining([
            [a, "bundle", bundle],
            [b, "bundle", bundle],
            [bundle, "own_checkout", undefined]
          ])
        )
        expect(given).toHaveLength(3)
        // One access email for the bundle, not one per product.
        expect((yield* h.outbox(s.workspaceId)).filter((m) => m.recipient === "bob@example.com")).toHaveLength(1)
        const bodies = yield* h
          .setUp(
            Effect.flatMap(
              SqlClient.SqlClient,
              (sql) => sql<{ body: string }>`SELECT body FROM mail_outbox WHERE recipient = ${"bob@example.com"}`
            )
          )
          .pipe(Effect.orDie)
        expect(bodies.map((m) => m.body)).toEqual([expect.stringContaining("It includes: Alpha, Beta.")])
        const feed = yield* request(h, s.token, "GET", "/customers/recent")
        expect(feed.status).toBe(200)
        expect(feed.body.customers).toEqual(
          expect.arrayContaining([expect.objectContaining({ product_id: a, how: "bundle", bundle_id: bundle })])
        )
        const salesFeed = yield* request(h, s.token, "GET", "/sales/recent")
        const feedRows = salesFeed.body.sales as ReadonlyArray<Record<string, unknown>>
        const accessGiven = feedRows
          .filter((r) => r.product_id === bundle)
          .map((r) => (r.bundle_products as ReadonlyArray<{ access: string }>).map((l) => l.access))
        expect(accessGiven).toEqual([
          ["granted", "granted"],
          ["already_had", "granted"]
        ])
        expect(feedRows.find((r) => r.product_id === a)).not.toHaveProperty("bundle_products")

        // The refund through the API, and the refund through the tool: one event each, the same change.
        expect(
          yield* sale(h, s, { event: "refund", product: bundle, email: "ann@example.com", order_id: "o-ann-bundle" })
        ).toEqual({ ok: true, status: "revoked" })
        const bobSale = yield* h.tool(s.token, "svc_manage_sales", {
          action: "list",
          productId: bundle,
          email: "bob@example.com"
        })
        const saleId = (bobSale.sales as ReadonlyArray<{ id: string }>)[0]?.id
        const refunded = yield* h.tool(s.token, "svc_manage_sales", { action: "refund", saleId })
        expect(refunded).toMatchObject({ ok: true, status: "revoked" })

        const annAfter = yield* accessOf(h, s, "ann@example.com")
        expect(annAfter.get(a)).toMatchObject({ has_access: true, how: "own_checkout", state: "active" })
        expect(annAfter.get(b)).toMatchObject({ has_access: false, state: "refunded" })
        expect(annAfter.get(bundle)).toMatchObject({ has_access: false, state: "refunded" })
        const bobAfter = yield* accessOf(h, s, "bob@example.com")
        expect([...bobAfter.values()].map((l) => [l.product_id, l.has_access, l.state]).sort()).toEqual(
          [
            [a, false, "refunded"],
            [b, false, "refunded"],
            [bundle, false, "refunded"]
          ].sort()
        )
        const refunds = (yield* h.events(s.workspaceId)).filter((e) => e.type === "purchase.refunded")
        expect(refunds.map((e) => e.data.buyer_email)).toEqual(["ann@example.com", "bob@example.com"])
      })
  )

  it.effect("a monthly bundle: a cancel keeps the access it gave until ends_at, an end takes it away", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      const s = yield* h.seller({ cardProcessor: "connected" })
      const a = yield* liveProduct(h, s, { title: "Alpha", price_cents: 1900, billing: "monthly" })
      const b = yield* liveProduct(h, s, { title: "Beta", price_cents: 0 })
      const bundle = yield* liveBundle(h, s, [a, b], { price_cents: 2500, billing: "monthly" })
      const email = "cat@example.com"
      expect(yield* sale(h, s, { event: "sale", product: bundle, email, order_id: "o-1" })).toMatchObject({ ok: true })
      const endsAt = "2099-01-31T00:00:00.000Z"
      expect(yield* sale(h, s, { event: "cancel", product: bundle, email, ends_at: endsAt })).toEqual({
        ok: true,
        status: "cancelled"
      })
      const cancelled = yield* accessOf(h, s, email)
      for (const id of [bundle, a, b]) {
        expect(cancelled.get(id)).toMatchObject({ has_access: true, state: "cancelled", access_ends_at: endsAt })
      }
      expect(yield* sale(h, s, { event: "renewal", product: bundle, email, order_id: "o-2" })).toMatchObject({
        ok: true,
        status: "renewed"
      })
      const renewed = yield* accessOf(h, s, email)
      expect([renewed.get(bundle), renewed.get(a), renewed.get(b)]).toMatchObject([
        { state: "active", how: "own_checkout", access_ends_at: null },
        { state: "active", how: "bundle", access_ends_at: null },
        { state: "active", how: "bundle", access_ends_at: null }
      ])
      expect(yield* sale(h, s, { event: "end", product: bundle, email })).toEqual({ ok: true, status: "revoked" })
      const ended = yield* accessOf(h, s, email)
      for (const id of [bundle, a, b]) expect(ended.get(id)).toMatchObject({ has_access: false, state: "ended" })
    })
  )

  it.effect("a later sale of a product the bundle gave makes it the buyer's own; a bundle refund leaves it", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      const s = yield* h.seller({ cardProcessor: "connected" })
      const a = yield* liveProduct(h, s, { title: "Alpha", price_cents: 1900 })
      const b = yield* liveProduct(h, s, { title: "Beta", price_cents: 900 })
      const bundle = yield* liveBundle(h, s, [a, b], { price_cents: 2500 })
      const email = "dan@example.com"
      yield* sale(h, s, { event: "sale", product: bundle, email, order_id: "o-b" })
      yield* sale(h, s, { event: "sale", product: a, email, order_id: "o-a" })
      expect((yield* accessOf(h, s, email)).get(a)).toMatchObject({ how: "own_checkout", has_access: true })
      yield* sale(h, s, { event: "refund", product: bundle, email, order_id: "o-b" })
      const after = yield* accessOf(h, s, email)
      expect(after.get(a)).toMatchObject({ has_access: true, state: "active" })
      expect(after.get(b)).toMatchObject({ has_access: false, state: "refunded" })
    })
  )

  it.effect("a free grant of a bundle gives each product; removing the bundle's access removes only what it gave", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      const s = yield* h.seller({ cardProcessor: "connected" })
      const a = yield* liveProduct(h, s, { title: "Alpha", price_cents: 1900 })
      const b = yield* liveProduct(h, s, { title: "Beta", price_cents: 900 })
      const bundle = yield* liveBundle(h, s, [a, b], { price_cents: 2500 })
      const email = "eve@example.com"
      yield* request(h, s.token, "POST", "/customers", { product: b, email })
      const added = yield* request(h, s.token, "POST", "/customers", { product: bundle, email })
      expect(added.body).toEqual({ ok: true, status: "added" })
      const given = yield* accessOf(h, s, email)
      expect(given.get(a)).toMatchObject({ has_access: true, how: "bundle" })
      expect(given.get(b)).toMatchObject({ has_access: true, how: "added" })
      const removed = yield* request(h, s.token, "POST", "/customers/remove-access", { product: bundle, email })
      expect(removed.body).toEqual({ ok: true, status: "removed" })
      const after = yield* accessOf(h, s, email)
      expect(after.get(a)).toMatchObject({ has_access: false, state: "removed" })
      expect(after.get(b)).toMatchObject({ has_access: true, state: "active" })
    })
  )

  it.effect("a bundle whose product has sold out turns the sale away, naming the product, and gives nothing", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      const s = yield* h.seller({ cardProcessor: "connected" })
      const a = yield* liveProduct(h, s, { title: "Alpha", price_cents: 1900, quantity_limit: 1 })
      const b = yield* liveProduct(h, s, { title: "Beta", price_cents: 900 })
      const bundle = yield* liveBundle(h, s, [a, b], { price_cents: 2500 })
      yield* sale(h, s, { event: "sale", product: a, email: "first@example.com", order_id: "o-1" })
      const away = yield* sale(h, s, { event: "sale", product: bundle, email: "late@example.com", order_id: "o-2" })
      expect(away).toMatchObject({ ok: false, status: "rejected", reason: "sold_out" })
      expect(away.message).toContain(a)
      const nobody = yield* request(h, s.token, "GET", "/customers/late%40example.com")
      expect(nobody.status).toBe(404)
      const events = yield* h.events(s.workspaceId)
      expect(events.filter((e) => e.type === "purchase.created" && e.data.product_id === bundle)).toHaveLength(0)
      // The first buyer already holds Alpha's place, so their bundle sale goes through.
      expect(
        yield* sale(h, s, { event: "sale", product: bundle, email: "first@example.com", order_id: "o-3" })
      ).toMatchObject({ ok: true })
    })
  )

  it.effect("refuses bad bundles: too few products, a bundle inside, unknown or other stores' ids, bad fields", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      const s = yield* h.seller({ cardProcessor: "connected" })
      const other = yield* h.seller({ cardProcessor: "connected" })
      const a = yield* liveProduct(h, s, { title: "Alpha", price_cents: 1900 })
      const b = yield* liveProduct(h, s, { title: "Beta", price_cents: 900 })
      const draft = yield* request(h, s.token, "POST", "/products", { custom_ai_id: s.customAiId })
      const c = (draft.body.product as { id: string }).id
      const foreign = yield* liveProduct(h, other, { title: "Theirs" })
      const bundle = yield* liveBundle(h, s, [a, b], { price_cents: 2500 })
      const before = (yield* request(h, s.token, "GET", "/products?limit=100")).body.data as ReadonlyArray<unknown>

      const one = yield* h.tool(s.token, "svc_save_bundle", { productIds: [a] })
      expect(one).toMatchObject({ ok: false, status: "invalid" })
      expect(problemPaths(one)).toEqual(["productIds"])
      const nested = yield* h.tool(s.token, "svc_save_bundle", { productIds: [a, bundle] })
      expect(nested).toMatchObject({ ok: false, status: "invalid" })
      expect(nested.message).toContain("is a bundle")
      const twice = yield* h.tool(s.token, "svc_save_bundle", { productIds: [a, a] })
      expect(twice).toMatchObject({ ok: false, status: "invalid" })
      for (const id of ["prod_nope", foreign]) {
        const missing = yield* h.tool(s.token, "svc_save_bundle", { productIds: [a, id] })
        expect(missing).toMatchObject({ ok: false, status: "not-found" })
      }
      const noIds = yield* h.tool(s.token, "svc_save_bundle", { fields: { title: "Nothing" } })
      expect(problemPaths(noIds)).toEqual(["productIds"])
      const badType = yield* h.tool(s.token, "svc_save_bundle", {
        productIds: [a, b],
        fields: { price_cents: "cheap", bogus: 1 }
      })
      expect(badType).toMatchObject({ ok: false, status: "invalid" })
      expect(problemPaths(badType).sort()).toEqual(["fields.bogus", "fields.price_cents"])
      const badRule = yield* h.tool(s.token, "svc_save_bundle", { productIds: [a, b], fields: { price_cents: 50 } })
      expect(problemPaths(badRule)).toEqual(["fields.price_cents"])
      // Publishing with a draft product inside is refused, and the whole call leaves nothing behind.
      const notLive = yield* h.tool(s.token, "svc_save_bundle", { productIds: [a, c], status: "live" })
      expect(notLive).toMatchObject({ ok: false, status: "conflict" })
      expect(notLive.message).toContain(c)
      const after = (yield* request(h, s.token, "GET", "/products?limit=100")).body.data as ReadonlyArray<unknown>
      expect(after).toHaveLength(before.length)

      const notBundle = yield* h.tool(s.token, "svc_get_bundle", { bundleId: a })
      expect(notBundle).toMatchObject({ ok: false, status: "not-found" })
      expect(notBundle.message).toContain("svc_get_custom_ai_product")
      const theirs = yield* h.tool(other.token, "svc_get_bundle", { bundleId: bundle })
      expect(theirs).toMatchObject({ ok: false, status: "not-found" })
      const swap = yield* h.tool(s.token, "svc_save_bundle", { bundleId: bundle, productIds: [a, c] })
      expect(swap).toMatchObject({ ok: false, status: "invalid" })
      expect((yield* h.tool(s.token, "svc_get_bundle", { bundleId: bundle })).products).toMatchObject([
        { id: a },
        { id: b }
      ])
    })
  )

  it.effect("a Store-read key can get a bundle but not save one", () =>
    Effect.gen(function* () {
      const h = yield* StoreTest
      const s = yield* h.seller({ cardProcessor: "connected" })
      const a = yield* liveProduct(h, s, { title: "Alpha" })
      const b = yield* liveProduct(h, s, { title: "Beta" })
      const bundle = yield* liveBundle(h, s, [a, b], {})
      const reader = yield* h
        .setUp(
          Effect.gen(function* () {
            const keys = yield* ApiKeys
            const principal = yield* keys.authenticate(s.token)
            return yield* keys.create(principal.accountId, { access: { kind: "custom", parts: { store: "read" } } })
          })
        )
        .pipe(Effect.orDie)
      const read = yield* h.tool(reader.token, "svc_get_bundle", { bundleId: bundle })
      expect(read).toMatchObject({ ok: true, bundle: { id: bundle, kind: "bundle" } })
      const save = yield* h.tool(reader.token, "svc_save_bundle", { bundleId: bundle, fields: { title: "Theirs" } })
      expect(save).toMatchObject({ ok: false, status: "forbidden" })
      const create = yield* h.tool(reader.token, "svc_save_bundle", { productIds: [a, b] })
      expect(create).toMatchObject({ ok: false, status: "forbidden" })
      const after = yield* h.tool(s.token, "svc_get_bundle", { bundleId: bundle })
      expect(after.bundle).toEqual(read.bundle)
    })
  )
})
