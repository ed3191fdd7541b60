import { Clock, Duration, Effect, Layer, Option, Random, Schedule } from "effect"
import { Mailer } from "../mail/ports.js"
import { webhookDisabledEmail } from "../mail/templates.js"
import { newClaim, runClaimLoop } from "../shared/claim-loop.js"
import { Ids, Transactor } from "../shared/ports.js"
import { type AttemptResult, attemptDelivery } from "./attempt.js"
import {
  DELIVERY_DEADLINE_MS,
  DISABLE_AFTER_FAILING_MS,
  MAX_ATTEMPTS,
  RETENTION_MS,
  RETRY_DELAYS_MS
} from "./policy.js"
import { type AttemptRecord, type ClaimedDelivery, DeliveryQueue, type NextStep } from "./queue.js"
import { signingSecrets } from "./secrets.js"
import { withSpan } from "../shared/spans.js"

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

/** Retries come up to this fraction of their delay late (never early), so a burst of failures does not retry in step. */
export const RETRY_JITTER = 0.05

/** The longest wait a 429's `Retry-After` can ask for: the schedule's longest step. */
export const MAX_RETRY_AFTER_MS = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1] ?? 86_400_000

/** Deliveries and events removed per purge transaction. */
export const DELIVERY_PURGE_BATCH = 500

/**
 * The wait before the next try after the `attempts`-th failed one, before jitter; null when the delivery
 * has had all its tries. A 429's `Retry-After` can lengthen the wait (up to a day), never shorten it, so
 * a receiver cannot make us retry faster than the schedule.
 */
export const retryDelayMs = (attempts: number, retryAfterMs: number | null): number | null => {
  if (attempts >= MAX_ATTEMPTS) return null
  const scheduled = RETRY_DELAYS_MS[attempts - 1] ?? MAX_RETRY_AFTER_MS
  return retryAfterMs === null ? scheduled : Math.max(scheduled, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS))
}

const nextStep = (result: AttemptResult, attempts: number, now: number) =>
  Effect.gen(function* () {
    const at = new Date(now)
    if (result.outcome === "delivered") return { status: "done", at } satisfies NextStep
    // A 410 is retried like any other failure: the spec deletes only instant hooks on 410; a webhook is
    // turned off only by three days of failures, with its owner told.
    const delay = retryDelayMs(attempts, result.retryAfterMs)
    if (delay === null) return { status: "failed", at } satisfies NextStep
    const jitter = Math.floor((yield* Random.next) * delay * RETRY_JITTER)
    return { status: "pending", at: new Date(now + delay + jitter) } satisfies NextStep
  })

const disabledMail = (webhook: { readonly webhookId: string; readonly url: string }) =>
  webhookDisabledEmail({ ...webhook, failingDays: DISABLE_AFTER_FAILING_MS / 86_400_000 })

/**
 * What happens after a try, in one transaction with recording it: a success clears the failing clock;
 * any failure (a 410 too) starts the clock, and a webhook that has done nothing but fail for three days is
 * turned off and its owner emailed (once: only the call that turned it off sends). Nothing happens when
 * the claim was lost.
 */
const record = (delivery: ClaimedDelivery, attempt: AttemptRecord | null, next: NextStep, now: Date) =>
  Effect.gen(function* () {
    const queue = yield* DeliveryQueue
    const lost = Effect.logDebug(`delivery ${delivery.id}: claim lost to another worker; its result stands`)
    // The common case, a success on a healthy webhook (or a send that never happened), is one statement. A
    // failure recorded since the claim keeps its clock: it happened as late as this success.
    if (attempt === null || (attempt.outcome === "delivered" && delivery.webhookFailingSince === null)) {
      if (!(yield* queue.finish(delivery.id, delivery.claimToken, attempt, next))) yield* lost
      return
    }
    const tx = yield* Transactor
    const mailer = yield* Mailer
    yield* tx.withTransaction(
      Effect.gen(function* () {
        if (!(yield* queue.finish(delivery.id, delivery.claimToken, attempt, next))) return yield* lost
        if (attempt.outcome === "delivered") return yield* queue.markHealthy(delivery.webhookId)
        const since = yield* queue.markFailing(delivery.webhookId, now)
        if (Option.isNone(since) || now.getTime() - since.value.getTime() < DISABLE_AFTER_FAILING_MS) return
        const off = yield* queue.disable(delivery.webhookId, "failing", now)
        if (Option.isNone(off)) return
        yield* mailer.send({ workspaceId: off.value.workspaceId, to: off.value.ownerEmail, ...disabledMail(off.value) })
        yield* Effect.logWarning(
          `webhook ${delivery.webhookId} failed for ${DISABLE_AFTER_FAILING_MS / 86_400_000} days and was turned off`
        )
      })
    )
  })

/**
 * Sends one claimed delivery (signed with the current secret, and the previous one while a roll's grace
 * period lasts) and records how it went and what comes next.
 */
export const deliverClaimed = (delivery: ClaimedDelivery) =>
  Effect.gen(function* () {
    if (delivery.body === null) {
      yield* Effect.logWarning(`delivery ${delivery.id}: event ${delivery.eventId} is no longer stored; giving up`)
      const now = new Date(yield* Clock.currentTimeMillis)
      return yield* record(delivery, null, { status: "failed", at: now }, now)
    }
    const ids = yield* Ids
    const startedAt = yield* Clock.currentTimeMillis
    const keys = yield* signingSecrets(delivery, startedAt)
    const result = yield* attemptDelivery({
      url: delivery.url,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      body: delivery.body,
      secrets: keys
    })
    const number = delivery.attempts + 1
    const attempt: AttemptRecord = {
      id: yield* ids.make("att_"),
      number,
      trigger: delivery.trigger,
      outcome: result.outcome,
      responseCode: result.responseCode,
      latencyMs: result.latencyMs,
      response: result.response,
      location: result.location,
      error: result.error,
      attemptedAt: new Date(startedAt)
    }
    const endedAt = yield* Clock.currentTimeMillis
    yield* record(delivery, attempt, yield* nextStep(result, number, endedAt), new Date(endedAt))
  }).pipe(withSpan("webhooks.deliver", { attributes: { delivery: delivery.id } }))

/** Claims up to `limit` due deliveries for this worker, with a fresh claim token and a lease of `leaseMs`. */
export const claimDue = (limit: number, options: Pick<DeliveryWorkerOptions, "leaseMs" | "perWebhook">) =>
  Effect.gen(function* () {
    const queue = yield* DeliveryQueue
    const claim = yield* newClaim(options.leaseMs)
    return yield* queue.claim({ ...claim, limit, perWebhookLimit: options.perWebhook })
  }).pipe(withSpan("webhooks.claim", { attributes: { limit } }))

/**
 * Claims one batch of due deliveries (at most `concurrency`) and sends them, different webhooks at once,
 * each recorded as it ends. Answers how many were claimed.
 */
export const deliverDue = (options: DeliveryWorkerOptions = DEFAULT_DELIVERY_WORKER) =>
  Effect.gen(function* () {
    const claimed = yield* claimDue(options.concurrency, options)
    yield* Effect.forEach(claimed, deliverClaimed, { concurrency: options.concurrency, discard: true })
    return claimed.length
  })

/**
 * The delivery loop of one process: keeps up to `concurrency` sends in flight, claims more as sends end,
 * and when nothing is due waits for the queue to wake it (or a poll). A failed look at the queue is
 * logged and retried a second later; a failed send is logged and its delivery comes back after the lease.
 */
export const runDeliveryWorker = (options: DeliveryWorkerOptions = DEFAULT_DELIVERY_WORKER) =>
  Effect.flatMap(DeliveryQueue, (queue) =>
    runClaimLoop({
      name: "webhook worker",
      concurrency: options.concurrency,
      claim: (room) => claimDue(room, options),
      run: deliverClaimed,
      describe: (delivery) => `webhook delivery ${delivery.id}`,
      // New work wakes the queue; the poll covers other instances' and retries coming due.
      idle: queue.awaitWork(options.idleMs ?? DEFAULT_DELIVERY_WORKER.idleMs),
      // A send in flight is finished (within the 10 s deadline) and recorded even when the worker stops, so a
      // clean shutdown neither cuts a receiver off mid-request nor leaves the delivery to wait out its lease.
      finishOnStop: true
    })
  )

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
