/**
 * The store's checkout with Stripe connected (issue 42), through the real app over HTTP: the seller connects Stripe
 * through the store API, the buyer is sent to Stripe's page (recorded Stripe answers replayed on loopback), and
 * Stripe's signed events sell, renew, cancel, end and refund, each once however often Stripe sends it.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { formOf } from "../support/replay-server.js"
import { Buyer, checkoutSeller, fresh, hiddenFields } from "./checkout-support.js"
import {
  connected,
  eventOf,
  lastAttempt,
  payOnStripe,
  replayed,
  SECRET_KEY,
  type Seller,
  sendEvent,
  stripeAtReplay,
  subscribeOnStripe,
  WEBHOOK_SECRET
} from "./checkout-stripe-support.js"

const CS_PAY = "cs_test_a1Hq7Tz3kR9mW2xN5vB8cL4pY6sD0fG2hJ4kL6mN8pQ0rS2tU4vW6xY8z"
const CS_SUB = "cs_test_b1Kp3Wd6nY9qE2rT5uI8oP1aS4dF7gH0jK3lZ6xC9vB2nM5qW8eR1tY4u"
const CS_LAST = "cs_test_d1Mr5Yf8pA1sG4tV7wK0qR3cU6fH9iJ2lM5nB8zE1xD4oC7"
const CS_QUESTION = "cs_test_q1Ns4Xb7rD0uF3wH6yJ9kM2pR5tV8xZ1cE4gI7lO0qS3uW6yA9"
const SUB = "sub_1QxJ4kLg7TdWvK2mPq8rSt2U"
const PI = "pi_3QxHbRLg7TdWvK2m0A1b2C3d"

/** A seller with Stripe, a product with one place left, a 50 % code usable once, and a buyer's browser. */
const lastPlaceWithCode = (title: string, priceCents: number, code: string) =>
  Effect.gen(function* () {
    const s = yield* connected
    const id = yield* s.product({ title, price_cents: priceCents, quantity_limit: 1, quantity_show_left: true })
    const made = yield* s.storeApi("POST", "/discount-codes", {
      product: id,
      kind: "percent",
      value: 50,
      code,
      max_uses: 1
    })
    const codeId = (made.body.discount_code as { id: string }).id
    return { s, id, codeId, buyer: new Buyer(s.app.url), page: `${s.app.url}/c/${id}` }
  })

const rows = (s: Seller, statement: string) =>
  s.app.setUp(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.orDie(sql.unsafe<Record<string, unknown>>(statement, [s.workspaceId]))
    )
  )

layer(TestApp.layerWith({}, { ports: stripeAtReplay() }), { excludeTestServices: true, timeout: "120 seconds" })(
  `the store's checkout with Stripe on ${engineName}`,
  (it) => {
    it.effect("connecting checks the key with Stripe, keeps it sealed and shows only the account", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const bad = yield* s.storeApi("PUT", "/settings/stripe", { secret_key: "pk_test_123", webhook_secret: "nope" })
        expect(bad.status).toBe(422)
        expect(JSON.stringify(bad.body)).toContain("secret_key")
        const before = replayed().received.length
        const put = yield* s.storeApi("PUT", "/settings/stripe", {
          secret_key: SECRET_KEY,
          webhook_secret: WEBHOOK_SECRET
        })
        expect(put.status, JSON.stringify(put.body)).toBe(200)
        expect(
          replayed()
            .received.slice(before)
            .map((r) => `${r.method} ${r.path}`)
        ).toEqual(["GET /v1/account"])
        const settings = (yield* s.storeApi("GET", "/settings")).body.settings as Record<string, unknown>
        expect(settings).toMatchObject({
          card_processor: "connected",
          stripe: {
            account_id: "acct_1QxHbRLg7TdWvK2m",
            livemode: false,
            webhook_url: `http://svc.test/stripe/webhooks/${s.workspaceId}`
          }
        })
        expect(JSON.stringify(settings)).not.toContain("sk_test")
        expect(JSON.stringify(settings)).not.toContain("whsec_")
        const stored = yield* rows(s, "SELECT * FROM store_processor_accounts WHERE workspace_id = $1")
        expect(JSON.stringify(stored)).not.toContain(SECRET_KEY)
        expect(JSON.stringify(stored)).not.toContain(WEBHOOK_SECRET)

        // Disconnecting forgets the keys and turns the processor off: no falling back to test cards.
        const off = yield* s.storeApi("DELETE", "/settings/stripe")
        expect(off.status).toBe(200)
        expect(off.body.settings).toMatchObject({ card_processor: "none", stripe: null })
        expect((yield* s.storeApi("DELETE", "/settings/stripe")).status).toBe(404)
      })
    )

    it.effect("a one-time sale: Stripe's page, then its signed event sells once, and its refund refunds once", () =>
      Effect.gen(function* () {
        const s = yield* connected
        const id = yield* s.product({ title: "Harbour guide", price_cents: 1900 })
        yield* s.storeApi("POST", "/discount-codes", { product: id, kind: "percent", value: 20, code: "SAVE20" })

        const buyer = new Buyer(s.app.url)
        const page = `${s.app.url}/c/${id}`
        const opened = yield* Effect.promise(() =>
          buyer.open(`${page}?code=SAVE20&utm_source=newsletter`, "https://news.example.net/")
        )
        expect(opened.status).toBe(200)
        expect(opened.text).toContain("Continue to payment")
        expect(opened.text).not.toContain("card_number")
        expect(opened.text).not.toContain("Test mode")
        const email = fresh("ines")
        const typed = { email, name: "Ines" }
        const sent = yield* Effect.promise(() => buyer.post(opened.text, page, typed))
        expect(sent.status, sent.text).toBe(303)
        expect(sent.headers.get("location")).toBe(`https://checkout.stripe.com/c/pay/${CS_PAY}`)
        const { form, attempt } = yield* lastAttempt()
        expect(attempt).toMatch(/^chk_/)
        expect(form?.get("line_items[0][price_data][unit_amount]")).toBe("1520")
        expect(form?.get("customer_email")).toBe(email)
        expect(form?.get("success_url")).toBe(`http://svc.test/c/${id}/done?attempt=${attempt}`)
        // The same form sent again goes to the same page: Stripe is not asked twice.
        const asked = replayed().received.length
        const again = yield* Effect.promise(() => buyer.post(opened.text, page, typed))
        expect(again.status, again.text).toBe(303)
        expect(again.headers.get("location")).toBe(`https://checkout.stripe.com/c/pay/${CS_PAY}`)
        expect(replayed().received.length).toBe(asked)

        // Back from Stripe before its event: the page never sells on its own.
        const early = yield* Effect.promise(() => buyer.open(`${page}/done?attempt=${attempt}`))
        expect(early.text).toContain("Confirming your payment")
        expect(yield* s.sales).toEqual([])

        const completed = eventOf("checkout.session.completed-payment", (o) => {
          o.id = CS_PAY
          o.client_reference_id = attempt
          o.amount_total = 1520
        })
        expect((yield* sendEvent(s, completed, "whsec_wrongwrongwrong0000")).status).toBe(400)
        expect(yield* s.sales).toEqual([])
        expect(yield* sendEvent(s, completed)).toEqual({ status: 200, body: { received: true, result: "applied" } })
        expect((yield* sendEvent(s, completed)).body).toEqual({ received: true, result: "duplicate" })

        const [sale] = yield* s.sales
        expect(sale).toMatchObject({
          buyer_email: email,
          amount_cents: 1520,
          source: "svc_checkout",
          status: "paid",
          test: false,
          discount_code: "SAVE20",
          utm_source: "newsletter",
          referrer: "https://news.example.net/"
        })
        expect(yield* s.events("purchase.created")).toHaveLength(1)
        expect(yield* s.mail).toContainEqual(expect.objectContaining({ recipient: email }))
        expect(yield* s.access).toEqual([{ email, state: "active", how: "bought" }])
        const done = yield* Effect.promise(() => buyer.open(`${page}/done?attempt=${attempt}`))
        expect(done.text).toContain("You now have access to Harbour guide")
        // A live sale is in the sales feed (test sales are not).
        expect((yield* s.storeApi("GET", "/sales/recent")).body.sales).toHaveLength(1)

        // Refunded at Stripe: the sale reads refunded, the access ends, one purchase.refunded however often sent.
        const refund = eventOf("charge.refunded", (o) => {
          o.payment_intent = PI
        })
        expect((yield* sendEvent(s, refund)).body).toMatchObject({ result: "applied" })
        expect((yield* sendEvent(s, refund)).body).toMatchObject({ result: "duplicate" })
        const resent = eventOf("charge.refunded", (o) => {
          o.payment_intent = PI
        })
        expect((yield* sendEvent(s, resent)).body).toMatchObject({ result: "applied" })
        expect(yield* s.events("purchase.refunded")).toHaveLength(1)
        expect((yield* s.sales)[0]).toMatchObject({ status: "refunded" })
        expect(yield* s.access).toEqual([{ email, state: "refunded", how: "bought" }])
        yield* Effect.promise(() => buyer.close())
      })
    )

    it.effect("a yearly membership with a 7-day trial: renewal, cancel and end move access once each", () =>
      Effect.gen(function* () {
        const s = yield* connected
        const id = yield* s.product({ title: "Harbour club", price_cents: 12000, billing: "yearly", trial_days: 7 })
        const buyer = new Buyer(s.app.url)
        const page = `${s.app.url}/c/${id}`
        const opened = yield* Effect.promise(() => buyer.open(page))
        const email = fresh("club")
        const sent = yield* Effect.promise(() => buyer.post(opened.text, page, { email }))
        expect(sent.headers.get("location")).toBe(`https://checkout.stripe.com/c/pay/${CS_SUB}`)
        const { form, attempt } = yield* lastAttempt()
        expect(form?.get("mode")).toBe("subscription")
        expect(form?.get("subscription_data[trial_period_days]")).toBe("7")
        yield* Effect.promise(() => buyer.close())

        const completed = eventOf("checkout.session.completed-trial", (o) => {
          o.id = CS_SUB
          o.client_reference_id = attempt
        })
        expect((yield* sendEvent(s, completed)).body).toMatchObject({ result: "applied" })
        expect((yield* s.sales)[0]).toMatchObject({
          amount_cents: 0,
          billing: "yearly",
          subscription_id: SUB,
          source: "svc_checkout",
          status: "free"
        })
        const trialEnd = yield* rows(s, "SELECT paid_until FROM store_access WHERE workspace_id = $1")
        const paidUntil = new Date(String(trialEnd[0]?.paid_until)).getTime()
        expect(paidUntil - Date.now()).toBeGreaterThan(6.9 * 86_400_000)
        expect(paidUntil - Date.now()).toBeLessThan(7.1 * 86_400_000)

        // The first real charge, after the trial: sent twice, renewed once.
        const renewal = eventOf("invoice.paid", (o) => {
          o.customer_email = email
          o.amount_paid = 12000
        })
        expect((yield* sendEvent(s, renewal)).body).toMatchObject({ result: "applied" })
        expect((yield* sendEvent(s, renewal)).body).toMatchObject({ result: "duplicate" })
        const renewed = yield* s.events("membership.renewed")
        expect(renewed).toHaveLength(1)
        expect(renewed[0]?.data).toMatchObject({ buyer_email: email, subscription_id: SUB, amount_cents: 12000 })

        // Cancelled at Stripe: access stays to the period's end, one membership.cancelled.
        const cancel = eventOf("customer.subscription.updated", () => {})
        expect((yield* sendEvent(s, cancel)).body).toMatchObject({ result: "applied" })
        expect((yield* sendEvent(s, cancel)).body).toMatchObject({ result: "duplicate" })
        expect(yield* s.events("membership.cancelled")).toHaveLength(1)
        expect(yield* s.access).toEqual([{ email, state: "cancelled", how: "bought" }])

        // The subscription's end at Stripe ends the access, once.
        const ended = eventOf("customer.subscription.deleted", () => {})
        expect((yield* sendEvent(s, ended)).body).toMatchObject({ result: "applied" })
        expect((yield* sendEvent(s, ended)).body).toMatchObject({ result: "duplicate" })
        expect(yield* s.events("purchase.membership_ended")).toHaveLength(1)
        expect(yield* s.access).toEqual([{ email, state: "ended", how: "bought" }])
      })
    )

    it.effect("an open Stripe page holds the last place and the code's use until it expires", () =>
      Effect.gen(function* () {
        const { s, codeId, buyer, page } = yield* lastPlaceWithCode("Last seat", 1900, "HALF")
        const opened = yield* Effect.promise(() => buyer.open(`${page}?code=HALF`))
        expect(opened.text).toContain("1 left")
        const sent = yield* Effect.promise(() => buyer.post(opened.text, page, { email: fresh("sam") }))
        expect(sent.headers.get("location")).toBe(`https://checkout.stripe.com/c/pay/${CS_LAST}`)
        yield* Effect.promise(() => buyer.close())

        // While the buyer is on Stripe's page, the place and the code are theirs.
        const other = new Buyer(s.app.url)
        const meanwhile = yield* Effect.promise(() => other.open(`${page}?code=HALF`))
        expect(meanwhile.text).toContain("Sold out")
        expect((yield* s.storeApi("GET", `/discount-codes/${codeId}`)).body.discount_code).toMatchObject({ uses: 1 })

        // Stripe says the page expired unpaid: both come back.
        const expired = eventOf("checkout.session.expired", (o) => {
          o.id = CS_LAST
        })
        expect((yield* sendEvent(s, expired)).body).toMatchObject({ result: "applied" })
        expect((yield* sendEvent(s, expired)).body).toMatchObject({ result: "duplicate" })
        expect((yield* s.storeApi("GET", `/discount-codes/${codeId}`)).body.discount_code).toMatchObject({ uses: 0 })
        const after = yield* Effect.promise(() => other.open(`${page}?code=HALF`))
        expect(after.text).toContain("1 left")
        expect(hiddenFields(after.text, page).code).toBe("HALF")
        yield* Effect.promise(() => other.close())
        expect(yield* s.sales).toEqual([])
      })
    )

    it.effect("a buyer back from Stripe's page without paying gives the place and the code back at once", () =>
      Effect.gen(function* () {
        const { s, id, codeId, buyer, page } = yield* lastPlaceWithCode("Front row", 1700, "ROW50")
        const opened = yield* Effect.promise(() => buyer.open(`${page}?code=ROW50`))
        const sent = yield* Effect.promise(() => buyer.post(opened.text, page, { email: fresh("row") }))
        expect(sent.headers.get("location")).toBe(
          "https://checkout.stripe.com/c/pay/cs_test_j1Tx1El4vG7yM0zB3cQ6wX9iA2lO5pR8sU1tV4xY7zA0bC3dE6fG9h"
        )
        const { form, attempt } = yield* lastAttempt()
        const back = String(form?.get("cancel_url") ?? "")
        expect(back).toBe(`http://svc.test/c/${id}?cancelled=${attempt}`)
        expect((yield* Effect.promise(() => buyer.open(page))).text).toContain("Sold out")
        // Stripe's back link, followed: the place and the code are free again at once.
        const returned = yield* Effect.promise(() => buyer.open(back.replace("http://svc.test", s.app.url)))
        expect(returned.text).toContain("1 left")
        expect((yield* s.storeApi("GET", `/discount-codes/${codeId}`)).body.discount_code).toMatchObject({ uses: 0 })
        yield* Effect.promise(() => buyer.close())
        // Stripe's own expiry later finds nothing left to give back.
        const expired = eventOf("checkout.session.expired", (o) => {
          o.id = "cs_test_j1Tx1El4vG7yM0zB3cQ6wX9iA2lO5pR8sU1tV4xY7zA0bC3dE6fG9h"
        })
        expect((yield* sendEvent(s, expired)).body).toMatchObject({ result: "ignored" })
        expect((yield* s.storeApi("GET", `/discount-codes/${codeId}`)).body.discount_code).toMatchObject({ uses: 0 })
      })
    )

    it.effect(
      "the seller's refund of a Stripe sale is made at Stripe first, and Stripe's event of it counts once",
      () =>
        Effect.gen(function* () {
          const s = yield* connected
          const id = yield* s.product({ title: "Tide tables", price_cents: 2500 })
          const email = fresh("rae")
          const { attempt } = yield* payOnStripe(
            s,
            id,
            { email },
            "cs_test_e1Ns6Zg9qB2tH5uW8xL1rS4dV7gJ0kM3nP6oQ9sT2uV5wX8yZ1aB4c"
          )
          const paid = eventOf("checkout.session.completed-payment", (o) => {
            o.id = "cs_test_e1Ns6Zg9qB2tH5uW8xL1rS4dV7gJ0kM3nP6oQ9sT2uV5wX8yZ1aB4c"
            o.client_reference_id = attempt
            o.payment_intent = "pi_3QxKeRLg7TdWvK2m1E2f3G4h"
            o.amount_total = 2500
          })
          expect((yield* sendEvent(s, paid)).body).toMatchObject({ result: "applied" })
          const [sale] = yield* s.sales
          const refunded = yield* s.storeApi("POST", "/sales", {
            event: "refund",
            product: id,
            email,
            order_id: sale?.order_id
          })
          expect(refunded.body).toEqual({ ok: true, status: "revoked" })
          const asked = replayed().received.filter((r) => r.path === "/v1/refunds")
          expect(asked).toHaveLength(1)
          const form = yield* Effect.promise(() => formOf(asked[0]?.headers ?? {}, asked[0]?.body ?? new Uint8Array()))
          expect(form?.get("payment_intent")).toBe("pi_3QxKeRLg7TdWvK2m1E2f3G4h")
          // Stripe then tells of the refund it made: the same refund, not a second one.
          const told = eventOf("charge.refunded", (o) => {
            o.payment_intent = "pi_3QxKeRLg7TdWvK2m1E2f3G4h"
          })
          expect((yield* sendEvent(s, told)).status).toBe(200)
          expect(yield* s.events("purchase.refunded")).toHaveLength(1)
          expect((yield* s.sales)[0]).toMatchObject({ status: "refunded" })
          expect(yield* s.access).toEqual([{ email, state: "refunded", how: "bought" }])
        })
    )

    it.effect(
      "a membership's charge refunded in Stripe refunds its sale, tied to it through the invoice the payment paid",
      () =>
        Effect.gen(function* () {
          const s = yield* connected
          const id = yield* s.product({ title: "Harbour letters", price_cents: 1300, billing: "monthly" })
          const email = fresh("lee")
          const subscription = "sub_1QxSubLg7TdWvK2mRfd0Ab1C"
          const paid = yield* subscribeOnStripe(
            s,
            id,
            { email },
            {
              session: "cs_test_i1Sw0Dk3uF6xL9yA2bP5vW8hZ1kN4oQ7rT0sU3wX6yZ9aB2cD5eF8g",
              subscription,
              amountCents: 1300
            }
          )
          expect((yield* sendEvent(s, paid)).body).toMatchObject({ result: "applied" })
          // The refund names only its payment, which no event of the subscription named: Stripe is asked which invoice
          // it paid, once, and the refund then counts once however often it is sent.
          const refund = eventOf("charge.refunded", (o) => {
            o.payment_intent = "pi_3QxSubRLg7TdWvK2m9Z8y7X6w"
          })
          expect((yield* sendEvent(s, refund)).body).toMatchObject({ result: "applied" })
          expect((yield* sendEvent(s, refund)).body).toMatchObject({ result: "duplicate" })
          expect(replayed().received.filter((r) => r.path.startsWith("/v1/invoice_payments"))).toHaveLength(1)
          expect(yield* s.events("purchase.refunded")).toHaveLength(1)
          expect((yield* s.sales)[0]).toMatchObject({ status: "refunded", subscription_id: subscription })
          expect(yield* s.access).toEqual([{ email, state: "refunded", how: "bought" }])
        })
    )

    it.effect("removing a Stripe member's access cancels the subscription at Stripe first", () =>
      Effect.gen(function* () {
        const s = yield* connected
        const id = yield* s.product({ title: "Harbour monthly", price_cents: 900, billing: "monthly" })
        const email = fresh("mo")
        const session = "cs_test_f1Pt7Ah0rC3uI6vX9yM2sT5eW8hK1lN4oQ7pR0tU3vW6xY9zA2bC5dE"
        const subscription = "sub_1QxMrmLg7TdWvK2mRmv0Ab1C"
        const paid = yield* subscribeOnStripe(s, id, { email }, { session, subscription, amountCents: 900 })
        expect((yield* sendEvent(s, paid)).body).toMatchObject({ result: "applied" })
        expect((yield* s.sales)[0]).toMatchObject({ amount_cents: 900, status: "paid", subscription_id: subscription })
        const removed = yield* s.storeApi("POST", "/customers/remove-access", { product: id, email })
        expect(removed.body).toEqual({ ok: true, status: "removed" })
        expect(
          replayed().received.filter((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${subscription}`)
        ).toHaveLength(1)
        expect(yield* s.access).toEqual([{ email, state: "removed", how: "bought" }])
        // Stripe's word that the subscription ended changes nothing more.
        const deleted = eventOf("customer.subscription.deleted", (o) => {
          o.id = subscription
        })
        expect((yield* sendEvent(s, deleted)).status).toBe(200)
        expect(yield* s.events("purchase.membership_ended")).toEqual([])
        expect(yield* s.access).toEqual([{ email, state: "removed", how: "bought" }])
      })
    )

    it.effect("when Stripe cannot cancel a member's subscription, their access stays and the answer says so", () =>
      Effect.gen(function* () {
        const s = yield* connected
        const id = yield* s.product({ title: "Harbour weekly", price_cents: 1100, billing: "monthly" })
        const email = fresh("out")
        const session = "cs_test_h1Rv9Cj2tE5wK8xZ1aO4uV7gY0jM3nP6qS9rT2vW5xY8zA1bC4dE7f"
        const subscription = "sub_1QxOutLg7TdWvK2mOut0Ab1C"
        const paid = yield* subscribeOnStripe(s, id, { email }, { session, subscription, amountCents: 1100 })
        expect((yield* sendEvent(s, paid)).body).toMatchObject({ result: "applied" })
        const refused = yield* s.storeApi("POST", "/customers/remove-access", { product: id, email })
        expect(refused.status).toBe(500)
        expect(String(refused.body.message)).toContain(`Stripe did not cancel subscription ${subscription}`)
        expect(String(refused.body.message)).toContain("try again")
        expect(yield* s.access).toEqual([{ email, state: "active", how: "bought" }])
      })
    )

    it.effect("a payment plan is a monthly subscription the service ends at Stripe after its parts", () =>
      Effect.gen(function* () {
        const s = yield* connected
        const id = yield* s.product({
          title: "Boat course",
          price_cents: 12000,
          payment_plan: { count: 3, amount_cents: 4000 }
        })
        const email = fresh("plan")
        const session = "cs_test_g1Qu8Bi1sD4vJ7wY0zN3tU6fX9iL2mO5pR8qS1uV4wX7yZ0aB3cD6eF"
        const subscription = "sub_1QxPlnLg7TdWvK2mPln0Ab1C"
        const paid = yield* subscribeOnStripe(
          s,
          id,
          { email, choice: "plan" },
          { session, subscription, amountCents: 4000 }
        )
        const before = Date.now()
        expect((yield* sendEvent(s, paid)).body).toMatchObject({ result: "applied" })
        expect((yield* s.sales)[0]).toMatchObject({ amount_cents: 4000, billing: "one-time", status: "paid" })
        const ended = replayed().received.filter(
          (r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscription}`
        )
        expect(ended).toHaveLength(1)
        const form = yield* Effect.promise(() => formOf(ended[0]?.headers ?? {}, ended[0]?.body ?? new Uint8Array()))
        const cancelAt = Number(form?.get("cancel_at")) * 1000
        // Three monthly parts from now: 89 to 92 days.
        expect(cancelAt - before).toBeGreaterThan(88 * 86_400_000)
        expect(cancelAt - before).toBeLessThan(93 * 86_400_000)
        // A later part renews nothing (the access is for good), and the plan's end leaves the access as it is.
        const part = eventOf("invoice.paid", (o) => {
          o.amount_paid = 4000
          const parent = o.parent as { subscription_details: { subscription: string } }
          parent.subscription_details.subscription = subscription
        })
        expect((yield* sendEvent(s, part)).status).toBe(200)
        expect(yield* s.events("membership.renewed")).toEqual([])
        const over = eventOf("customer.subscription.deleted", (o) => {
          o.id = subscription
        })
        expect((yield* sendEvent(s, over)).status).toBe(200)
        expect(yield* s.access).toEqual([{ email, state: "active", how: "bought" }])
      })
    )

    it.effect("when Stripe cannot open its page, the buyer is told to try again and the place and code go back", () =>
      Effect.gen(function* () {
        const s = yield* connected
        const id = yield* s.product({
          title: "Chart pack",
          price_cents: 900,
          quantity_limit: 1,
          quantity_show_left: true
        })
        const code = yield* s.storeApi("POST", "/discount-codes", {
          product: id,
          kind: "percent",
          value: 30,
          code: "SEA30"
        })
        const codeId = (code.body.discount_code as { id: string }).id
        const buyer = new Buyer(s.app.url)
        const page = `${s.app.url}/c/${id}`
        const opened = yield* Effect.promise(() => buyer.open(`${page}?code=SEA30`))
        const sent = yield* Effect.promise(() => buyer.post(opened.text, page, { email: fresh("kai") }))
        expect(sent.status).toBe(503)
        expect(sent.text).toContain("The payment page could not be opened")
        expect(sent.text).toContain("Nothing was charged")
        const again = yield* Effect.promise(() => buyer.open(page))
        expect(again.text).toContain("1 left")
        yield* Effect.promise(() => buyer.close())
        expect((yield* s.storeApi("GET", `/discount-codes/${codeId}`)).body.discount_code).toMatchObject({ uses: 0 })
        expect(yield* s.sales).toEqual([])
        // Had Stripe made the page all the same and been paid, its completion still sells: found by the attempt.
        const { attempt } = yield* lastAttempt()
        const paid = eventOf("checkout.session.completed-payment", (o) => {
          o.id = "cs_test_z1NeverSeenHereBecauseItsOpeningTimedOut0000000000000000000"
          o.client_reference_id = attempt
          o.amount_total = 630
        })
        expect((yield* sendEvent(s, paid)).body).toMatchObject({ result: "applied" })
        expect(yield* s.sales).toMatchObject([{ amount_cents: 630, status: "paid", test: false }])
      })
    )

    it.effect("a paid question goes through Stripe's page: its completion asks the question once, live", () =>
      Effect.gen(function* () {
        const s = yield* connected
        const id = yield* s.questionProduct({ title: "Ask the harbourmaster", price_cents: 2500 })
        const email = fresh("quinn")
        const question = "Which berth suits a 9 m boat in winter?"
        // Without the question the buyer is not sent to Stripe at all.
        const buyer = new Buyer(s.app.url)
        const page = `${s.app.url}/c/${id}`
        const opened = yield* Effect.promise(() => buyer.open(page))
        const missing = yield* Effect.promise(() => buyer.post(opened.text, page, { email }))
        yield* Effect.promise(() => buyer.close())
        expect(missing.status).toBe(422)
        expect(missing.text).toContain("Write the question you are paying to ask.")

        const { attempt } = yield* payOnStripe(s, id, { email, name: "Quinn", question }, CS_QUESTION)
        expect(yield* s.events("paid_question.created")).toEqual([])
        const completed = eventOf("checkout.session.completed-payment", (o) => {
          o.id = CS_QUESTION
          o.client_reference_id = attempt
          o.amount_total = 2500
        })
        expect((yield* sendEvent(s, completed)).body).toMatchObject({ result: "applied" })
        expect((yield* sendEvent(s, completed)).body).toMatchObject({ result: "duplicate" })
        const asked = yield* s.events("paid_question.created")
        expect(asked).toHaveLength(1)
        expect(asked[0]?.data).toMatchObject({ text: question, buyer_email: email, amount_cents: 2500, test: false })
        // The answer link leads with the server's public address.
        expect(String(asked[0]?.data.answer_url)).toMatch(/^http:\/\/svc\.test\/q\/pq_/)
        // A live question is in the New Paid Question feed, under its event's id.
        const feed = yield* s.storeApi("GET", `/paid-questions/recent?product=${id}`)
        expect(feed.body.questions).toEqual([
          expect.objectContaining({ question_id: asked[0]?.data.question_id, text: question, test: false })
        ])
        const done = yield* Effect.promise(() => new Buyer(s.app.url).open(`${page}/done?attempt=${attempt}`))
        expect(done.text).toContain("Your question is on its way to the seller.")
      })
    )

    it.effect("a webhook for a store without Stripe, or without a signature, is refused", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const payload = eventOf("checkout.session.expired", () => {})
        expect((yield* sendEvent(s, payload)).status).toBe(404)
        const unsigned = yield* Effect.promise(() =>
          fetch(`${s.app.url}/stripe/webhooks/${s.workspaceId}`, { method: "POST", body: payload })
        )
        expect(unsigned.status).toBe(400)
      })
    )
  }
)
