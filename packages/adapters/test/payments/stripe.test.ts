/**
 * The Stripe card processor through Stripe's official library, against recorded API exchanges replayed on loopback
 * and webhook events signed with the library's own test helper (no Stripe account is reachable here; see
 * recordings/stripe/PROVENANCE.md): what it sends, how it reads the answers and the errors, and the events.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import type { HostedPaymentRequest, ProcessorKey } from "@svc/core/store"
import { Effect } from "effect"
import Stripe from "stripe"
import { makeStripeProcessor, type StripeProcessorOptions } from "../../src/payments/stripe.js"
import { ManualClock } from "../support/predictable.js"
import { formOf, loadRecording, type ReceivedRequest, startReplayServer } from "../support/replay-server.js"

const KEY = "sk_test_51QxHbRLg7TdWvK2mReplayKeyNotARealKey0000000000000000000000000000000000000000000Qz7w"
/** A store's own secret key, as the processor is called with it. */
const own = (secretKey: string): ProcessorKey => ({ secretKey, account: null })
const LIVE_KEY = "sk_live_51QxHbRLg7TdWvK2mReplayLiveKeyNotARealKey00000000000000000000000000000000000000000Lv9k"
const RESTRICTED_KEY = "rk_test_51QxHbRLg7TdWvK2mRestrictedReplayKey0000Xq2v"
const ACCOUNT = "acct_1QxHbRLg7TdWvK2m"
const REF_PAY = "chk_01JK3V8W2YQ6R5N4M7P9T1X3ZA"
const REF_SUB = "chk_01JK3V9C4HD8F2G6J1K5L7M9NB"
const CS_PAY = "cs_test_a1Hq7Tz3kR9mW2xN5vB8cL4pY6sD0fG2hJ4kL6mN8pQ0rS2tU4vW6xY8z"
const CS_SUB = "cs_test_b1Kp3Wd6nY9qE2rT5uI8oP1aS4dF7gH0jK3lZ6xC9vB2nM5qW8eR1tY4u"
const COUPON = "Q7nF3xKa"
const SUB = "sub_1QxJ4kLg7TdWvK2mPq8rSt2U"
const PI = "pi_3QxHbRLg7TdWvK2m0A1b2C3d"
const NOW = 1796032800 // 2026-11-30T10:00:00Z, the recordings' present
const EXPIRES = NOW + 3600
const TRIAL_END = 1796637600
const YEAR_END = 1828173600
const END_AT = 1811671200
const WEBHOOK_SECRET = "whsec_Hq7Tz3kR9mW2xN5vB8cL4pY6sD0fG2hJ"

const at = (seconds: number) => new Date(seconds * 1000)

const recordings = new URL("./recordings/stripe/", import.meta.url)
const replay = (scenario: string) => startReplayServer(loadRecording(new URL(`${scenario}.json`, recordings)).exchanges)

const processorAt = (origin: string, options: StripeProcessorOptions = {}) =>
  makeStripeProcessor({ apiBase: origin, maxNetworkRetries: 0, timeoutMs: 2_000, ...options })

/** The form fields a request sent, as Stripe's server reads them. */
const fieldsOf = (request: ReceivedRequest | undefined) =>
  Effect.promise(async () => {
    if (request === undefined) throw new Error("no such request")
    const form = await formOf(request.headers, request.body)
    if (form === undefined) throw new Error("the request has no form body")
    return Object.fromEntries([...form.entries()].map(([name, value]) => [name, String(value)]))
  })

const base = (reference: string): Omit<HostedPaymentRequest, "mode" | "amountCents" | "interval" | "productName"> => ({
  key: own(KEY),
  reference,
  email: "ines@example.org",
  trialDays: null,
  firstDiscount: null,
  successUrl: `https://shop.harbourlog.example/checkout/${reference}/done`,
  cancelUrl: `https://shop.harbourlog.example/checkout/${reference}/cancelled`,
  expiresAt: at(EXPIRES),
  metadata: { svc_workspace: "ws_harbour", svc_product: "prod_tide_tables" }
})

const onePayment: HostedPaymentRequest = {
  ...base(REF_PAY),
  mode: "payment",
  productName: "Tide Tables 2027 & Almanac",
  amountCents: 1900,
  interval: null
}

const common = (reference: string) => ({
  customer_email: "ines@example.org",
  client_reference_id: reference,
  success_url: `https://shop.harbourlog.example/checkout/${reference}/done`,
  cancel_url: `https://shop.harbourlog.example/checkout/${reference}/cancelled`,
  expires_at: String(EXPIRES),
  "metadata[svc_workspace]": "ws_harbour",
  "metadata[svc_product]": "prod_tide_tables"
})

describe("Stripe processor: API calls", () => {
  it.scopedLive("checks a key: the account it belongs to, and live mode from the key", () =>
    Effect.gen(function* () {
      const server = yield* replay("account")
      const processor = processorAt(server.origin)
      expect(yield* processor.checkKey(KEY)).toEqual({ accountId: ACCOUNT, livemode: false })
      expect(yield* processor.checkKey(LIVE_KEY)).toEqual({ accountId: ACCOUNT, livemode: true })
      // Each key is sent as its own bearer (the recordings match on it), on the library's pinned API version.
      yield* server.check({ allUsed: true })
      expect(server.received.map((r) => r.headers["stripe-version"])).toEqual([
        "2026-10-28.endive",
        "2026-10-28.endive"
      ])
    })
  )

  it.scopedLive("a key Stripe turns away is bad_key, and the message shows neither the key nor its masked end", () =>
    Effect.gen(function* () {
      const server = yield* replay("bad-key")
      const failure = yield* Effect.flip(processorAt(server.origin).checkKey(KEY))
      expect(failure._tag).toBe("ProcessorFailure")
      expect(failure.reason).toBe("bad_key")
      expect(failure.message).toContain("Invalid API Key provided")
      expect(failure.message).toContain("store settings")
      expect(failure.message).not.toContain(KEY)
      expect(failure.message).not.toContain("Qz7w")
      expect(failure.message).not.toContain("****")
    })
  )

  it.scopedLive("opens a Checkout page for one payment: what it sends, and the page it answers", () =>
    Effect.gen(function* () {
      const server = yield* replay("payment-session")
      const payment = yield* processorAt(server.origin).startPayment(onePayment)
      expect(payment.sessionId).toBe(CS_PAY)
      expect(payment.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_a1Hq7Tz3/)
      yield* server.check({ allUsed: true })
      const [sent] = server.received
      expect(sent?.headers["idempotency-key"]).toBe(`${REF_PAY}:session`)
      expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(yield* fieldsOf(sent)).toEqual({
        mode: "payment",
        "line_items[0][quantity]": "1",
        "line_items[0][price_data][currency]": "usd",
        "line_items[0][price_data][unit_amount]": "1900",
        "line_items[0][price_data][product_data][name]": "Tide Tables 2027 & Almanac",
        "payment_intent_data[metadata][svc_workspace]": "ws_harbour",
        "payment_intent_data[metadata][svc_product]": "prod_tide_tables",
        ...common(REF_PAY)
      })
    })
  )

  it.scopedLive(
    "opens a yearly subscription with a 7-day trial and 20 % off the first payment: a coupon, then the page",
    () =>
      Effect.gen(function* () {
        const server = yield* replay("subscription-session")
        const payment = yield* processorAt(server.origin).startPayment({
          ...base(REF_SUB),
          mode: "subscription",
          productName: "Tide Tables Club",
          amountCents: 4800,
          interval: "year",
          trialDays: 7,
          firstDiscount: { percentOff: 20 }
        })
        expect(payment.sessionId).toBe(CS_SUB)
        yield* server.check({ allUsed: true })
        const [couponCall, sessionCall] = server.received
        expect(couponCall?.path).toBe("/v1/coupons")
        expect(couponCall?.headers["idempotency-key"]).toBe(`${REF_SUB}:coupon`)
        expect(yield* fieldsOf(couponCall)).toEqual({
          percent_off: "20",
          duration: "once",
          max_redemptions: "1",
          "metadata[svc_workspace]": "ws_harbour",
          "metadata[svc_product]": "prod_tide_tables"
        })
        expect(sessionCall?.headers["idempotency-key"]).toBe(`${REF_SUB}:session`)
        expect(yield* fieldsOf(sessionCall)).toEqual({
          mode: "subscription",
          "line_items[0][quantity]": "1",
          "line_items[0][price_data][currency]": "usd",
          "line_items[0][price_data][unit_amount]": "4800",
          "line_items[0][price_data][product_data][name]": "Tide Tables Club",
          "line_items[0][price_data][recurring][interval]": "year",
          "subscription_data[metadata][svc_workspace]": "ws_harbour",
          "subscription_data[metadata][svc_product]": "prod_tide_tables",
          "subscription_data[trial_period_days]": "7",
          "discounts[0][coupon]": COUPON,
          ...common(REF_SUB)
        })
      })
  )

  it.effect("refuses a subscription without an interval before asking Stripe anything", () =>
    Effect.gen(function* () {
      // Nothing listens at this address: a request would fail as unavailable, not refused.
      const failure = yield* Effect.flip(
        processorAt("http://127.0.0.1:9").startPayment({
          ...base(REF_SUB),
          mode: "subscription",
          productName: "Tide Tables Club",
          amountCents: 4800,
          interval: null,
          firstDiscount: { amountOffCents: 500 }
        })
      )
      expect(failure.reason).toBe("refused")
      expect(failure.message).toContain("billing interval")
    })
  )

  it.scopedLive("a 500 is retried with the same idempotency key, and the page opens once", () =>
    Effect.gen(function* () {
      const server = yield* replay("retry")
      const payment = yield* processorAt(server.origin, { maxNetworkRetries: 2 }).startPayment(onePayment)
      expect(payment.sessionId).toBe(CS_PAY)
      yield* server.check({ allUsed: true })
      expect(server.received.map((r) => [r.answeredBy, r.headers["idempotency-key"]])).toEqual([
        ["Stripe fails once (500 api_error)", `${REF_PAY}:session`],
        ["the library's retry, with the same idempotency key, opens the page", `${REF_PAY}:session`]
      ])
    })
  )

  it.scopedLive("Stripe failing on every try is unavailable, with Stripe's request id", () =>
    Effect.gen(function* () {
      const server = yield* replay("unavailable")
      const failure = yield* Effect.flip(processorAt(server.origin, { maxNetworkRetries: 1 }).startPayment(onePayment))
      expect(failure.reason).toBe("unavailable")
      expect(failure.message).toContain("An unknown error occurred")
      expect(failure.message).toContain("req_Err5oo9Kd3Vm2q")
      expect(failure.message).toContain("Try again")
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("a stuck answer is a timeout after timeoutMs", () =>
    Effect.gen(function* () {
      const server = yield* replay("timeout")
      const started = Date.now()
      const failure = yield* Effect.flip(processorAt(server.origin, { timeoutMs: 200 }).checkKey(KEY))
      expect(failure.reason).toBe("timeout")
      expect(failure.message).toContain("200 ms")
      expect(Date.now() - started).toBeLessThan(2_000)
    })
  )

  it.scopedLive("a session without a page address is refused", () =>
    Effect.gen(function* () {
      const server = yield* replay("session-without-url")
      const failure = yield* Effect.flip(processorAt(server.origin).startPayment(onePayment))
      expect(failure.reason).toBe("refused")
      expect(failure.message).toContain(CS_PAY)
    })
  )

  it.scopedLive(
    "cancels a subscription now; one already gone counts as done, one of the other mode does not; a key without the right is bad_key",
    () =>
      Effect.gen(function* () {
        const server = yield* replay("subscriptions")
        const processor = processorAt(server.origin)
        yield* processor.cancelSubscription(own(KEY), SUB)
        yield* processor.cancelSubscription(own(KEY), "sub_1QwZ8aLg7TdWvK2mGone0000")
        const refused = yield* Effect.flip(
          processor.cancelSubscription(own(RESTRICTED_KEY), "sub_1QwZ9bLg7TdWvK2mLock0000")
        )
        expect(refused.reason).toBe("bad_key")
        expect(refused.message).toContain("rak_subscription_write")
        expect(refused.message).not.toContain("Xq2v")
        expect(refused.message).not.toContain(RESTRICTED_KEY)

        // resource_missing for a subscription of the other mode is not done: it is still running there.
        const otherMode = yield* Effect.flip(processor.cancelSubscription(own(LIVE_KEY), SUB))
        expect(otherMode.reason).toBe("refused")
        expect(otherMode.message).toContain("a similar object exists in test mode")

        yield* processor.endSubscriptionAt(own(KEY), SUB, at(END_AT))
        yield* server.check({ allUsed: true })
        const end = server.received[4]
        expect([end?.method, end?.path]).toEqual(["POST", `/v1/subscriptions/${SUB}`])
        expect(yield* fieldsOf(end)).toEqual({ cancel_at: String(END_AT) })
      })
  )

  it.scopedLive("refunds a whole payment once; one already refunded counts as done; an unknown one is refused", () =>
    Effect.gen(function* () {
      const server = yield* replay("refunds")
      const processor = processorAt(server.origin)
      yield* processor.refund(own(KEY), PI)
      yield* processor.refund(own(KEY), "pi_3QwY7cLg7TdWvK2m1Done000")
      const refused = yield* Effect.flip(processor.refund(own(KEY), "pi_3QwY8dLg7TdWvK2m1Unkn000"))
      expect(refused.reason).toBe("refused")
      expect(refused.message).toContain("No such payment_intent")
      expect(refused.message).toContain("req_Nx9Wp3Dy7Pv1Be")
      yield* server.check({ allUsed: true })
      expect(server.received[0]?.headers["idempotency-key"]).toBe(`refund:${PI}`)
      expect(yield* fieldsOf(server.received[0])).toEqual({ payment_intent: PI })
    })
  )
})

describe("Stripe processor: Stripe Connect", () => {
  const PLATFORM_KEY = "sk_test_51QzPlatFormKeyNotARealKey0000000000000000000000000000000000000000000000000Pf4m"
  const CONNECTED = "acct_1QzConnSellerLg7TdW"

  it.scopedLive("redeems a seller's code for their account, acts for it with the platform's key, and lets it go", () =>
    Effect.gen(function* () {
      const server = yield* replay("connect")
      const processor = processorAt(server.origin)
      expect(yield* processor.connectAccount(PLATFORM_KEY, "ac_QzGoodCodeFromStripe01")).toEqual({
        accountId: CONNECTED,
        livemode: false
      })
      const used = yield* Effect.flip(processor.connectAccount(PLATFORM_KEY, "ac_QzUsedCode000000000002"))
      expect(used.reason).toBe("refused")
      expect(used.message).toContain("Authorization code already used")
      // A call for the connected account names it (Stripe-Account), with the platform's key as the bearer.
      yield* processor.refund({ secretKey: PLATFORM_KEY, account: CONNECTED }, "pi_3QzConnLg7TdWvK2m0A1b2C3d")
      yield* processor.disconnectAccount(PLATFORM_KEY, "ca_QzPlatformClientId0000000001", CONNECTED)
      yield* server.check({ allUsed: true })
      expect(server.received[2]?.headers["stripe-account"]).toBe(CONNECTED)
      expect(server.received[0]?.headers["stripe-account"]).toBeUndefined()
    })
  )

  it.effect("an event of the Connect endpoint names its account; a deauthorization disconnects", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("account.application.deauthorized"))).toEqual({
        account: CONNECTED,
        kind: "account_deauthorized",
        id: "evt_1QzDeauthLg7TdWvK2m0001"
      })
    })
  )
})

const eventText = (name: string) => readFileSync(new URL(`events/${name}.json`, recordings), "utf8")
const eventJson = (name: string): Record<string, unknown> & { data: { object: Record<string, unknown> } } =>
  JSON.parse(eventText(name))

// The recordings' present as the service's clock: a clock of its own (a fork's default services proved unreliable
// for TestClock.setTime on a loaded machine: "testClock.setTime is not a function").
const atNow = () => new ManualClock(NOW * 1000)

/** Reads a payload as the webhook would, signed `ageSeconds` before the recordings' present. */
const read = (payload: string, options: { readonly secret?: string; readonly ageSeconds?: number } = {}) =>
  Effect.gen(function* () {
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      timestamp: NOW - (options.ageSeconds ?? 0)
    })
    return yield* makeStripeProcessor().readEvent(WEBHOOK_SECRET, payload, signature).pipe(Effect.withClock(atNow()))
  })

describe("Stripe processor: webhook events", () => {
  it.effect("checkout.session.completed for a payment: the attempt, the money and the PaymentIntent", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("checkout.session.completed-payment"))).toEqual({
        account: null,
        kind: "checkout_completed",
        id: "evt_1QxHcSLg7TdWvK2mCp1Pay0A",
        sessionId: CS_PAY,
        reference: REF_PAY,
        paymentStatus: "paid",
        amountTotalCents: 1900,
        // The address the buyer typed on the page wins over the one the session was opened with.
        customerEmail: "ines.okafor@example.org",
        subscriptionId: null,
        paymentId: PI
      })
    })
  )

  it.effect("checkout.session.completed for a trial: nothing due, the subscription, no payment", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("checkout.session.completed-trial"))).toEqual({
        account: null,
        kind: "checkout_completed",
        id: "evt_1QxJ4lLg7TdWvK2mCp2Sub0B",
        sessionId: CS_SUB,
        reference: REF_SUB,
        paymentStatus: "no_payment_required",
        amountTotalCents: 0,
        customerEmail: "ines@example.org",
        subscriptionId: SUB,
        paymentId: null
      })
    })
  )

  it.effect("checkout.session.async_payment_succeeded completes the checkout as paid", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("checkout.session.async_payment_succeeded"))).toMatchObject({
        kind: "checkout_completed",
        id: "evt_1QxK6nLg7TdWvK2mAs3Ok00C",
        reference: "chk_01JK3VA5NPE9G3H7K2L6M8P0QC",
        paymentStatus: "paid",
        amountTotalCents: 2500,
        paymentId: "pi_3QxK5mLg7TdWvK2m0Ach4Eu9"
      })
    })
  )

  it.effect("checkout.session.expired", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("checkout.session.expired"))).toEqual({
        account: null,
        kind: "checkout_expired",
        id: "evt_1QxL7oLg7TdWvK2mEx4Pd00D",
        sessionId: "cs_test_d1Mr5Yf8pA1sG4tV7wK0qR3cU6fH9iJ2lM5nB8zE1xD4oC7"
      })
    })
  )

  it.effect("invoice.paid: the subscription from the invoice's parent, the period from its subscription line", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("invoice.paid"))).toEqual({
        account: null,
        kind: "invoice_paid",
        id: "evt_1QyM9qLg7TdWvK2mIp5Ren0E",
        invoiceId: "in_1QyM8pLg7TdWvK2mRn7Y2bQe",
        subscriptionId: SUB,
        amountPaidCents: 3840,
        billingReason: "subscription_cycle",
        periodEnd: at(YEAR_END),
        // An invoice names its payments only when they are included, which a webhook's invoice is not.
        paymentId: null
      })
    })
  )

  it.effect("invoice.paid with a one-off line before the subscription's: the period is the subscription line's", () =>
    Effect.gen(function* () {
      const event = eventJson("invoice.paid")
      const lines = event.data.object.lines as { data: Array<Record<string, unknown>> }
      const [subscriptionLine] = lines.data
      lines.data = [
        {
          ...subscriptionLine,
          id: "il_1QyM8pLg7TdWvK2mSetupFee",
          amount: 500,
          description: "Printed welcome pack",
          discount_amounts: [],
          parent: {
            invoice_item_details: {
              invoice_item: "ii_1QyM8pLg7TdWvK2mWelcome0",
              proration: false,
              proration_details: { credited_items: null },
              subscription: SUB
            },
            subscription_item_details: null,
            type: "invoice_item_details"
          },
          period: { end: TRIAL_END, start: TRIAL_END },
          subtotal: 500
        },
        ...lines.data
      ]
      expect(yield* read(JSON.stringify(event))).toMatchObject({ periodEnd: at(YEAR_END) })
    })
  )

  it.effect("invoice.paid with the invoice's payments included names the PaymentIntent that paid it", () =>
    Effect.gen(function* () {
      const event = eventJson("invoice.paid")
      const payment = (id: string, status: string, paymentIntent: string, isDefault: boolean) => ({
        id,
        object: "invoice_payment",
        amount_paid: status === "paid" ? 3840 : null,
        amount_requested: 3840,
        created: TRIAL_END + 3600,
        currency: "usd",
        invoice: "in_1QyM8pLg7TdWvK2mRn7Y2bQe",
        is_default: isDefault,
        livemode: false,
        payment: { payment_intent: paymentIntent, type: "payment_intent" },
        status,
        status_transitions: { canceled_at: null, paid_at: status === "paid" ? TRIAL_END + 3600 : null }
      })
      // The payment made at finalization failed; a second one paid.
      event.data.object.payments = {
        object: "list",
        data: [
          payment("inpay_1QyM8pLg7TdWvK2mOpen01", "canceled", "pi_3QyM8pLg7TdWvK2m0Fail0001", true),
          payment("inpay_1QyM8pLg7TdWvK2mPaid02", "paid", "pi_3QyM8pLg7TdWvK2m0Paid0002", false)
        ],
        has_more: false,
        url: "/v1/invoices/in_1QyM8pLg7TdWvK2mRn7Y2bQe/payments"
      }
      expect(yield* read(JSON.stringify(event))).toMatchObject({ paymentId: "pi_3QyM8pLg7TdWvK2m0Paid0002" })
    })
  )

  it.effect("invoice.payment_failed: the attempts and the next one", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("invoice.payment_failed"))).toEqual({
        account: null,
        kind: "invoice_payment_failed",
        id: "evt_1QyN0rLg7TdWvK2mPf6Fa00F",
        invoiceId: "in_1QyM8pLg7TdWvK2mRn7Y2bQe",
        subscriptionId: SUB,
        attemptCount: 1,
        nextAttemptAt: at(TRIAL_END + 3 * 86400 + 3600)
      })
    })
  )

  it.effect(
    "customer.subscription.updated: its end from cancel_at, else from the period's end, and the period from its item",
    () =>
      Effect.gen(function* () {
        expect(yield* read(eventText("customer.subscription.updated"))).toEqual({
          account: null,
          kind: "subscription_updated",
          id: "evt_1QyP1sLg7TdWvK2mSu7Up00G",
          subscriptionId: SUB,
          status: "active",
          cancelAt: at(END_AT),
          currentPeriodEnd: at(YEAR_END)
        })
        const atPeriodEnd = eventJson("customer.subscription.updated")
        Object.assign(atPeriodEnd.data.object, { cancel_at: null, cancel_at_period_end: true })
        expect(yield* read(JSON.stringify(atPeriodEnd))).toMatchObject({ cancelAt: at(YEAR_END) })
        const renewing = eventJson("customer.subscription.updated")
        Object.assign(renewing.data.object, { cancel_at: null, cancel_at_period_end: false })
        expect(yield* read(JSON.stringify(renewing))).toMatchObject({ cancelAt: null, currentPeriodEnd: at(YEAR_END) })
      })
  )

  it.effect("customer.subscription.deleted", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("customer.subscription.deleted"))).toEqual({
        account: null,
        kind: "subscription_deleted",
        id: "evt_1QyQ2tLg7TdWvK2mSd8De00H",
        subscriptionId: SUB
      })
    })
  )

  it.effect("charge.refunded: the PaymentIntent, and whether the whole charge is refunded", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("charge.refunded"))).toEqual({
        account: null,
        kind: "charge_refunded",
        id: "evt_3QxHbRLg7TdWvK2m0Rf9Cr0I",
        paymentId: PI,
        invoiceId: null,
        fullyRefunded: true
      })
      const partly = eventJson("charge.refunded")
      Object.assign(partly.data.object, { amount_refunded: 500, refunded: false })
      expect(yield* read(JSON.stringify(partly))).toMatchObject({ fullyRefunded: false })
    })
  )

  it.effect("an event the checkout does not act on is ignored, with its type", () =>
    Effect.gen(function* () {
      expect(yield* read(eventText("payment_intent.succeeded"))).toEqual({
        account: null,
        kind: "ignored",
        id: "evt_3QxHbRLg7TdWvK2m0Pi1Su0J",
        type: "payment_intent.succeeded"
      })
    })
  )

  it.effect("a signature made with another secret is refused, saying which secret to check", () =>
    Effect.gen(function* () {
      const refused = yield* Effect.flip(
        read(eventText("charge.refunded"), { secret: "whsec_AnotherEndpointsSecret000000000" })
      )
      expect(refused._tag).toBe("ProcessorSignatureRefused")
      expect(refused.message).toContain("whsec_")
      expect(refused.message).toContain("raw")
    })
  )

  it.effect("a body changed after signing is refused", () =>
    Effect.gen(function* () {
      const payload = eventText("charge.refunded")
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: NOW })
      const tampered = payload.replace('"refunded": true', '"refunded": false')
      expect(tampered).not.toBe(payload)
      const refused = yield* Effect.flip(
        makeStripeProcessor().readEvent(WEBHOOK_SECRET, tampered, signature).pipe(Effect.withClock(atNow()))
      )
      expect(refused._tag).toBe("ProcessorSignatureRefused")
    })
  )

  it.effect("a signature older than the library's 300 s tolerance, by the service's clock, is refused", () =>
    Effect.gen(function* () {
      const refused = yield* Effect.flip(read(eventText("checkout.session.expired"), { ageSeconds: 301 }))
      expect(refused._tag).toBe("ProcessorSignatureRefused")
      expect(refused.message).toContain("tolerance")
      expect(yield* read(eventText("checkout.session.expired"), { ageSeconds: 299 })).toMatchObject({
        kind: "checkout_expired"
      })
    })
  )
})
