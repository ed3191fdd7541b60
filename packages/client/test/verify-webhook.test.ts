import { createHmac } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import * as contract from "@svc/core/webhook-contract"
import { WEBHOOK_EVENT_TYPES } from "@svc/core/webhooks"
import { Effect, Either, TestClock, TestContext } from "effect"
import { constructEventEffect, verifyWebhookEffect, WebhookVerificationError } from "../src/effect.js"
import {
  constructEvent,
  EVENT_HEADER,
  isWebhookEventType,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventOf,
  Webhooks,
  WebhookVerificationError as PromiseVerificationError
} from "../src/index.js"

const secret = "whsec_test_secret"
const envelope = (type: string, data: Record<string, unknown>) =>
  JSON.stringify({ id: "evt_1", type, created_at: "2026-11-22T00:00:00.000Z", store: { handle: "demo" }, data })
const body = envelope("purchase.created", { id: "purchase:1", amount_cents: 1900 })

const sign = (key: string, timestamp: number, raw: string) =>
  createHmac("sha256", key).update(`${timestamp}.${raw}`).digest("hex")

const headersFor = (timestamp: number, signatures: ReadonlyArray<string>, type = "purchase.created") => ({
  "x-svc-signature": signatures.map((s) => `sha256=${s}`).join(", "),
  "x-svc-timestamp": String(timestamp),
  "x-svc-event": type,
  "x-svc-event-id": "evt_1",
  "content-type": "application/json"
})

/**
 * A test on this file's own test clock. Twice in CI, after other files in the same worker, `TestClock` here met the
 * live clock ("testClock.setTime is not a function"): the test services `it.effect` provided were those of another
 * instance of `effect`'s modules than this file's. Providing `TestContext` from this file's `effect` puts the test
 * clock where this file's `TestClock` looks, whichever instance runs the test.
 */
const itOnTestClock = (name: string, self: () => Effect.Effect<unknown, unknown>) =>
  it.effect(name, () => Effect.provide(self(), TestContext.TestContext))

const reasonOf = (effect: Effect.Effect<unknown, WebhookVerificationError>) =>
  Effect.map(Effect.either(effect), (result) => (Either.isLeft(result) ? result.left.reason : "accepted"))

describe("verifyWebhook", () => {
  itOnTestClock("accepts a delivery signed over the raw body, within the tolerance", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1_000_000)
      const verified = yield* verifyWebhookEffect(
        body,
        headersFor(1_000_000 - 2_000, [sign(secret, 998_000, body)]),
        secret
      )
      expect(verified.event.id).toBe("evt_1")
      expect(verified.event.store.handle).toBe("demo")
      expect(verified.timestampMs).toBe(998_000)
    })
  )

  itOnTestClock("takes raw bytes and fetch Headers as well as strings and Node headers", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(5_000)
      const headers = new Headers(headersFor(5_000, [sign(secret, 5_000, body)]))
      const verified = yield* verifyWebhookEffect(new TextEncoder().encode(body), headers, secret)
      expect(verified.event.type).toBe("purchase.created")
    })
  )

  itOnTestClock("refuses a body changed after signing, even by one space", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(5_000)
      const reformatted = JSON.stringify(JSON.parse(body), null, 1)
      expect(
        yield* reasonOf(verifyWebhookEffect(reformatted, headersFor(5_000, [sign(secret, 5_000, body)]), secret))
      ).toBe("bad_signature")
    })
  )

  itOnTestClock("refuses the wrong secret, a re-dated signature and a stale or future timestamp", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(10 * 60_000)
      const now = 10 * 60_000
      expect(yield* reasonOf(verifyWebhookEffect(body, headersFor(now, [sign("other", now, body)]), secret))).toBe(
        "bad_signature"
      )
      // A signature made for another timestamp does not cover this one.
      expect(yield* reasonOf(verifyWebhookEffect(body, headersFor(now, [sign(secret, now - 1, body)]), secret))).toBe(
        "bad_signature"
      )
      const stale = now - 5 * 60_000 - 1
      expect(yield* reasonOf(verifyWebhookEffect(body, headersFor(stale, [sign(secret, stale, body)]), secret))).toBe(
        "outside_tolerance"
      )
      const future = now + 5 * 60_000 + 1
      expect(yield* reasonOf(verifyWebhookEffect(body, headersFor(future, [sign(secret, future, body)]), secret))).toBe(
        "outside_tolerance"
      )
      // A wider window is the caller's choice.
      expect(
        yield* reasonOf(
          verifyWebhookEffect(body, headersFor(stale, [sign(secret, stale, body)]), secret, { toleranceMs: 600_000 })
        )
      ).toBe("accepted")
    })
  )

  itOnTestClock("accepts either signature while a rolled secret's grace period lasts", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(7_000)
      const headers = headersFor(7_000, [sign("whsec_new", 7_000, body), sign("whsec_old", 7_000, body)])
      expect(yield* reasonOf(verifyWebhookEffect(body, headers, "whsec_old"))).toBe("accepted")
      expect(yield* reasonOf(verifyWebhookEffect(body, headers, "whsec_new"))).toBe("accepted")
      expect(yield* reasonOf(verifyWebhookEffect(body, headers, ["whsec_x", "whsec_new"]))).toBe("accepted")
      expect(yield* reasonOf(verifyWebhookEffect(body, headers, "whsec_other"))).toBe("bad_signature")
    })
  )

  itOnTestClock("names what is missing or malformed", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(7_000)
      const good = headersFor(7_000, [sign(secret, 7_000, body)])
      const { "x-svc-timestamp": _dropped, ...noTimestamp } = good
      expect(yield* reasonOf(verifyWebhookEffect(body, noTimestamp, secret))).toBe("missing_header")
      expect(yield* reasonOf(verifyWebhookEffect(body, { ...good, "x-svc-timestamp": "soon" }, secret))).toBe(
        "bad_timestamp"
      )
      expect(yield* reasonOf(verifyWebhookEffect(body, { ...good, "x-svc-signature": "sha256=nothex" }, secret))).toBe(
        "bad_signature"
      )
      const notJson = "not json"
      expect(
        yield* reasonOf(verifyWebhookEffect(notJson, headersFor(7_000, [sign(secret, 7_000, notJson)]), secret))
      ).toBe("bad_body")
      expect(yield* reasonOf(verifyWebhookEffect(body, { ...good, "x-svc-event-id": "evt_other" }, secret))).toBe(
        "bad_body"
      )
    })
  )

  it("resolves with the event and rejects with a WebhookVerificationError in Promise form", async () => {
    const now = Date.now()
    const verified = await verifyWebhook(body, headersFor(now, [sign(secret, now, body)]), secret)
    expect(verified.event.id).toBe("evt_1")
    const refused = await verifyWebhook(body, headersFor(now, [sign("other", now, body)]), secret).catch(
      (error: unknown) => error
    )
    expect(refused).toBeInstanceOf(PromiseVerificationError)
    expect(refused).toBeInstanceOf(Error)
    expect(refused).toMatchObject({ name: "WebhookVerificationError", reason: "bad_signature" })
    const stale = now - 10 * 60_000
    const late = await verifyWebhook(body, headersFor(stale, [sign(secret, stale, body)]), secret).catch(
      (error: unknown) => error
    )
    expect(late).toMatchObject({ reason: "outside_tolerance" })
  })

  it("is also the Webhooks namespace of earlier releases", () => {
    expect(Webhooks.verifyWebhook).toBe(verifyWebhook)
    expect(Webhooks.constructEvent).toBe(constructEvent)
    expect(Webhooks.WebhookVerificationError).toBe(PromiseVerificationError)
  })

  it("names the headers as the server does", () => {
    expect([SIGNATURE_HEADER, TIMESTAMP_HEADER, EVENT_HEADER, EVENT_ID_HEADER]).toEqual([
      contract.SIGNATURE_HEADER,
      contract.TIMESTAMP_HEADER,
      contract.EVENT_HEADER,
      contract.EVENT_ID_HEADER
    ])
  })
})

const renewal = {
  product_id: "prod_1",
  product_title: "Coach",
  buyer_email: "m@example.com",
  buyer_name: null,
  amount: 29,
  amount_cents: 2900,
  currency: "usd",
  billing: "monthly",
  order_id: "r-1",
  subscription_id: null,
  paid_until: "2030-01-01T00:00:00.000Z",
  payment: "renewal",
  created_at: "2026-11-22T00:00:00.000Z"
}

// What a receiver writes: a switch on the type, each branch reading its own data.
const describeEvent = (event: WebhookEvent): string => {
  switch (event.type) {
    case "membership.renewed":
      return `${event.data.buyer_email} paid until ${event.data.paid_until ?? "open"}`
    case "booking.cancelled":
      return `call ${event.data.call_type_name} cancelled at ${event.data.cancelled_at}`
    case "unknown":
      return `unknown ${event.received_type} with ${Object.keys(event.data).join(",")}`
    default:
      return event.type
  }
}

describe("constructEvent", () => {
  it("verifies, then returns the event typed by its type", async () => {
    const now = Date.now()
    const raw = envelope("membership.renewed", renewal)
    const event = await constructEvent(raw, headersFor(now, [sign(secret, now, raw)], "membership.renewed"), secret)
    expect(event.type).toBe("membership.renewed")
    expect(describeEvent(event)).toBe("m@example.com paid until 2030-01-01T00:00:00.000Z")
    if (event.type === "membership.renewed") {
      const paid: WebhookEventOf<"membership.renewed">["data"] = event.data
      expect(paid.amount_cents).toBe(2900)
      // @ts-expect-error a renewal has no cohort: a wrong field is a type error, not an undefined at run time
      expect(event.data.cohort_id).toBeUndefined()
    }
  })

  it("knows every event type the server has (the generated contract holds its list to exactly those)", () => {
    expect(WEBHOOK_EVENT_TYPES.filter((type) => !isWebhookEventType(type))).toEqual([])
    expect(isWebhookEventType("invoice.created")).toBe(false)
    expect(isWebhookEventType("toString")).toBe(false)
  })

  it("returns a type this client does not know as an unknown event instead of failing", async () => {
    const now = Date.now()
    const raw = envelope("invoice.created", { invoice_id: "inv_1" })
    const event = await constructEvent(raw, headersFor(now, [sign(secret, now, raw)], "invoice.created"), secret)
    expect(event).toEqual({
      id: "evt_1",
      type: "unknown",
      received_type: "invoice.created",
      created_at: "2026-11-22T00:00:00.000Z",
      store: { handle: "demo" },
      data: { invoice_id: "inv_1" }
    })
    expect(describeEvent(event)).toBe("unknown invoice.created with invoice_id")
  })

  it("rejects what verifyWebhook rejects", async () => {
    const now = Date.now()
    const refused = await constructEvent(body, headersFor(now, [sign("other", now, body)]), secret).catch(
      (error: unknown) => error
    )
    expect(refused).toBeInstanceOf(PromiseVerificationError)
    expect(refused).toMatchObject({ reason: "bad_signature" })
  })

  itOnTestClock("in Effect form reads Clock and fails with the tagged error", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(50_000)
      const raw = envelope("membership.renewed", renewal)
      const headers = headersFor(50_000, [sign(secret, 50_000, raw)], "membership.renewed")
      const event = yield* constructEventEffect(raw, headers, secret)
      expect(describeEvent(event)).toBe("m@example.com paid until 2030-01-01T00:00:00.000Z")
      yield* TestClock.adjust("6 minutes")
      const late = yield* Effect.flip(constructEventEffect(raw, headers, secret))
      expect(late).toBeInstanceOf(WebhookVerificationError)
      expect(late).toMatchObject({ _tag: "WebhookVerificationError", reason: "outside_tolerance" })
    })
  )
})
