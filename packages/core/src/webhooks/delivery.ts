import { Clock, Effect, Option, Random } from "effect"
import { Mailer } from "../mail/ports.js"
import { webhookDisabledEmail } from "../mail/templates.js"
import { newClaim } from "../shared/claim-loop.js"
import { Ids, Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { type AttemptResult, attemptDelivery } from "./attempt.js"
import { countDeliveries, recordDeliveryTime } from "./metrics.js"
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./policy.js"
import { type AttemptRecord, type ClaimedDelivery, DeliveryQueue, type NextStep } from "./queue.js"
import { signingSecrets } from "./secrets.js"

/** Retries come up to this fraction of their delay late (never early), so a burst of failures does not retry in step. */
export const RETRY_JITTER = 0.05

/** The longest wait a 429's `Retry-After` can ask for: the schedule's longest step. */
export const MAX_RETRY_AFTER_MS = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1] ?? 86_400_000

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

/** A claimed delivery after its try (or after finding nothing to send), waiting to be recorded. */
export interface EndedDelivery {
  readonly delivery: ClaimedDelivery
  /** The log row of the try; null when nothing was sent. */
  readonly attempt: AttemptRecord | null
  readonly next: NextStep
  /** When the try ended. */
  readonly at: Date
}

/**
 * Sends one claimed delivery, signed with the current secret (and the previous one while a roll's grace period
 * lasts), and answers how it ended and what comes next; nothing is recorded yet ({@link recordEnded}).
 */
export const sendClaimed = (delivery: ClaimedDelivery) =>
  Effect.gen(function* () {
    if (delivery.body === null) {
      yield* Effect.logWarning(`delivery ${delivery.id}: event ${delivery.eventId} is no longer stored; giving up`)
      const at = new Date(yield* Clock.currentTimeMillis)
      return { delivery, attempt: null, next: { status: "failed", at }, at } satisfies EndedDelivery
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
    yield* recordDeliveryTime(result.latencyMs)
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
    const next = yield* nextStep(result, number, endedAt)
    return { delivery, attempt, next, at: new Date(endedAt) } satisfies EndedDelivery
  }).pipe(withSpan("webhooks.deliver", { attributes: { delivery: delivery.id } }))

const disabledMail = (webhook: { readonly webhookId: string; readonly url: string }) =>
  webhookDisabledEmail({ ...webhook, failingDays: DISABLE_AFTER_FAILING_MS / 86_400_000 })

const counted = (ended: EndedDelivery) =>
  ended.attempt === null
    ? ("gave_up" as const)
    : ended.attempt.outcome === "delivered"
      ? ("delivered" as const)
      : ended.next.status === "pending"
        ? ("retrying" as const)
        : ("failed" as const)

/**
 * The failing clock of one webhook after its tries of a batch, in the order they ended, as if each had been recorded
 * alone: a success clears the clock, a failure starts it unless it runs already. A webhook that has done nothing but
 * fail for three days is turned off and its owner emailed (once: only the call that turned it off sends).
 */
const settleHealth = (webhookId: string, tries: ReadonlyArray<EndedDelivery>) =>
  Effect.gen(function* () {
    const queue = yield* DeliveryQueue
    let lastSuccess = tries.length - 1
    while (lastSuccess >= 0 && tries[lastSuccess]?.attempt?.outcome !== "delivered") lastSuccess--
    const failuresAfter = tries.slice(lastSuccess + 1)
    // A healthy webhook's success needs no write: the common case takes no lock on the webhook row.
    const wasFailing =
      tries.some((ended) => ended.delivery.webhookFailingSince !== null) ||
      tries.slice(0, lastSuccess).some((ended) => ended.attempt?.outcome !== "delivered")
    if (lastSuccess >= 0 && wasFailing) {
      yield* queue.markHealthy(webhookId)
    }
    const [firstFailure] = failuresAfter
    const lastFailure = failuresAfter[failuresAfter.length - 1]
    if (firstFailure === undefined || lastFailure === undefined) return
    const since = yield* queue.markFailing(webhookId, firstFailure.at)
    if (Option.isNone(since) || lastFailure.at.getTime() - since.value.getTime() < DISABLE_AFTER_FAILING_MS) return
    const off = yield* queue.disable(webhookId, "failing", lastFailure.at)
    if (Option.isNone(off)) return
    const mailer = yield* Mailer
    yield* mailer.send({ workspaceId: off.value.workspaceId, to: off.value.ownerEmail, ...disabledMail(off.value) })
    yield* Effect.logWarning(
      `webhook ${webhookId} failed for ${DISABLE_AFTER_FAILING_MS / 86_400_000} days and was turned off`
    )
  })

/**
 * Records ended deliveries in the caller's transaction: every log row and move in one statement (only where the
 * claim still holds; a delivery whose claim was lost keeps the other worker's result), then each webhook's failing
 * clock. Answers how many were recorded.
 */
export const recordEnded = (batch: ReadonlyArray<EndedDelivery>) =>
  Effect.gen(function* () {
    if (batch.length === 0) return 0
    const queue = yield* DeliveryQueue
    const kept = yield* queue.finishMany(
      batch.map((ended) => ({
        deliveryId: ended.delivery.id,
        claimToken: ended.delivery.claimToken,
        attempt: ended.attempt,
        next: ended.next
      }))
    )
    const byWebhook = new Map<string, Array<EndedDelivery>>()
    const outcomes = { delivered: 0, retrying: 0, failed: 0, gave_up: 0 }
    for (const ended of batch) {
      if (!kept.has(ended.delivery.id)) {
        yield* Effect.logDebug(`delivery ${ended.delivery.id}: claim lost to another worker; its result stands`)
        continue
      }
      outcomes[counted(ended)] += 1
      if (ended.attempt === null) continue
      const tries = byWebhook.get(ended.delivery.webhookId)
      if (tries === undefined) byWebhook.set(ended.delivery.webhookId, [ended])
      else tries.push(ended)
    }
    for (const [webhookId, tries] of byWebhook) yield* settleHealth(webhookId, tries)
    for (const [outcome, count] of Object.entries(outcomes) as Array<[keyof typeof outcomes, number]>) {
      if (count > 0) yield* countDeliveries(outcome, count)
    }
    return kept.size
  }).pipe(withSpan("webhooks.record", { attributes: { deliveries: batch.length } }))

/** Sends one claimed delivery and records how it went and what comes next. */
export const deliverClaimed = (delivery: ClaimedDelivery) =>
  Effect.gen(function* () {
    const ended = yield* sendClaimed(delivery)
    yield* (yield* Transactor).withTransaction(recordEnded([ended]))
  })

/** Claims up to `limit` due deliveries for this worker, with a fresh claim token and a lease of `leaseMs`. */
export const claimDue = (limit: number, options: { readonly leaseMs: number; readonly perWebhook: number }) =>
  Effect.gen(function* () {
    const queue = yield* DeliveryQueue
    const claim = yield* newClaim(options.leaseMs)
    return yield* queue.claim({ ...claim, limit, perWebhookLimit: options.perWebhook })
  }).pipe(withSpan("webhooks.claim", { attributes: { limit } }))
