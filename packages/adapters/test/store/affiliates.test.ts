/**
 * Affiliates (issue 43) through the real app: a product's program (commission, cookie days, approval) set with
 * `svc_manage_affiliates`; affiliates added by the seller or applying on the store's page; a sale through
 * `/c/<product>?via=<code>` (or, later, through the link's cookie) earns its commission, `affiliate_sale.created`, and
 * so does each renewal of a membership it brought; a refund takes it back and drops it from New Affiliate Sale. Codes
 * of another product or store earn nothing. Time is a clock the test moves.
 */
import { expect, layer } from "@effect/vitest"
import { runDueRenewals } from "@svc/core/store"
import { webhookEventSchema } from "@svc/core/store-api"
import { Effect, Either, Schema } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { ManualClock } from "../support/predictable.js"
import { Buyer, CARD, checkoutSeller, fresh, mailOf, graphqlOf } from "./checkout-support.js"

const DAY = 86_400_000
const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0))

type Seller = Effect.Effect.Success<typeof checkoutSeller>

/** Opens `landing` (a checkout link, maybe with `?via=`), then buys there or at `at` in the same browser. */
const buyThrough = (s: Seller, landing: string, email: string, choice?: string, at = landing) =>
  Effect.promise(async () => {
    const buyer = new Buyer(s.app.url)
    const first = await buyer.open(landing)
    const opened = at === landing ? first : await buyer.open(at)
    const sold = await buyer.post(opened.text, at.split("?")[0] ?? at, {
      ...CARD,
      email,
      name: "Buyer",
      ...(choice === undefined ? {} : { choice })
    })
    await buyer.close()
    expect(sold.status, sold.text).toBe(200)
    return { setCookie: first.headers.get("set-cookie") }
  })

const affiliateSales = (s: Seller, product?: string) =>
  Effect.map(s.storeApi("GET", `/affiliates/sales${product === undefined ? "" : `?product=${product}`}`), (got) => {
    expect(got.status, JSON.stringify(got.body)).toBe(200)
    return got.body.sales as ReadonlyArray<Record<string, unknown>>
  })

const decodes = (data: unknown) =>
  Either.isRight(
    Schema.decodeUnknownEither(webhookEventSchema("affiliate_sale.created"))({
      id: "evt_x",
      type: "affiliate_sale.created",
      created_at: new Date().toISOString(),
      store: { handle: null },
      data
    })
  )

layer(TestApp.layerWith({}, { clock }), { excludeTestServices: true, timeout: "180 seconds" })(
  `affiliates on ${engineName}`,
  (it) => {
    it.effect("a sale through an affiliate's link earns its commission; a refund takes it back", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Writing course", price_cents: 5000 })

        // No program yet: nobody can be added.
        const early = yield* s.tool("svc_manage_affiliates", { action: "add", productId: id, email: "ann@example.org" })
        expect(early.status).toBe(422)
        expect(JSON.stringify(early.body)).toContain("productId")
        const bad = yield* s.tool("svc_manage_affiliates", {
          action: "program",
          productId: id,
          commissionKind: "percent",
          commissionValue: 95,
          cookieDays: 0
        })
        expect(bad.status).toBe(422)
        expect(JSON.stringify(bad.body)).toContain("commissionValue")
        expect(JSON.stringify(bad.body)).toContain("cookieDays")
        const program = yield* s.tool("svc_manage_affiliates", {
          action: "program",
          productId: id,
          commissionKind: "percent",
          commissionValue: 20
        })
        expect(program.status, JSON.stringify(program.body)).toBe(200)
        expect(program.body.program).toMatchObject({ commission_value: 20, cookie_days: 30, approval: true })

        const added = yield* s.tool("svc_manage_affiliates", {
          action: "add",
          productId: id,
          email: "Ann@Example.org",
          name: "Ann",
          code: "Ann-Blog"
        })
        expect(added.status, JSON.stringify(added.body)).toBe(200)
        const ann = added.body.affiliate as { affiliate_id: string; code: string; link: string; status: string }
        expect(ann).toMatchObject({ code: "ann-blog", status: "active" })
        // The link is on the server's public address (the test app gives none: a path).
        expect(ann.link).toBe(`/c/${id}?via=ann-blog`)
        const link = new URL(ann.link, s.app.url).href
        expect((yield* mailOf(s, "store.affiliate_welcome"))[0]).toMatchObject({ recipient: "ann@example.org" })
        const taken = yield* s.storeApi("POST", "/affiliates", {
          product: id,
          email: "bo@example.org",
          code: "ann-blog"
        })
        expect(taken.status).toBe(422)
        expect(JSON.stringify(taken.body)).toContain("code")
        const again = yield* s.storeApi("POST", "/affiliates", { product: id, email: "ann@example.org" })
        expect(again.status).toBe(409)

        // Through the link: the commission is 20% of what was paid; the link leaves its cookie.
        const first = fresh("first")
        const bought = yield* buyThrough(s, link, first)
        expect(bought.setCookie).toContain(`svc_via_${id}=ann-blog`)
        expect(bought.setCookie).toContain("HttpOnly")
        // Back a week later without the link: the cookie still counts.
        clock.advance(7 * DAY)
        const later = fresh("later")
        yield* buyThrough(s, link, later, undefined, `${s.app.url}/c/${id}`)
        // Another store's code and an unknown one earn nothing.
        const other = yield* checkoutSeller
        const otherId = yield* other.product({ title: "Other", price_cents: 1000 })
        yield* other.tool("svc_manage_affiliates", {
          action: "program",
          productId: otherId,
          commissionKind: "fixed",
          commissionValue: 300
        })
        yield* other.tool("svc_manage_affiliates", {
          action: "add",
          productId: otherId,
          email: "cy@example.org",
          code: "cy"
        })
        yield* buyThrough(s, `${s.app.url}/c/${id}?via=cy`, fresh("stranger"))
        yield* buyThrough(s, `${s.app.url}/c/${id}?via=nobody`, fresh("nobody"))

        const sales = yield* affiliateSales(s, id)
        expect(sales.map((row) => [row.buyer_email, row.commission_cents, row.payment])).toEqual([
          [later, 1000, "first"],
          [first, 1000, "first"]
        ])
        expect(sales[0]).toMatchObject({ affiliate_email: "ann@example.org", commission: 10, amount_cents: 5000 })
        expect(String(sales[0]?.id)).toMatch(/^evt_/)
        expect(String(sales[0]?.sale_id)).toMatch(/^purchase:/)
        const events = yield* s.events("affiliate_sale.created")
        expect(events.length).toBe(2)
        for (const event of events) expect(decodes(event.data)).toBe(true)

        // A refund takes the commission back: the sale leaves the feed, and the payout report says so.
        const sale = (yield* s.sales).find((row) => row.buyer_email === first) as { id: string }
        const refund = yield* s.tool("svc_manage_sales", { action: "refund", saleId: sale.id })
        expect(refund.status, JSON.stringify(refund.body)).toBe(200)
        expect((yield* affiliateSales(s)).map((row) => row.buyer_email)).toEqual([later])
        const from = new Date(clock.unsafeCurrentTimeMillis() - DAY).toISOString()
        const to = new Date(clock.unsafeCurrentTimeMillis() + DAY).toISOString()
        const report = yield* s.storeApi("GET", `/affiliates/${ann.affiliate_id}/payouts?from=${from}&to=${to}`)
        expect(report.status, JSON.stringify(report.body)).toBe(200)
        // The test checkout's sales are counted apart: nothing is owed for them.
        expect(report.body).toMatchObject({
          sales: 0,
          commission_cents: 0,
          reversed_cents: 0,
          test_commission_cents: 1000
        })
        const backwards = yield* s.tool("svc_manage_affiliates", {
          action: "payouts",
          affiliateId: ann.affiliate_id,
          from: to,
          to: from
        })
        expect(backwards.status).toBe(422)

        // An own checkout reports the code with its sale: another store's code is refused by name, nothing recorded.
        const ownSale = { event: "sale", product: id, email: fresh("own"), order_id: "own-1" }
        const foreign = yield* s.storeApi("POST", "/sales", { ...ownSale, affiliate: "cy" })
        expect(foreign.status).toBe(422)
        expect(JSON.stringify(foreign.body)).toContain('"path":"affiliate"')
        expect((yield* s.sales).some((row) => row.order_id === "own-1")).toBe(false)
        clock.advance(60_000)
        const own = yield* s.storeApi("POST", "/sales", { ...ownSale, affiliate: "ANN-BLOG" })
        expect(own.status, JSON.stringify(own.body)).toBe(200)
        const [newest] = yield* affiliateSales(s)
        expect(newest).toMatchObject({
          buyer_email: ownSale.email,
          source: "own_checkout",
          test: false,
          commission_cents: 1000
        })

        // Removed: their link earns nothing more.
        const removed = yield* s.tool("svc_manage_affiliates", { action: "remove", affiliateId: ann.affiliate_id })
        expect(removed.body.affiliate).toMatchObject({ status: "removed" })
        yield* buyThrough(s, link, fresh("after"))
        expect((yield* affiliateSales(s)).length).toBe(2)

        // The graph has the same rows and rules.
        const graph = graphqlOf(s)
        const listed = yield* graph(
          `query ($id: String!, $product: String!) { store {
             affiliates(product: $product) { nodes { affiliate_id code status link } }
             affiliate(id: $id) { email status }
             product(id: $product) { affiliateProgram { commission_kind commission_value cookie_days } } } }`,
          { id: ann.affiliate_id, product: id }
        )
        expect(listed.errors).toBeUndefined()
        expect(listed.data).toEqual({
          store: {
            affiliates: {
              nodes: [{ affiliate_id: ann.affiliate_id, code: "ann-blog", status: "removed", link: ann.link }]
            },
            affiliate: { email: "ann@example.org", status: "removed" },
            product: { affiliateProgram: { commission_kind: "percent", commission_value: 20, cookie_days: 30 } }
          }
        })
        const refused = yield* graph(
          `mutation ($id: String!) { decideAffiliate(id: $id, input: { decision: remove }) {
             __typename ... on ToolFailure { status } } }`,
          { id: ann.affiliate_id }
        )
        expect(refused.data).toEqual({ decideAffiliate: { __typename: "ToolFailure", status: "conflict" } })
        const changed = yield* graph(
          `mutation ($id: String!) { setAffiliateProgram(id: $id, input: { cookie_days: 60 }) {
             __typename ... on SetAffiliateProgramPayload { program { cookie_days commission_value } } } }`,
          { id }
        )
        expect(changed.data).toEqual({
          setAffiliateProgram: {
            __typename: "SetAffiliateProgramPayload",
            program: { cookie_days: 60, commission_value: 20 }
          }
        })
      })
    )

    it.effect("people apply on the store's page; a pending one earns nothing; the seller declines, then accepts", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Club", price_cents: 1500, billing: "monthly" })
        const set = yield* s.storeApi("PUT", `/products/${id}/affiliate-program`, {
          commission_kind: "fixed",
          commission_value: 300,
          cookie_days: 7
        })
        expect(set.status, JSON.stringify(set.body)).toBe(200)
        const applyUrl = new URL(String((set.body.program as { apply_url: string }).apply_url), s.app.url).href
        expect(applyUrl).toContain(`/affiliates/${id}`)

        const applicant = yield* Effect.promise(async () => {
          const browser = new Buyer(s.app.url)
          const page = await browser.open(applyUrl)
          const empty = await browser.post(page.text, applyUrl, { email: "nope", code: "X" })
          const again = await browser.open(applyUrl)
          const sent = await browser.post(again.text, applyUrl, {
            email: "dee@example.org",
            name: "Dee",
            note: "I run a newsletter."
          })
          await browser.close()
          return { page, empty, sent }
        })
        expect(applicant.page.status).toBe(200)
        expect(applicant.page.text).toContain("Promote Club")
        expect(applicant.empty.status).toBe(422)
        expect(applicant.empty.text).toContain("the email must be an address")
        expect(applicant.empty.text).toContain('aria-describedby="code-error"')
        expect(applicant.sent.status, applicant.sent.text).toBe(200)
        expect(applicant.sent.text).toContain("when the seller accepts it")

        const applications = yield* s.storeApi("GET", "/affiliates/applications")
        const [application] = applications.body.applications as ReadonlyArray<Record<string, unknown>>
        expect(application).toMatchObject({ email: "dee@example.org", status: "pending", note: "I run a newsletter." })
        expect((yield* s.storeApi("GET", "/affiliates/recent")).body.affiliates).toEqual([])
        const pending = yield* s.storeApi("GET", `/affiliates?product=${id}&status=pending`)
        expect((pending.body.data as ReadonlyArray<{ affiliate_id: string }>).length).toBe(1)
        const dee = String(application?.affiliate_id)
        // A pending applicant's link earns nothing yet.
        yield* buyThrough(s, `${s.app.url}/c/${id}?via=${String(application?.code)}`, fresh("early"), "monthly")
        expect(yield* affiliateSales(s)).toEqual([])
        const declined = yield* s.storeApi("POST", `/affiliates/${dee}`, { decision: "decline" })
        expect(declined.body.affiliate).toMatchObject({ status: "declined" })
        expect((yield* s.storeApi("POST", `/affiliates/${dee}`, { decision: "decline" })).status).toBe(409)
        const accepted = yield* s.storeApi("POST", `/affiliates/${dee}`, { decision: "accept" })
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
        expect(accepted.body.affiliate).toMatchObject({ status: "active", email: "dee@example.org" })
        expect((yield* s.storeApi("GET", "/affiliates/recent")).body.affiliates).toMatchObject([
          { email: "dee@example.org", status: "active" }
        ])
        expect((yield* mailOf(s, "store.affiliate_welcome")).map((m) => m.recipient)).toEqual(["dee@example.org"])
      })
    )

    it.effect("an accepted affiliate's membership sale earns on the sale and on each renewal", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Monthly club", price_cents: 2000, billing: "monthly" })
        const set = yield* s.storeApi("PUT", `/products/${id}/affiliate-program`, {
          commission_kind: "percent",
          commission_value: 10
        })
        const url = new URL(String((set.body.program as { apply_url: string }).apply_url), s.app.url).href
        const applied = yield* Effect.promise(async () => {
          const browser = new Buyer(s.app.url)
          const page = await browser.open(url)
          const sent = await browser.post(page.text, url, { email: "eve@example.org", name: "Eve", code: "eve" })
          await browser.close()
          return sent
        })
        expect(applied.status, applied.text).toBe(200)
        const [application] = (yield* s.storeApi("GET", `/affiliates/applications?product=${id}`)).body
          .applications as ReadonlyArray<{ affiliate_id: string }>
        const accepted = yield* s.storeApi("POST", `/affiliates/${application?.affiliate_id}`, { decision: "accept" })
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
        expect((yield* s.storeApi("GET", "/affiliates/recent")).body.affiliates).toMatchObject([{ code: "eve" }])

        const buyer = fresh("member")
        yield* buyThrough(s, `${s.app.url}/c/${id}?via=eve`, buyer, "monthly")
        clock.advance(32 * DAY)
        expect(yield* s.app.setUp(runDueRenewals())).toBeGreaterThanOrEqual(1)
        // The first payment is a month old, out of the feed's 30 days: the events hold both.
        expect((yield* affiliateSales(s, id)).map((row) => [row.payment, row.commission_cents])).toEqual([
          ["renewal", 200]
        ])
        const events = yield* s.events("affiliate_sale.created")
        expect(events.map((e) => [e.data.payment, e.data.commission_cents, e.data.buyer_email]).sort()).toEqual([
          ["first", 200, buyer],
          ["renewal", 200, buyer]
        ])
        for (const event of events) expect(decodes(event.data)).toBe(true)
      })
    )
  }
)
