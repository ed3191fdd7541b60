import { createHmac } from "node:crypto"
import { describe, expect, layer } from "@effect/vitest"
import {
  claimDue,
  DEFAULT_DELIVERY_WORKER,
  deliverClaimed,
  deliverDue,
  DISABLE_AFTER_FAILING_MS,
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  RETRY_JITTER,
  WebhookSecrets
} from "@svc/core/webhooks"
import { SqlClient } from "@effect/sql"
import { Effect, Random, TestClock } from "effect"
import { engineName } from "../support/database.js"
import {
  attemptsOf,
  deliveryOf,
  deliveryTestLayer,
  emit,
  mailsOf,
  receiver,
  reenable,
  sentTo,
  setUpWebhook,
  webhookState
} from "./delivery-support.js"

const T0 = Date.parse("2025-03-01T00:00:00.000Z")
const MINUTE = 60_000
const DAY = 86_400_000
const worker = DEFAULT_DELIVERY_WORKER

/** Delivers until nothing is due now. */
const drain = Effect.gen(function* () {
  let total = 0
  for (;;) {
    const claimed = yield* deliverDue(worker)
    total += claimed
    if (claimed === 0) return total
  }
})

const noJitter = Effect.withRandom(Random.fixed([0]))

layer(deliveryTestLayer(), { timeout: "120 seconds" })(`webhook delivery schedule on ${engineName}`, (it) => {
  describe("retries", () => {
    it.effect("retries after 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h, then the delivery has failed", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        receiver.answer = () => ({ status: 500, body: "down" })
        const eventId = yield* emit(hook.workspaceId)
        expect(yield* deliverDue(worker)).toBe(1)
        for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
          const before = yield* deliveryOf(hook.id, eventId)
          expect(before).toMatchObject({ status: "pending", attempts: index + 1, claim_token: null })
          expect(before?.next_attempt_at.getTime()).toBe(
            T0 + RETRY_DELAYS_MS.slice(0, index + 1).reduce((a, b) => a + b)
          )
          yield* TestClock.adjust(delay - 1)
          expect(yield* deliverDue(worker)).toBe(0)
          yield* TestClock.adjust(1)
          expect(yield* deliverDue(worker)).toBe(1)
        }
        const last = yield* deliveryOf(hook.id, eventId)
        expect(last).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS })
        const attempts = yield* attemptsOf(last?.id ?? "")
        expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
        expect(attempts.every((a) => a.outcome === "http_error" && a.response_code === 500)).toBe(true)
        const gaps = attempts
          .slice(1)
          .map((a, i) => a.attempted_at.getTime() - (attempts[i]?.attempted_at.getTime() ?? 0))
        expect(gaps).toEqual([...RETRY_DELAYS_MS])
        expect(sentTo(hook.url)).toHaveLength(MAX_ATTEMPTS)
        yield* TestClock.adjust(7 * DAY)
        expect(yield* deliverDue(worker)).toBe(0)
        // The schedule ends before three days, so one event alone never turns a webhook off.
        expect(yield* webhookState(hook.id)).toMatchObject({ enabled: true, failing_since: new Date(T0) })
      }).pipe(noJitter)
    )

    it.effect("adds a jitter of at most 5% of the delay, never earlier than the schedule", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        receiver.answer = () => ({ fail: "connect" })
        const eventId = yield* emit(hook.workspaceId)
        yield* deliverDue(worker)
        const first = yield* deliveryOf(hook.id, eventId)
        const delay = (first?.next_attempt_at.getTime() ?? 0) - T0
        expect(delay).toBeGreaterThanOrEqual(MINUTE)
        expect(delay).toBeLessThan(MINUTE * (1 + RETRY_JITTER))
        expect(delay).toBeGreaterThan(MINUTE * (1 + RETRY_JITTER * 0.9))
        const [attempt] = yield* attemptsOf(first?.id ?? "")
        expect(attempt).toMatchObject({ outcome: "network", response_code: null, error: "connect: fake failure" })
      }).pipe(Effect.withRandom(Random.fixed([0.99])))
    )

    it.effect("honours a 429's Retry-After when longer than the schedule, up to a day", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        const eventId = yield* emit(hook.workspaceId)
        const next = Effect.map(deliveryOf(hook.id, eventId), (row) => row?.next_attempt_at.getTime() ?? 0)

        receiver.answer = () => ({ status: 429, headers: { "retry-after": "600" } })
        yield* deliverDue(worker)
        expect((yield* next) - T0).toBe(10 * MINUTE)

        yield* TestClock.setTime(yield* next)
        receiver.answer = () => ({ status: 429, headers: { "retry-after": "2" } })
        yield* deliverDue(worker)
        const secondAt = T0 + 10 * MINUTE
        expect((yield* next) - secondAt).toBe(5 * MINUTE)

        yield* TestClock.setTime(yield* next)
        receiver.answer = () => ({ status: 429, headers: { "retry-after": String(5 * 86_400) } })
        yield* deliverDue(worker)
        expect((yield* next) - (secondAt + 5 * MINUTE)).toBe(DAY)
      }).pipe(noJitter)
    )
  })

  describe("signing", () => {
    it.effect("sends the stored body bytes, signed with the attempt's own time, re-signed on each retry", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        const sql = yield* SqlClient.SqlClient
        receiver.answer = () => ({ status: 503 })
        const eventId = yield* emit(hook.workspaceId, "customer.created")
        yield* deliverDue(worker)
        yield* TestClock.adjust(MINUTE)
        receiver.answer = () => ({ status: 204 })
        yield* deliverDue(worker)
        const [stored] = yield* sql<{ readonly body: string }>`SELECT body FROM events WHERE id = ${eventId}`
        const requests = sentTo(hook.url)
        expect(requests.map((r) => r.at)).toEqual([T0, T0 + MINUTE])
        for (const request of requests) {
          expect(request.body).toBe(stored?.body)
          const timestamp = request.headers["X-Svc-Timestamp"]
          expect(timestamp).toBe(String(request.at))
          const expected = createHmac("sha256", hook.secret).update(`${timestamp}.${request.body}`).digest("hex")
          expect(request.headers["X-Svc-Signature"]).toBe(`sha256=${expected}`)
          expect(request.headers).toMatchObject({
            "content-type": "application/json",
            "X-Svc-Event": "customer.created",
            "X-Svc-Event-Id": eventId
          })
        }
        expect(yield* deliveryOf(hook.id, eventId)).toMatchObject({ status: "done", attempts: 2 })
      }).pipe(noJitter)
    )

    it.effect("signs with both secrets while a rolled secret's grace period lasts, then with the new one only", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        const sql = yield* SqlClient.SqlClient
        const secrets = yield* WebhookSecrets
        const newer = yield* secrets.generate
        yield* sql`UPDATE webhooks SET previous_secret_sealed = secret_sealed,
                                       previous_secret_until = ${new Date(T0 + 30 * MINUTE)},
                                       secret_sealed = ${yield* secrets.seal(newer)}
                   WHERE id = ${hook.id}`
        receiver.answer = () => ({ status: 200 })
        yield* emit(hook.workspaceId)
        yield* deliverDue(worker)
        yield* TestClock.adjust(30 * MINUTE)
        yield* emit(hook.workspaceId)
        yield* deliverDue(worker)
        const [during, after] = sentTo(hook.url)
        const sign = (secret: string, request: typeof during) =>
          `sha256=${createHmac("sha256", secret)
            .update(`${request?.headers["X-Svc-Timestamp"]}.${request?.body}`)
            .digest("hex")}`
        expect(during?.headers["X-Svc-Signature"]).toBe(`${sign(newer, during)}, ${sign(hook.secret, during)}`)
        expect(after?.headers["X-Svc-Signature"]).toBe(sign(newer, after))
      })
    )
  })

  describe("turning webhooks off", () => {
    it.effect("turns a webhook off after three days of nothing but failures and emails its owner once", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        receiver.answer = () => ({ status: 500 })
        yield* emit(hook.workspaceId)
        yield* drain
        expect(yield* webhookState(hook.id)).toMatchObject({ enabled: true, failing_since: new Date(T0) })

        yield* TestClock.setTime(T0 + DISABLE_AFTER_FAILING_MS - MINUTE)
        yield* emit(hook.workspaceId)
        yield* drain
        expect((yield* webhookState(hook.id))?.enabled).toBe(true)

        yield* TestClock.setTime(T0 + DISABLE_AFTER_FAILING_MS)
        // Two failures at the same moment both see three days; only one turns it off and mails.
        const late = [yield* emit(hook.workspaceId), yield* emit(hook.workspaceId)]
        expect(yield* deliverDue(worker)).toBeGreaterThanOrEqual(2)
        expect(yield* webhookState(hook.id)).toMatchObject({ enabled: false, disabled_reason: "failing" })
        const mails = yield* mailsOf(hook.workspaceId, "webhook.disabled")
        expect(mails).toHaveLength(1)
        expect(mails[0]?.recipient).toBe(hook.email)
        expect(mails[0]?.subject).toContain(hook.url)

        // Off: new events queue nothing, and waiting deliveries are not sent.
        const sentBefore = sentTo(hook.url).length
        const quiet = yield* emit(hook.workspaceId)
        expect(yield* deliveryOf(hook.id, quiet)).toBeUndefined()
        yield* TestClock.adjust(DAY)
        yield* drain
        expect(sentTo(hook.url)).toHaveLength(sentBefore)
        expect(yield* mailsOf(hook.workspaceId, "webhook.disabled")).toHaveLength(1)

        // Back on: the waiting deliveries resume.
        yield* reenable(hook.id)
        receiver.answer = () => ({ status: 200 })
        yield* drain
        for (const eventId of late) expect(yield* deliveryOf(hook.id, eventId)).toMatchObject({ status: "done" })
        expect(yield* webhookState(hook.id)).toMatchObject({ enabled: true, failing_since: null })
      }).pipe(noJitter)
    )

    it.effect("a success resets the failing clock", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        receiver.answer = () => ({ status: 500 })
        yield* emit(hook.workspaceId)
        yield* deliverDue(worker)
        expect((yield* webhookState(hook.id))?.failing_since).toEqual(new Date(T0))

        yield* TestClock.setTime(T0 + 2 * DAY)
        receiver.answer = () => ({ status: 200 })
        yield* drain
        expect((yield* webhookState(hook.id))?.failing_since).toBeNull()

        yield* TestClock.setTime(T0 + 2.5 * DAY)
        receiver.answer = () => ({ status: 500 })
        yield* emit(hook.workspaceId)
        yield* drain
        yield* TestClock.setTime(T0 + 3.5 * DAY)
        yield* emit(hook.workspaceId)
        yield* drain
        expect(yield* webhookState(hook.id)).toMatchObject({
          enabled: true,
          failing_since: new Date(T0 + 2.5 * DAY)
        })
        expect(yield* mailsOf(hook.workspaceId, "webhook.disabled")).toHaveLength(0)
      }).pipe(noJitter)
    )

    it.effect(
      "410 Gone is a failure like any other: retried on the schedule, off only after three days, owner emailed",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(T0)
          const hook = yield* setUpWebhook()
          receiver.answer = () => ({ status: 410, body: "no such hook" })
          const first = yield* emit(hook.workspaceId)
          expect(yield* deliverDue({ ...worker, concurrency: 1 })).toBe(1)
          // Still on, the delivery waits for its first retry, and the failing clock runs.
          const after410 = yield* deliveryOf(hook.id, first)
          expect(after410).toMatchObject({ status: "pending", attempts: 1 })
          expect(after410?.next_attempt_at).toEqual(new Date(T0 + (RETRY_DELAYS_MS[0] ?? 0)))
          expect(yield* webhookState(hook.id)).toMatchObject({
            enabled: true,
            disabled_reason: null,
            failing_since: new Date(T0)
          })
          const [attempt] = yield* attemptsOf(after410?.id ?? "")
          expect(attempt).toMatchObject({ outcome: "gone", response_code: 410 })
          expect(yield* mailsOf(hook.workspaceId, "webhook.disabled")).toHaveLength(0)

          // The retries follow the schedule; just before three days the webhook is still on.
          yield* TestClock.setTime(T0 + DISABLE_AFTER_FAILING_MS - MINUTE)
          yield* drain
          expect((yield* webhookState(hook.id))?.enabled).toBe(true)
          expect(sentTo(hook.url).length).toBeGreaterThan(1)

          // Three days of nothing but 410s: off with reason failing, and the owner is told once.
          yield* TestClock.setTime(T0 + DISABLE_AFTER_FAILING_MS)
          yield* emit(hook.workspaceId)
          yield* drain
          expect(yield* webhookState(hook.id)).toMatchObject({ enabled: false, disabled_reason: "failing" })
          const mails = yield* mailsOf(hook.workspaceId, "webhook.disabled")
          expect(mails).toHaveLength(1)
          expect(mails[0]?.recipient).toBe(hook.email)
        }).pipe(noJitter)
    )

    it.effect("a 410 between successes does not turn a webhook off", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        receiver.answer = () => ({ status: 410 })
        const gone = yield* emit(hook.workspaceId)
        yield* drain
        receiver.answer = () => ({ status: 200 })
        yield* TestClock.adjust(RETRY_DELAYS_MS[0] ?? 0)
        yield* drain
        expect(yield* deliveryOf(hook.id, gone)).toMatchObject({ status: "done", attempts: 2 })
        expect(yield* webhookState(hook.id)).toMatchObject({
          enabled: true,
          disabled_reason: null,
          failing_since: null
        })
      }).pipe(noJitter)
    )
  })

  describe("leases", () => {
    it.effect("a claim not finished is taken over after the lease; the late worker's result is dropped", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        const eventId = yield* emit(hook.workspaceId)
        const [stale] = yield* claimDue(10, worker)
        expect(stale).toMatchObject({ eventId, attempts: 0, webhookId: hook.id })
        // Held: nobody else may take it before the lease ends.
        yield* TestClock.adjust(worker.leaseMs - 1)
        expect(yield* deliverDue(worker)).toBe(0)

        yield* TestClock.adjust(1)
        receiver.answer = () => ({ status: 200 })
        const [fresh] = yield* claimDue(10, worker)
        expect(fresh?.id).toBe(stale?.id)
        expect(fresh?.claimToken).not.toBe(stale?.claimToken)
        yield* deliverClaimed(fresh ?? (yield* Effect.dieMessage("no claim")))

        // The first worker wakes up and reports a failure: nothing of it is written.
        receiver.answer = () => ({ status: 500 })
        yield* deliverClaimed(stale ?? (yield* Effect.dieMessage("no claim")))
        const row = yield* deliveryOf(hook.id, eventId)
        expect(row).toMatchObject({ status: "done", attempts: 1, claim_token: null })
        expect((yield* attemptsOf(row?.id ?? "")).map((a) => a.outcome)).toEqual(["delivered"])
        expect(yield* webhookState(hook.id)).toMatchObject({ enabled: true, failing_since: null })
      })
    )
  })
})
