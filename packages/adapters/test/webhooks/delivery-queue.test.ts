import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import {
  claimDue,
  DEFAULT_DELIVERY_WORKER,
  deliverClaimed,
  deliverDue,
  DeliveryQueue,
  purgeExpiredDeliveries,
  RETENTION_MS,
  runDeliveryWorker
} from "@svc/core/webhooks"
import { Deferred, Effect, Fiber, Layer, Option, TestClock } from "effect"
import { engineName } from "../support/database.js"
import { attemptsOf, deliveryOf, deliveryTestLayer, emit, receiver, sentTo, setUpWebhook } from "./delivery-support.js"

const T0 = Date.parse("2025-06-01T00:00:00.000Z")
const DAY = 86_400_000
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

const countBy = (items: ReadonlyArray<{ readonly webhookId: string }>) =>
  items.reduce<Record<string, number>>((acc, item) => {
    acc[item.webhookId] = (acc[item.webhookId] ?? 0) + 1
    return acc
  }, {})

layer(deliveryTestLayer(), { timeout: "120 seconds" })(`the delivery queue on ${engineName}`, (it) => {
  describe("claims", () => {
    it.effect("caps each webhook's deliveries in flight, so a backlog on one does not starve another", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const busy = yield* setUpWebhook()
        for (let i = 0; i < 10; i++) yield* emit(busy.workspaceId)
        const quiet = yield* setUpWebhook({ alongside: true })
        yield* emit(quiet.workspaceId)

        const first = yield* claimDue(16, { leaseMs: 60_000, perWebhook: 4 })
        expect(countBy(first)).toEqual({ [busy.id]: 4, [quiet.id]: 1 })
        expect(new Set(first.map((d) => d.claimToken)).size).toBe(1)
        expect(yield* claimDue(16, { leaseMs: 60_000, perWebhook: 4 })).toEqual([])

        // One of the busy webhook's sends ends: exactly one more of its deliveries may go.
        receiver.answer = () => ({ status: 200 })
        const done = first.find((d) => d.webhookId === busy.id)
        yield* deliverClaimed(done ?? (yield* Effect.dieMessage("none")))
        const next = yield* claimDue(16, { leaseMs: 60_000, perWebhook: 4 })
        expect(countBy(next)).toEqual({ [busy.id]: 1 })
        expect(next[0]?.claimToken).not.toBe(first[0]?.claimToken)
      })
    )

    it.effect("answers everything a send needs: the stored body, the address, the sealed secret, the trigger", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0 + DAY)
        const hook = yield* setUpWebhook()
        const sql = yield* SqlClient.SqlClient
        const eventId = yield* emit(hook.workspaceId, "membership.renewed")
        const [claimed] = yield* claimDue(5, worker)
        const [event] = yield* sql<{ readonly body: string }>`SELECT body FROM events WHERE id = ${eventId}`
        expect(claimed).toMatchObject({
          webhookId: hook.id,
          workspaceId: hook.workspaceId,
          eventId,
          eventType: "membership.renewed",
          body: event?.body,
          url: hook.url,
          previousSecretSealed: null,
          attempts: 0,
          trigger: "scheduled",
          leaseUntil: new Date(T0 + DAY + worker.leaseMs)
        })
        expect(claimed?.secretSealed).not.toContain(hook.secret)
        expect(yield* deliveryOf(hook.id, eventId)).toMatchObject({
          status: "sending",
          claim_token: claimed?.claimToken
        })
      })
    )
  })

  describe("the worker loop", () => {
    it.effect(
      "delivers what is queued, survives a send that dies (sent again after the lease), and idles without spinning",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            yield* TestClock.setTime(T0 + 2 * DAY)
            const hook = yield* setUpWebhook()
            const queue = yield* DeliveryQueue
            let claims = 0
            const counting = Layer.succeed(DeliveryQueue, {
              ...queue,
              claim: (request) => Effect.tap(queue.claim(request), () => Effect.sync(() => claims++))
            })
            receiver.answer = (request) =>
              request.headers["X-Svc-Event-Id"] === doomed ? { die: "receiver blew up" } : { status: 200 }
            const doomed = yield* emit(hook.workspaceId)
            const fine = yield* emit(hook.workspaceId)
            yield* Effect.forkScoped(runDeliveryWorker(worker).pipe(Effect.provide(counting)))

            yield* eventually(Effect.map(deliveryOf(hook.id, fine), (row) => row?.status === "done"))
            expect(yield* deliveryOf(hook.id, doomed)).toMatchObject({ status: "sending", attempts: 0 })

            // Idle: with the test clock standing still the loop waits instead of claiming over and over.
            const before = claims
            yield* realPause(300)
            expect(claims - before).toBeLessThan(10)

            receiver.answer = () => ({ status: 200 })
            yield* TestClock.adjust(worker.leaseMs)
            // On a busy machine the loop may still be looking at the queue when the clock moves, and the wait it
            // starts after that needs the clock to move again; half-second steps stay far inside the new lease.
            yield* eventually(
              Effect.zipRight(
                TestClock.adjust(500),
                Effect.map(deliveryOf(hook.id, doomed), (row) => row?.status === "done")
              )
            )
            expect(sentTo(hook.url).filter((r) => r.headers["X-Svc-Event-Id"] === doomed)).toHaveLength(2)
          })
        )
    )

    it.effect("a send that ends while the worker is claiming wakes it: the next delivery goes without a poll", () =>
      Effect.scoped(
        Effect.gen(function* () {
          yield* TestClock.setTime(T0 + 4 * DAY)
          const hook = yield* setUpWebhook()
          const queue = yield* DeliveryQueue
          const sql = yield* SqlClient.SqlClient
          const release = yield* Deferred.make<void>()
          let armed = false
          // The claim that finds the webhook at its cap (the first send is held in flight) lets that send end before it
          // answers: the round then claimed nothing and the worker waits, and only the signal of the ended send can
          // wake it to record it and claim the next, for the test clock stands still and no new event comes.
          const racing = Layer.succeed(DeliveryQueue, {
            ...queue,
            claim: (request) =>
              Effect.tap(queue.claim(request), (claimed) =>
                armed && claimed.length === 0
                  ? Effect.gen(function* () {
                      armed = false
                      yield* Deferred.succeed(release, undefined)
                      yield* eventually(Effect.sync(() => ended))
                      yield* realPause(50)
                    }).pipe(Effect.orDie, Effect.provideService(SqlClient.SqlClient, sql))
                  : Effect.void
              )
          })
          let ended = false
          receiver.answer = (request) =>
            request.headers["X-Svc-Event-Id"] === first
              ? { status: 200, after: Effect.tap(Deferred.await(release), () => (ended = true)) }
              : { status: 200 }
          const first = yield* emit(hook.workspaceId)
          yield* Effect.forkScoped(runDeliveryWorker({ ...worker, perWebhook: 1 }).pipe(Effect.provide(racing)))
          yield* eventually(Effect.sync(() => sentTo(hook.url).length === 1))
          // The first wait has opened the listening connection (PostgreSQL); LISTEN takes effect a moment later.
          yield* realPause(200)
          armed = true
          const second = yield* emit(hook.workspaceId)
          // Wakes the worker (NOTIFY on PostgreSQL, the poll on PGlite); its claim is the one above.
          yield* TestClock.adjust(2_000)
          yield* eventually(Effect.map(deliveryOf(hook.id, second), (row) => row?.status === "done"))
          expect(armed).toBe(false)
        })
      )
    )

    it.effect(
      engineName === "PostgreSQL"
        ? "a committed delivery wakes an idle worker through LISTEN/NOTIFY, before any poll"
        : "an idle worker polls the embedded database every 500 ms",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(T0 + 3 * DAY)
          const hook = yield* setUpWebhook()
          const queue = yield* DeliveryQueue
          if (engineName === "PGlite") {
            const waiting = yield* Effect.fork(queue.awaitWork(60_000))
            yield* TestClock.adjust(499)
            expect(Option.isNone(yield* Fiber.poll(waiting))).toBe(true)
            yield* TestClock.adjust(1)
            yield* Fiber.join(waiting)
            return
          }
          // The first wait opens the listening connection; LISTEN takes effect a moment later.
          const opening = yield* Effect.fork(queue.awaitWork(1))
          yield* TestClock.adjust(1)
          yield* Fiber.join(opening)
          for (let i = 0; i < 50; i++) {
            yield* emit(hook.workspaceId)
            const woken = yield* Effect.race(
              Effect.as(queue.awaitWork(600_000), true),
              Effect.as(realPause(200), false)
            )
            if (woken) return
          }
          return yield* Effect.dieMessage("never woken by NOTIFY")
        })
    )
  })

  describe("purge", () => {
    it.effect("deletes deliveries, attempts and events older than 30 days, keeps newer ones", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* TestClock.setTime(T0 - RETENTION_MS - DAY)
        const hook = yield* setUpWebhook()
        receiver.answer = () => ({ status: 200 })
        const old = yield* emit(hook.workspaceId)
        yield* deliverDue(worker)
        const oldDelivery = yield* deliveryOf(hook.id, old)
        expect(yield* attemptsOf(oldDelivery?.id ?? "")).toHaveLength(1)
        yield* TestClock.setTime(T0 - RETENTION_MS + DAY)
        const recent = yield* emit(hook.workspaceId)
        yield* TestClock.setTime(T0)

        const purged = yield* purgeExpiredDeliveries
        expect(purged.deliveries).toBeGreaterThanOrEqual(1)
        expect(purged.events).toBeGreaterThanOrEqual(1)
        expect(yield* deliveryOf(hook.id, old)).toBeUndefined()
        expect(yield* attemptsOf(oldDelivery?.id ?? "")).toEqual([])
        expect(yield* sql`SELECT id FROM events WHERE id = ${old}`).toEqual([])
        expect(yield* deliveryOf(hook.id, recent)).toBeDefined()
        expect(yield* sql`SELECT id FROM events WHERE id = ${recent}`).toHaveLength(1)
        expect(yield* purgeExpiredDeliveries).toEqual({ deliveries: 0, events: 0 })
      })
    )

    it.effect(
      engineName === "PostgreSQL"
        ? "runs on one instance at a time: while another session purges, this one leaves it"
        : "runs in batches under a lock (one process owns the embedded database)",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const queue = yield* DeliveryQueue
          const cutoff = new Date(T0)
          if (engineName === "PGlite") {
            expect(Option.isSome(yield* queue.purgeBatch(cutoff, 10))).toBe(true)
            return
          }
          const held = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          const other = yield* Effect.fork(
            sql.withTransaction(
              Effect.gen(function* () {
                yield* sql`SELECT pg_advisory_xact_lock(hashtext('svc/webhooks/purge/' || current_schema()))`
                yield* Deferred.succeed(held, undefined)
                yield* Deferred.await(release)
              })
            )
          )
          yield* Deferred.await(held)
          expect(yield* queue.purgeBatch(cutoff, 10)).toEqual(Option.none())
          yield* Deferred.succeed(release, undefined)
          yield* Fiber.join(other)
          expect(Option.isSome(yield* queue.purgeBatch(cutoff, 10))).toBe(true)
        })
    )
  })
})
