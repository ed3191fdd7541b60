import { createHmac } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import { verifyWebhook, verifyWebhookEffect, WebhookVerificationError } from "../src/webhooks.js"

const secret = "whsec_test_secret"
const body = JSON.stringify({
  id: "evt_1",
  type: "purchase.created",
  created_at: "2026-11-22T00:00:00.000Z",
  store: { handle: "demo" },
  data: { id: "purchase:1", amount_cents: 1900 }
})

const sign = (key: string, timestamp: number, raw: string) =>
  createHmac("sha256", key).update(`${timestamp}.${raw}`).digest("hex")

const headersFor = (timestamp: number, signatures: ReadonlyArray<string>) => ({
  "x-svc-signature": signatures.map((s) => `sha256=${s}`).join(", "),
  "x-svc-timestamp": String(timestamp),
  "x-svc-event": "purchase.created",
  "x-svc-event-id": "evt_1",
  "content-type": "application/json"
})

const reasonOf = (effect: Effect.Effect<unknown, WebhookVerificationError>) =>
  Effect.map(Effect.either(effect), (result) => (Either.isLeft(result) ? result.left.reason : "accepted"))

describe("verifyWebhook", () => {
  it.effect("accepts a delivery signed over the raw body, within the tolerance", () =>
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

  it.effect("takes raw bytes and fetch Headers as well as strings and Node headers", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(5_000)
      const headers = new Headers(headersFor(5_000, [sign(secret, 5_000, body)]))
      const verified = yield* verifyWebhookEffect(new TextEncoder().encode(body), headers, secret)
      expect(verified.event.type).toBe("purchase.created")
    })
  )

  it.effect("refuses a body changed after signing, even by one space", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(5_000)
      const reformatted = JSON.stringify(JSON.parse(body), null, 1)
      expect(
        yield* reasonOf(verifyWebhookEffect(reformatted, headersFor(5_000, [sign(secret, 5_000, body)]), secret))
      ).toBe("bad_signature")
    })
  )

  it.effect("refuses the wrong secret, a re-dated signature and a stale or future timestamp", () =>
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

  it.effect("accepts either signature while a rolled secret's grace period lasts", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(7_000)
      const headers = headersFor(7_000, [sign("whsec_new", 7_000, body), sign("whsec_old", 7_000, body)])
      expect(yield* reasonOf(verifyWebhookEffect(body, headers, "whsec_old"))).toBe("accepted")
      expect(yield* reasonOf(verifyWebhookEffect(body, headers, "whsec_new"))).toBe("accepted")
      expect(yield* reasonOf(verifyWebhookEffect(body, headers, ["whsec_x", "whsec_new"]))).toBe("accepted")
      expect(yield* reasonOf(verifyWebhookEffect(body, headers, "whsec_other"))).toBe("bad_signature")
    })
  )

  it.effect("names what is missing or malformed", () =>
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
    expect(refused).toBeInstanceOf(WebhookVerificationError)
    expect(refused).toMatchObject({ reason: "bad_signature" })
  })
})
