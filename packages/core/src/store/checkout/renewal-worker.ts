import { Clock, Duration, Effect, Layer, Option } from "effect"
import { newClaim, runClaimLoop } from "../../shared/claim-loop.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { withSpan } from "../../shared/spans.js"
import { ProductsRepo } from "../catalog/ports.js"
import { AccessRepo } from "../sales/ports.js"
import { StoreSales } from "../sales/sales.js"
import { SubscriptionsRepo } from "./ports.js"
import { addMonths } from "./price-options.js"
import type { HeldSubscription } from "./subscription.js"

/** How the renewal worker of one process runs. */
export interface RenewalWorkerOptions {
  /** How long a claim holds a subscription before another worker may take it over (after a crash). */
  readonly leaseMs: number
  /** Renewals in flight at once in this process. */
  readonly concurrency?: number | undefined
  /** Wait between looks for due renewals when nothing was due. */
  readonly idleMs?: number | undefined
}

/** The defaults of {@link RenewalWorkerOptions}. */
export const DEFAULT_RENEWAL_WORKER = { leaseMs: 60_000, concurrency: 4, idleMs: 30_000 } as const

/** Claims up to `limit` subscriptions due now, held for `leaseMs`. */
export const claimDueRenewals = (limit: number, leaseMs: number) =>
  Effect.gen(function* () {
    const repo = yield* SubscriptionsRepo
    return yield* repo.claimDue(yield* newClaim(leaseMs), limit)
  }).pipe(withSpan("Subscriptions.claimDue", { attributes: { limit } }))

/**
 * Charges one held subscription for its next period and records the renewal, in one transaction: while the buyer's
 * access is active, the test processor takes the charge (it always does: a test card on file cannot fail), access is
 * paid to the period's end and `membership.renewed` is written; once the access is cancelled, ended, refunded or
 * removed the subscription stops without a charge. A worker that lost its claim changes nothing.
 */
export const renewHeld = (held: HeldSubscription) =>
  Effect.gen(function* () {
    const repo = yield* SubscriptionsRepo
    const products = yield* ProductsRepo
    const access = yield* AccessRepo
    const sales = yield* StoreSales
    const ids = yield* Ids
    yield* (yield* Transactor).withTransaction(
      Effect.gen(function* () {
        const found = yield* repo.lockClaimed(held.id, held.claimToken)
        if (Option.isNone(found)) return
        const subscription = found.value
        const now = new Date(yield* Clock.currentTimeMillis)
        const stop = (reason: string) =>
          repo.move(subscription.id, subscription.claimToken, {
            state: "stopped",
            stopReason: reason,
            renewsAt: subscription.renewsAt,
            renewals: subscription.renewals,
            at: now
          })
        const product = yield* products.find(subscription.workspaceId, subscription.productId)
        if (Option.isNone(product)) return yield* stop("product_deleted")
        const [person] = yield* access.accessOf(subscription.workspaceId, subscription.email, subscription.productId)
        // The seller cancelled, ended, refunded or removed it (or the buyer's access moved to another subscription):
        // there is nothing more to charge.
        if (person === undefined || person.state !== "active") return yield* stop(person?.state ?? "no_access")
        if (person.subscriptionId !== subscription.id) return yield* stop("replaced")
        const paidUntil = addMonths(subscription.renewsAt, subscription.periodMonths)
        yield* sales.renew({
          product: product.value,
          email: subscription.email,
          name: subscription.name,
          billing: subscription.billing,
          amountCents: subscription.amountCents,
          how: "bought",
          orderId: yield* ids.make(subscription.test ? "test_ord_" : "ord_"),
          subscriptionId: subscription.id,
          paidUntil,
          now
        })
        yield* repo.move(subscription.id, subscription.claimToken, {
          state: "active",
          stopReason: null,
          renewsAt: paidUntil,
          renewals: subscription.renewals + 1,
          at: now
        })
      })
    )
  }).pipe(withSpan("Subscriptions.renew", { attributes: { subscription: held.id } }))

/** One look: claims up to `concurrency` due subscriptions and renews them; answers how many it claimed. */
export const runDueRenewals = (options: RenewalWorkerOptions = DEFAULT_RENEWAL_WORKER) =>
  Effect.gen(function* () {
    const concurrency = options.concurrency ?? DEFAULT_RENEWAL_WORKER.concurrency
    const claimed = yield* claimDueRenewals(concurrency, options.leaseMs)
    yield* Effect.forEach(claimed, renewHeld, { concurrency, discard: true })
    return claimed.length
  })

/** A layer that keeps the renewal loop running while it is alive; a failed renewal is retried after its lease. */
export const RenewalWorkerLive = (options: RenewalWorkerOptions = DEFAULT_RENEWAL_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs < 2_000 || (options.concurrency ?? 1) < 1) {
        return yield* Effect.dieMessage("the renewal lease must be at least 2 s and the concurrency at least 1")
      }
      yield* Effect.forkScoped(
        runClaimLoop({
          name: "renewal worker",
          concurrency: options.concurrency ?? DEFAULT_RENEWAL_WORKER.concurrency,
          claim: (room) => claimDueRenewals(room, options.leaseMs),
          run: renewHeld,
          describe: (subscription: HeldSubscription) => `subscription ${subscription.id}`,
          idle: Effect.sleep(Duration.millis(options.idleMs ?? DEFAULT_RENEWAL_WORKER.idleMs)),
          // A renewal is one short transaction: finishing it on shutdown beats waiting out its lease.
          finishOnStop: true
        })
      )
    })
  )
