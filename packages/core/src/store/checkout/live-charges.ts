import { Effect, Option } from "effect"
import { Conflict, Unreachable } from "../../shared/errors.js"
import type { Sale } from "../sales/sale.js"
import { HostedCheckoutsRepo } from "./ports.js"
import { CardProcessor, type ProcessorKey } from "./processor.js"
import { ProcessorSetup } from "./processor-setup.js"

const DASHBOARD = "refund it in Stripe's dashboard instead: Stripe's event then refunds it here"

/**
 * What the seller does to a sale the live processor (Stripe) took, done at Stripe too and first: a refund refunds the
 * payment, removing a member's access cancels the subscription. Stripe is asked before anything changes here, so a
 * buyer is never charged without access, nor refunded while keeping it; a refusal changes nothing and says so. A sale
 * of any other checkout (the test processor's, an own checkout's) needs nothing at a processor.
 */
export class LiveCharges extends Effect.Service<LiveCharges>()("svc/store/LiveCharges", {
  dependencies: [ProcessorSetup.Default],
  effect: Effect.gen(function* () {
    const setup = yield* ProcessorSetup
    const processor = yield* CardProcessor
    const hosted = yield* HostedCheckoutsRepo

    const keysOf = (workspaceId: string, what: string): Effect.Effect<ProcessorKey, Conflict | Unreachable> =>
      Effect.flatMap(
        setup.keys(workspaceId),
        (keys): Effect.Effect<ProcessorKey, Conflict | Unreachable> =>
          Option.isNone(keys)
            ? Effect.fail(
                new Conflict({
                  message: `${what} was paid on Stripe, and the store's Stripe account is no longer connected: connect it again in the store's settings, then try again`
                })
              )
            : keys.value.key === null
              ? Effect.fail(
                  new Unreachable({
                    message: `${what} was paid on Stripe through this server's Stripe Connect platform, whose settings the server no longer has: its operator must set them again`
                  })
                )
              : Effect.succeed(keys.value.key)
      )

    /** Refunds the sale's payment at Stripe, when the checkout sold it there. */
    const refund = (sale: Sale) =>
      Effect.gen(function* () {
        if (sale.source !== "svc_checkout" || sale.test || sale.amountCents === 0 || sale.orderId === null) return
        if (!sale.orderId.startsWith("ord_")) return
        const checkout = yield* hosted.findByAttempt(sale.workspaceId, `chk_${sale.orderId.slice("ord_".length)}`)
        if (Option.isNone(checkout)) return
        const key = yield* keysOf(sale.workspaceId, `Sale ${sale.id}`)
        if (checkout.value.paymentId === null) {
          return yield* new Conflict({
            message: `Stripe has not said which payment sale ${sale.id} was yet; ${DASHBOARD}`
          })
        }
        yield* processor.refund(key, checkout.value.paymentId).pipe(
          Effect.mapError(
            (failure) =>
              new Unreachable({
                message: `Stripe did not refund sale ${sale.id} (${failure.message}); nothing changed here: try again`
              })
          )
        )
      })

    /** Cancels the Stripe subscription a member's access came from, when the checkout sold it there. */
    const cancelSubscription = (workspaceId: string, subscriptionId: string | null) =>
      Effect.gen(function* () {
        if (subscriptionId === null) return
        const checkout = yield* hosted.findBySubscription(workspaceId, subscriptionId)
        if (Option.isNone(checkout)) return
        const key = yield* keysOf(workspaceId, `Subscription ${subscriptionId}`)
        yield* processor.cancelSubscription(key, subscriptionId).pipe(
          Effect.mapError(
            (failure) =>
              new Unreachable({
                message: `Stripe did not cancel subscription ${subscriptionId} (${failure.message}); the access is unchanged: try again`
              })
          )
        )
      })

    return { refund, cancelSubscription } as const
  })
}) {}
