import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import {
  claimDue,
  DEFAULT_DELIVERY_WORKER,
  MAX_ATTEMPTS,
  recordEnded,
  runDeliveryWorker,
  sendClaimed,
  webhookDeliveries,
  webhookDeliverySeconds
} from "@svc/core/webhooks"
import { Deferred, Effect, Exit, Fiber, Metric, Scope, TestClock } from "effect"
import { engineName } from "../support/database.js"
import {
  attemptsOf,
  deliveryOf,
  deliveryTestLayer,
  emit,
  receiver,
  sentTo,
  setUpWebhook,
  webhookState
} from "./delivery-support.js"

const T0 = Date.parse("2025-09-01T00:00:00.000Z")
const worker = DEFAULT_DELIVERY_WORKER

/** Lets real time pass (the test clock stands still), so other fibers' database work can run. */
const realPause = (ms: number) => Effect.promise(() => new Promise((done) => setTimeout(done, ms)))

/** Waits, in real time, until `check` holds (at most ~10 s). */
const eventually = <E, R>(check: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function* () {
    for (let i = 0; i < 200; i++) {
      if (yield* check) return
      yield* realPause(50)
    }
    return yield* Effect.dieMessage("condition not met in time")
  })

const counted = (outcome: string) =>
  Effect.map(Metric.value(Metric.tagged(webhookDeliveries, "outcome", outcome)), (state) => state.count)

const sendsTimed = Effect.map(Metric.value(webhookDeliverySeconds), (state) => state.count)

const byEvent = (eventId: string) => (request: { readonly headers: Readonly<Record<string, string>> }) =>
  request.headers["X-Svc-Event-Id"] === eventId

layer(deliveryTestLayer(), { timeout: "120 seconds" })(`recording deliveries in batches on ${engineName}`, (it) => {
  describe("one batch", () => {
    it.effect("records every try in one go; a try whose claim was lost leaves the other worker's result", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const hook = yield* setUpWebhook()
        const other = yield* setUpWebhook({ alongside: true })
        const events = [yield* emit(hook.workspaceId), yield* emit(hook.workspaceId), yield* emit(other.workspaceId)]
        receiver.answer = () => ({ status: 200 })
        const claimed = yield* claimDue(10, worker)
        expect(claimed).toHaveLength(3)
        const ended = yield* Effect.forEach(claimed, sendClaimed)
        // Another worker took the first over (its lease ran out, say) and holds it under its own token.
        const sql = yield* SqlClient.SqlClient
        const [lost, ...kept] = claimed
        yield* sql`UPDATE webhook_deliveries SET claim_token = 'clm_other' WHERE id = ${lost?.id ?? ""}`

        expect(yield* recordEnded(ended)).toBe(2)
        for (const delivery of kept) {
          const row = yield* deliveryOf(delivery.webhookId, delivery.eventId)
          expect(row).toMatchObject({ status: "done", attempts: 1, claim_token: null })
          expect((yield* attemptsOf(row?.id ?? "")).map((a) => a.outcome)).toEqual(["delivered"])
        }
        const untouched = yield* deliveryOf(lost?.webhookId ?? "", lost?.eventId ?? "")
        expect(untouched).toMatchObject({ status: "sending", attempts: 0, claim_token: "clm_other" })
        expect(yield* attemptsOf(untouched?.id ?? "")).toEqual([])
        expect(new Set(claimed.map((d) => d.eventId))).toEqual(new Set(events))
      })
    )

    it.effect("settles each webhook's failing clock in the order its tries ended", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0 + 86_400_000)
        const healed = yield* setUpWebhook()
        const failing = yield* setUpWebhook({ alongside: true })
        const [healedFirst, healedSecond] = [yield* emit(healed.workspaceId), yield* emit(healed.workspaceId)]
        const [failingFirst, failingSecond] = [yield* emit(failing.workspaceId), yield* emit(failing.workspaceId)]
        // Healed: a failure, then a success. Failing: a success, then a failure a minute later.
        const failures = new Set([healedFirst, failingSecond])
        receiver.answer = (request) =>
          failures.has(request.headers["X-Svc-Event-Id"] ?? "") ? { status: 500 } : { status: 200 }
        const claimed = yield* claimDue(10, worker)
        const order = [healedFirst, healedSecond, failingFirst, failingSecond]
        const ended = []
        for (const eventId of order) {
          const delivery = claimed.find((d) => d.eventId === eventId)
          ended.push(yield* sendClaimed(delivery ?? (yield* Effect.dieMessage(`not claimed: ${eventId}`))))
          yield* TestClock.adjust(60_000)
        }
        expect(yield* recordEnded(ended)).toBe(4)
        expect((yield* webhookState(healed.id))?.failing_since).toBeNull()
        expect((yield* webhookState(failing.id))?.failing_since).toEqual(new Date(T0 + 86_400_000 + 3 * 60_000))
        expect(sentTo(healed.url).filter(byEvent(healedFirst))).toHaveLength(1)
      })
    )

    it.effect("counts each recorded try by outcome and times each send", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0 + 2 * 86_400_000)
        const hook = yield* setUpWebhook()
        const sql = yield* SqlClient.SqlClient
        const delivered = yield* emit(hook.workspaceId)
        const retried = yield* emit(hook.workspaceId)
        const last = yield* emit(hook.workspaceId)
        const vanished = yield* emit(hook.workspaceId)
        yield* sql`DELETE FROM events WHERE id = ${vanished}`
        receiver.answer = (request) => (byEvent(delivered)(request) ? { status: 200 } : { status: 503 })
        const before = {
          delivered: yield* counted("delivered"),
          retrying: yield* counted("retrying"),
          failed: yield* counted("failed"),
          gave_up: yield* counted("gave_up"),
          timed: yield* sendsTimed
        }
        const claimed = yield* claimDue(10, worker)
        expect(claimed).toHaveLength(4)
        // The last try the schedule allows: this one fails for good.
        const ended = yield* Effect.forEach(claimed, (delivery) =>
          sendClaimed(delivery.eventId === last ? { ...delivery, attempts: MAX_ATTEMPTS - 1 } : delivery)
        )
        yield* recordEnded(ended)
        expect(yield* counted("delivered")).toBe(before.delivered + 1)
        expect(yield* counted("retrying")).toBe(before.retrying + 1)
        expect(yield* counted("failed")).toBe(before.failed + 1)
        expect(yield* counted("gave_up")).toBe(before.gave_up + 1)
        // Three sends went out; the vanished event's delivery sent nothing.
        expect(yield* sendsTimed).toBe(before.timed + 3)
        expect(yield* deliveryOf(hook.id, retried)).toMatchObject({ status: "pending", attempts: 1 })
        expect(yield* deliveryOf(hook.id, last)).toMatchObject({ status: "failed" })
        expect(yield* deliveryOf(hook.id, vanished)).toMatchObject({ status: "failed", attempts: 0 })
      })
    )
  })

  describe("the worker loop", () => {
    it.effect("claims as many as there is room for in one go, and records the sends on the wire when it stops", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0 + 3 * 86_400_000)
        const hooks = [yield* setUpWebhook(), yield* setUpWebhook({ alongside: true })]
        const events = []
        for (const hook of hooks)
          for (let i = 0; i < 3; i++) events.push([hook, yield* emit(hook.workspaceId)] as const)
        const release = yield* Deferred.make<void>()
        receiver.answer = () => ({ status: 200, after: Deferred.await(release) })
        const scope = yield* Scope.make()
        const sentBefore = receiver.sent.length
        yield* Effect.forkIn(runDeliveryWorker(worker), scope)
        // Six due deliveries, room for sixteen, three a webhook under the cap of four: all on the wire at once.
        yield* eventually(Effect.sync(() => receiver.sent.length - sentBefore === 6))
        const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
        // Stopping waits for the sends on the wire …
        yield* realPause(200)
        expect(yield* Fiber.poll(closing)).toMatchObject({ _tag: "None" })
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(closing)
        // … and records them before it is done, none left to wait out its lease.
        for (const [hook, eventId] of events) {
          expect(yield* deliveryOf(hook.id, eventId)).toMatchObject({ status: "done", attempts: 1, claim_token: null })
        }
      })
    )
  })
})
