/**
 * The store's own checkout (issue 42) through the real app over HTTP, as a buyer's browser uses it: `/c/<product>`
 * with the built-in test processor, discount codes, the landing link's attribution, a declined card, the test
 * authentication step, free claims, the waitlist, and 50 buyers racing for 10 places.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { Buyer, checkoutSeller, fresh } from "./checkout-support.js"

const CARD = { card_number: "4242 4242 4242 4242", card_expiry: "12/34", card_cvc: "123" }

type Seller = Effect.Effect.Success<typeof checkoutSeller>

/** Opens the product's checkout page (at `query`), then posts its form with `typed`. */
const checkout = (s: Seller, productId: string, typed: Record<string, string>, query = "", buyer?: Buyer) =>
  Effect.promise(async () => {
    const browser = buyer ?? new Buyer(s.app.url)
    const page = `${s.app.url}/c/${productId}`
    const opened = await browser.open(`${page}${query}`, "https://news.example.net/launch")
    expect(opened.status, opened.text).toBe(200)
    const answer = await browser.post(opened.text, page, typed)
    if (buyer === undefined) await browser.close()
    return answer
  })

layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })(
  `the store's checkout on ${engineName}`,
  (it) => {
    it.effect("sells with the test processor and a 20 % code, keeping the landing link's attribution", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Course", price_cents: 5000, compare_at_cents: 8000 })
        const code = yield* s.storeApi("POST", "/discount-codes", {
          product: id,
          kind: "percent",
          value: 20,
          code: "LAUNCH20",
          max_uses: 5
        })
        expect(code.status, JSON.stringify(code.body)).toBe(201)
        expect(String(code.body.checkout_url)).toBe(`${s.app.url}/c/${id}?code=LAUNCH20`)

        // The page, opened from the code's link with a campaign's parameters.
        const buyer = new Buyer(s.app.url)
        const landing = `${s.app.url}/c/${id}?code=launch20&utm_source=newsletter&utm_medium=email&utm_campaign=fall&fbclid=fb1`
        const opened = yield* Effect.promise(() => buyer.open(landing, "https://news.example.net/launch"))
        expect(opened.status).toBe(200)
        expect(opened.headers.get("x-frame-options")).toBe("DENY")
        expect(opened.text).not.toContain("<script")
        expect(opened.text).toContain("Test mode")
        expect(opened.text).toMatch(/<s>50\.00 USD, paid once<\/s>\s*<strong>40\.00 USD, paid once<\/strong>/)
        expect(opened.text).toContain("80.00 USD")

        const email = fresh("ann")
        const paid = yield* Effect.promise(() =>
          buyer.post(opened.text, `${s.app.url}/c/${id}`, { email: email.toUpperCase(), name: "Ann", ...CARD })
        )
        yield* Effect.promise(() => buyer.close())
        expect(paid.status, paid.text).toBe(200)
        expect(paid.text).toContain("You now have access to Course")

        const [sale] = yield* s.sales
        expect(sale).toMatchObject({
          buyer_email: email,
          buyer_name: "Ann",
          amount_cents: 4000,
          source: "svc_checkout",
          status: "paid",
          discount_code: "LAUNCH20",
          test: true,
          utm_source: "newsletter",
          utm_medium: "email",
          utm_campaign: "fall",
          utm_content: null,
          fbclid: "fb1",
          referrer: "https://news.example.net/launch"
        })
        // The sale through the store API, one purchase.created, the access email, and the code's use counted.
        const listed = yield* s.storeApi("GET", "/sales")
        expect((listed.body.data as Array<Record<string, unknown>>)[0]).toMatchObject({
          source: "svc_checkout",
          discount_code: "LAUNCH20",
          amount: 40,
          test: true,
          utm_source: "newsletter"
        })
        const created = yield* s.events("purchase.created")
        expect(created).toHaveLength(1)
        expect(created[0]?.data).toMatchObject({ how: "bought", source: "svc_checkout", test: true })
        expect(yield* s.events("customer.created")).toMatchObject([{ data: { how: "bought", email } }])
        expect(yield* s.mail).toContainEqual(expect.objectContaining({ recipient: email }))
        expect(yield* s.access).toEqual([{ email, state: "active", how: "bought" }])
        const used = yield* s.storeApi("GET", `/discount-codes/${(code.body.discount_code as { id: string }).id}`)
        expect(used.body.discount_code).toMatchObject({ uses: 1 })
        // A test sale is left out of the sales feed.
        const feed = yield* s.storeApi("GET", "/sales/recent")
        expect(feed.body.sales).toEqual([])
      })
    )

    it.effect("a declined card, a bad card and a refused code leave nothing behind", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Guide", price_cents: 2500 })
        const email = fresh("bob")
        const declined = yield* checkout(s, id, { email, ...CARD, card_number: "4000 0000 0000 0002" })
        expect(declined.status).toBe(402)
        expect(declined.text).toContain("Your card was declined")
        const notTest = yield* checkout(s, id, { email, ...CARD, card_number: "4111 1111 1111 1111" })
        expect(notTest.status).toBe(402)
        expect(notTest.text).toContain("takes test cards only")
        const bad = yield* checkout(s, id, {
          email: "not-an-email",
          card_number: "1234",
          card_expiry: "01/20",
          card_cvc: ""
        })
        expect(bad.status).toBe(422)
        for (const words of [
          "Enter your email address",
          "Enter the card number",
          "This card has expired",
          "security code"
        ]) {
          expect(bad.text).toContain(words)
        }
        const unknownCode = yield* checkout(s, id, { email, code: "NOPE", ...CARD })
        expect(unknownCode.status).toBe(422)
        expect(unknownCode.text).toContain("This discount code does not exist")
        expect(yield* s.sales).toEqual([])
        expect(yield* s.access).toEqual([])
        expect(yield* s.events("purchase.created")).toEqual([])
      })
    )

    it.effect("the authentication test card asks to confirm; confirming pays, refusing does not", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Workshop", price_cents: 9900 })
        const email = fresh("cat")
        const buyer = new Buyer(s.app.url)
        const asked = yield* checkout(s, id, { email, ...CARD, card_number: "4000 0025 0000 3155" }, "", buyer)
        expect(asked.status).toBe(402)
        expect(asked.text).toContain("Confirm the payment")
        const action = `${s.app.url}/c/${id}`
        const refused = yield* Effect.promise(() => buyer.post(asked.text, action, { authenticated: "no" }))
        expect(refused.status).toBe(402)
        expect(refused.text).toContain("not confirmed")
        expect(yield* s.sales).toEqual([])

        const again = yield* checkout(s, id, { email, ...CARD, card_number: "4000 0025 0000 3155" }, "", buyer)
        const confirmed = yield* Effect.promise(() => buyer.post(again.text, action, { authenticated: "yes" }))
        yield* Effect.promise(() => buyer.close())
        expect(confirmed.status, confirmed.text).toBe(200)
        expect(yield* s.sales).toMatchObject([{ buyer_email: email, amount_cents: 9900, status: "paid" }])
      })
    )

    it.effect("a form sent twice sells once and answers that sale both times; included credits come with it", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Pack", price_cents: 3000, included_credits: 100 })
        const email = fresh("gil")
        const buyer = new Buyer(s.app.url)
        const page = `${s.app.url}/c/${id}`
        const opened = yield* Effect.promise(() => buyer.open(page))
        // A double click: the same form, with its one token, twice at once.
        const answers = yield* Effect.promise(() =>
          Promise.all([
            buyer.post(opened.text, page, { email, ...CARD }),
            buyer.post(opened.text, page, { email, ...CARD })
          ])
        )
        yield* Effect.promise(() => buyer.close())
        // Both answer the one sale: the second waits for the first, finds its token spent, and shows its sale.
        expect(answers.map((a) => a.status)).toEqual([200, 200])
        for (const answer of answers) expect(answer.text).toContain("You now have access to Pack")
        expect(yield* s.sales).toHaveLength(1)
        expect(yield* s.events("purchase.created")).toHaveLength(1)
        // The buyer has no account yet: the credits wait for one with that email.
        const pending = yield* s.app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(sql<{ tenths: number }>`SELECT tenths FROM credit_pending_grants WHERE email = ${email}`)
          )
        )
        expect(pending.map((p) => Number(p.tenths))).toEqual([1000])
      })
    )

    it.effect("a checkout sale refunded by its order id ends the access, reads refunded and shows in New Refund", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Notes", price_cents: 1200 })
        const email = fresh("ida")
        expect((yield* checkout(s, id, { email, ...CARD })).status).toBe(200)
        const [sale] = yield* s.sales
        const refunded = yield* s.storeApi("POST", "/sales", {
          event: "refund",
          product: id,
          email,
          order_id: sale?.order_id
        })
        expect(refunded.body).toEqual({ ok: true, status: "revoked" })
        expect(yield* s.access).toEqual([{ email, state: "refunded", how: "bought" }])
        // The service's own checkout's sale reads refunded (an own checkout's keeps its row as it was).
        expect(yield* s.sales).toMatchObject([{ status: "refunded", source: "svc_checkout" }])
        const feed = yield* s.storeApi("GET", "/refunds/recent")
        expect(feed.body.refunds).toMatchObject([{ sale_id: sale?.id, buyer_email: email, source: "svc_checkout" }])
      })
    )

    it.effect("a bundle sold at the checkout gives each of its products", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const one = yield* s.product({ title: "One", price_cents: 1000 })
        const two = yield* s.product({ title: "Two", price_cents: 1000 })
        const saved = yield* Effect.promise(async () => {
          const response = await fetch(`${s.app.url}/v1/tools/svc_save_bundle`, {
            method: "POST",
            headers: { authorization: `Bearer ${s.user.token}`, "content-type": "application/json" },
            body: JSON.stringify({
              productIds: [one, two],
              fields: { title: "Both", price_cents: 1500 },
              status: "live"
            })
          })
          return (await response.json()) as { ok: boolean; bundle: { id: string } }
        })
        expect(saved.ok, JSON.stringify(saved)).toBe(true)
        const email = fresh("hal")
        const paid = yield* checkout(s, saved.bundle.id, { email, ...CARD })
        expect(paid.status, paid.text).toBe(200)
        expect(yield* s.sales).toMatchObject([
          { product_id: saved.bundle.id, amount_cents: 1500, source: "svc_checkout" }
        ])
        const access = yield* s.app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(
              sql<{ product_id: string; state: string }>`SELECT product_id, state FROM store_access
              WHERE workspace_id = ${s.workspaceId} AND email = ${email} ORDER BY product_id`
            )
          )
        )
        expect(access.map((a) => a.product_id).sort()).toEqual([saved.bundle.id, one, two].sort())
        expect(access.every((a) => a.state === "active")).toBe(true)
      })
    )

    it.effect("a free product is claimed without a card, with how free", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Starter kit", price_cents: 0 })
        const page = yield* Effect.promise(() => new Buyer(s.app.url).open(`${s.app.url}/c/${id}`))
        expect(page.text).not.toContain("card_number")
        expect(page.text).toContain("Get it free")
        const email = fresh("dee")
        const claimed = yield* checkout(s, id, { email })
        expect(claimed.status, claimed.text).toBe(200)
        expect(yield* s.sales).toMatchObject([
          { buyer_email: email, amount_cents: 0, status: "free", source: "svc_checkout" }
        ])
        expect(yield* s.events("customer.created")).toMatchObject([{ data: { how: "free" } }])
        expect(yield* s.access).toEqual([{ email, state: "active", how: "free" }])
      })
    )

    it.effect("a membership starts its first period (or its trial) and a yearly price can be picked", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({
          title: "Club",
          price_cents: 1500,
          billing: "monthly",
          yearly_price_cents: 15000,
          trial_days: 7
        })
        const email = fresh("eve")
        const joined = yield* checkout(s, id, { email, choice: "yearly" })
        expect(joined.status, joined.text).toBe(200)
        const [sale] = yield* s.sales
        // A trial charges nothing now; access runs to the trial's end.
        expect(sale).toMatchObject({ billing: "yearly", amount_cents: 0, source: "svc_checkout" })
        expect(String(sale?.subscription_id)).toMatch(/^test_sub_/)
        const paidUntil = yield* s.app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(
              sql<{ paid_until: Date }>`SELECT paid_until FROM store_access WHERE workspace_id = ${s.workspaceId}`
            )
          )
        )
        const days = (new Date(paidUntil[0]?.paid_until ?? 0).getTime() - Date.now()) / 86_400_000
        expect(days).toBeGreaterThan(6.9)
        expect(days).toBeLessThan(7.1)
      })
    )

    it.effect("waitlist mode takes the email only; the page of an unpublished or unknown product says so", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Soon", price_cents: 4000, waitlist_mode: true })
        const email = fresh("fay")
        const page = yield* Effect.promise(() => new Buyer(s.app.url).open(`${s.app.url}/c/${id}`))
        expect(page.text).toContain("Join the waitlist")
        const waiting = yield* checkout(s, id, { email })
        expect(waiting.status).toBe(200)
        expect(waiting.text).toContain("You are on the waitlist")
        expect(yield* s.sales).toEqual([])
        const product = yield* s.storeApi("GET", `/products/${id}`)
        expect(product.body.waitlist_waiting).toBe(1)

        yield* s.storeApi("POST", `/products/${id}/unpublish`)
        const off = yield* Effect.promise(() => new Buyer(s.app.url).open(`${s.app.url}/c/${id}`))
        expect(off.status).toBe(409)
        const none = yield* Effect.promise(() => new Buyer(s.app.url).open(`${s.app.url}/c/prod_nope`))
        expect(none.status).toBe(404)
        const external = yield* s.product({
          title: "Elsewhere",
          price_cents: 1000,
          checkout_mode: "external",
          checkout_url: "https://pay.example.com/x"
        })
        const sent = yield* Effect.promise(() => new Buyer(s.app.url).open(`${s.app.url}/c/${external}`))
        expect(sent.status).toBe(302)
        expect(sent.headers.get("location")).toBe("https://pay.example.com/x")
      })
    )

    it.effect("50 buyers racing for 10 places: exactly 10 sales; a code with max_uses 1 is used once", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({
          title: "Cohort",
          price_cents: 3000,
          quantity_limit: 10,
          quantity_show_left: true
        })
        const code = yield* s.storeApi("POST", "/discount-codes", {
          product: id,
          kind: "amount",
          value: 5,
          code: "ONCE",
          max_uses: 1
        })
        expect(code.status).toBe(201)
        const page = yield* Effect.promise(() => new Buyer(s.app.url).open(`${s.app.url}/c/${id}`))
        expect(page.text).toContain("10 left")
        const answers = yield* Effect.forEach(
          Array.from({ length: 50 }, (_, i) => i),
          (i) =>
            Effect.gen(function* () {
              // Each buyer from an address of their own, as 50 people would be.
              const buyer = new Buyer(s.app.url, `127.0.0.${i + 2}`)
              const typed = { email: fresh("rush"), ...CARD, ...(i % 2 === 0 ? { code: "ONCE" } : {}) }
              const answer = yield* checkout(s, id, typed, "", buyer)
              yield* Effect.promise(() => buyer.close())
              return answer.status
            }),
          { concurrency: "unbounded" }
        )
        const sold = yield* s.sales
        expect(sold).toHaveLength(10)
        expect(answers.filter((status) => status === 200)).toHaveLength(10)
        expect(sold.filter((sale) => sale.discount_code === "ONCE")).toHaveLength(1)
        const used = yield* s.storeApi("GET", `/discount-codes/${(code.body.discount_code as { id: string }).id}`)
        expect(used.body.discount_code).toMatchObject({ uses: 1 })
        const after = yield* Effect.promise(() => new Buyer(s.app.url).open(`${s.app.url}/c/${id}`))
        expect(after.text).toContain("Sold out")
      })
    )
  }
)
