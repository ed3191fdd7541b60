import { Chunk, Clock, Duration, Effect, Fiber, Layer, Option, Queue, Schedule } from "effect"
import { Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { claimDue, type EndedDelivery, recordEnded, sendClaimed } from "./delivery.js"
import { DELIVERY_DEADLINE_MS, RETENTION_MS } from "./policy.js"
import { DeliveryQueue } from "./queue.js"

/** How the delivery worker of one process runs. */
export interface DeliveryWorkerOptions {
  /** Sends in flight at once in this process. */
  readonly concurrency: number
  /** Sends to one webhook in flight at once, counting every instance's, so one slow receiver cannot take all. */
  readonly perWebhook: number
  /** How long a claim holds a delivery before another worker may take it over; must exceed the 10 s deadline. */
  readonly leaseMs: number
  /** Longest wait between looks at the queue when idle (the queue may wake the worker sooner). */
  readonly idleMs?: number | undefined
}

/** The defaults of {@link DeliveryWorkerOptions}. */
export const DEFAULT_DELIVERY_WORKER = {
  concurrency: 16,
  perWebhook: 4,
  leaseMs: 60_000,
  idleMs: 30_000
} as const satisfies DeliveryWorkerOptions

/** Deliveries and events removed per purge transaction. */
export const DELIVERY_PURGE_BATCH = 500

/**
 * Claims one batch of due deliveries (at most `concurrency`), sends them, different webhooks at once, and records
 * them together. Answers how many were claimed.
 */
export const deliverDue = (options: DeliveryWorkerOptions = DEFAULT_DELIVERY_WORKER) =>
  Effect.gen(function* () {
    const claimed = yield* claimDue(options.concurrency, options)
    const ended = yield* Effect.forEach(claimed, sendClaimed, { concurrency: options.concurrency })
    yield* (yield* Transactor).withTransaction(recordEnded(ended))
    return claimed.length
  })

/**
 * The delivery loop of one process. Sends run on their own; each that ends joins a batch, and one transaction per
 * round records the whole batch (one statement for every log row and move) and claims as many due deliveries as
 * there is room for (one statement), so a round trip and a commit are paid per round, not per delivery. Rounds run
 * back to back while sends end, so a batch holds what ended during the round before: small when quiet, large
 * under load. With room left and nothing ending, the loop waits for the queue to wake it (or a poll).
 *
 * A send that dies is logged and its delivery comes back after the lease; a failed round is logged, its batch
 * left to the lease likewise, and the next round comes a second later. When the loop stops, sends on the wire are
 * finished (within the 10 s deadline) and recorded, so a clean shutdown neither cuts a receiver off mid-request nor
 * leaves deliveries to wait out their lease.
 */
export const runDeliveryWorker = (options: DeliveryWorkerOptions = DEFAULT_DELIVERY_WORKER) =>
  Effect.gen(function* () {
    const queue = yield* DeliveryQueue
    const tx = yield* Transactor
    // Sends that ended, in the order they ended; null for one that died (nothing to record).
    const ended = yield* Queue.unbounded<EndedDelivery | null>()
    // A wake-up per ended send; the loop reads `ended` itself, so a lost wake-up loses nothing.
    const settled = yield* Queue.sliding<void>(1)
    // Claimed and not yet recorded (sending, or ended and waiting in `ended`). Only this fiber changes it.
    let held = 0

    const start = (delivery: EndedDelivery["delivery"]) =>
      sendClaimed(delivery).pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logError(`webhook delivery ${delivery.id} failed`, cause), null)
        ),
        Effect.flatMap((result) => Queue.offer(ended, result)),
        Effect.zipRight(Queue.offer(settled, undefined)),
        // Finished even when the loop stops: a send already on the wire is recorded, not left to its lease.
        Effect.uninterruptible,
        Effect.forkDaemon
      )

    const record = (batch: ReadonlyArray<EndedDelivery | null>) =>
      batch.filter((item): item is EndedDelivery => item !== null)

    // One round, whole or not at all: the batch recorded, the claim made and its sends started.
    const round = Effect.uninterruptible(
      Effect.gen(function* () {
        const batch = Chunk.toReadonlyArray(yield* Queue.takeAll(ended))
        const room = options.concurrency - (held - batch.length)
        const claimed = yield* tx
          .withTransaction(
            Effect.zipRight(recordEnded(record(batch)), room > 0 ? claimDue(room, options) : Effect.succeed([]))
          )
          .pipe(
            Effect.ensuring(Effect.sync(() => (held -= batch.length))),
            withSpan("webhooks.round", { attributes: { recorded: batch.length, room } })
          )
        held += claimed.length
        for (const delivery of claimed) yield* start(delivery)
        return { room, claimed: claimed.length }
      })
    )

    const step = Effect.gen(function* () {
      const { room, claimed } = yield* round
      // Full, or the claim took all it could: more may be due, so go again as soon as a send ends.
      if (room <= 0 || claimed === room) return yield* Queue.take(settled)
      // Room left: a send ending frees room (a capped webhook may be claimable then), and `idle` covers new work. A
      // send may have ended during the round without the round seeing it: its wake-up waits in `settled`.
      return yield* Effect.race(Queue.take(settled), queue.awaitWork(options.idleMs ?? DEFAULT_DELIVERY_WORKER.idleMs))
    })

    // On stop: wait for the sends on the wire (each within the deadline) and record them with what had ended. It runs
    // in a fiber of its own, as the sends do: the stopping fiber is being interrupted, and the database client may
    // check for that at any interruptible step.
    const drain = Effect.gen(function* () {
      const rest: Array<EndedDelivery | null> = []
      while (rest.length < held) rest.push(...(yield* Queue.takeBetween(ended, 1, held - rest.length)))
      yield* tx
        .withTransaction(recordEnded(record(rest)))
        .pipe(
          Effect.catchAllCause((cause) => Effect.logError("webhook worker: recording the last sends failed", cause))
        )
      held = 0
    }).pipe(Effect.forkDaemon, Effect.flatMap(Fiber.join))

    return yield* step.pipe(
      Effect.catchAllCause((cause) =>
        Effect.logError(
          "webhook worker: a round of recording and claiming failed; trying again in a second",
          cause
        ).pipe(Effect.zipRight(Effect.sleep(Duration.seconds(1))))
      ),
      Effect.forever,
      Effect.ensuring(drain)
    )
  })

/**
 * A layer that keeps `runDeliveryWorker` running in the background while it is alive. Closing it stops
 * claiming and waits for the sends in flight (at most the 10 s deadline each) to be recorded.
 */
export const WebhookWorkerLive = (options: DeliveryWorkerOptions = DEFAULT_DELIVERY_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs <= DELIVERY_DEADLINE_MS) {
        return yield* Effect.dieMessage(
          `the delivery lease (${options.leaseMs} ms) must be longer than the ${DELIVERY_DEADLINE_MS} ms deadline`
        )
      }
      if (options.concurrency < 1 || options.perWebhook < 1) {
        return yield* Effect.dieMessage("delivery concurrency and the per-webhook cap must be at least 1")
      }
      yield* Effect.logInfo(
        `webhook delivery worker: up to ${options.concurrency} sends at once, ${options.perWebhook} per webhook, ` +
          `lease ${options.leaseMs} ms`
      )
      yield* Effect.forkScoped(runDeliveryWorker(options))
    })
  )

/**
 * Deletes deliveries (with their attempts) and events older than 30 days, in batches; answers how many of
 * each went. When another instance is purging, this one leaves it to them.
 */
export const purgeExpiredDeliveries = Effect.gen(function* () {
  const queue = yield* DeliveryQueue
  const cutoff = new Date((yield* Clock.currentTimeMillis) - RETENTION_MS)
  let deliveries = 0
  let events = 0
  while (true) {
    const batch = yield* queue.purgeBatch(cutoff, DELIVERY_PURGE_BATCH)
    if (Option.isNone(batch)) break
    deliveries += batch.value.deliveries
    events += batch.value.events
    if (batch.value.deliveries < DELIVERY_PURGE_BATCH && batch.value.events < DELIVERY_PURGE_BATCH) break
  }
  return { deliveries, events }
}).pipe(withSpan("webhooks.purge"))

/** A layer that runs `purgeExpiredDeliveries` now and then every `every` (default one hour) while alive. */
export const WebhookPurgeLive = (every: Duration.DurationInput = Duration.hours(1)) =>
  Layer.scopedDiscard(
    Effect.forkScoped(
      purgeExpiredDeliveries.pipe(
        Effect.tap(({ deliveries, events }) =>
          deliveries + events > 0
            ? Effect.logInfo(`purged ${deliveries} webhook deliveries and ${events} events older than 30 days`)
            : Effect.void
        ),
        Effect.catchAllCause((cause) => Effect.logError("webhook purge failed", cause)),
        Effect.repeat(Schedule.spaced(every)),
        Effect.asVoid
      )
    )
  )
