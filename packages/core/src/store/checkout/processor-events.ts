import { Clock, Effect, Option } from "effect"
import { NotFound } from "../../shared/errors.js"
import { Transactor } from "../../shared/ports.js"
import { ProductsRepo } from "../catalog/ports.js"
import { SalesRepo } from "../sales/ports.js"
import { StoreSales } from "../sales/sales.js"
import { StorePaidQuestions } from "../questions/paid-questions.js"
import { orderIdOf } from "./checkout.js"
import type { HostedCheckout } from "./hosted-checkout.js"
import { DiscountCodesRepo, HostedCheckoutsRepo } from "./ports.js"
import { addMonths, paidUntilOf } from "./price-options.js"
import { CardProcessor, type ProcessorEvent, type ProcessorKey, type SignedProcessorEvent } from "./processor.js"
import { ProcessorPlatform } from "./processor-platform.js"
import { ProcessorSetup } from "./processor-setup.js"

/** What one processor event did: applied, already applied (a resend), or nothing this store acts on. */
export type EventResult = "applied" | "duplicate" | "ignored"

/**
 * The live processor's events, each applied once (the processor sends some twice, and resends any it thinks were
 * not received): a completed payment page sells, a paid invoice renews, a cancelled or deleted subscription cancels
 * or ends the membership, a refund refunds, and an expired page gives its held place and code back. Each is applied
 * in one transaction with its once-only key, so a failure leaves nothing and the processor's resend applies it whole.
 * What the processor must be told or asked in turn (a plan's end, which invoice a refunded payment paid) happens
 * inside it, so a failure there makes the processor send the event again.
 */
export class ProcessorEvents extends Effect.Service<ProcessorEvents>()("svc/store/ProcessorEvents", {
  dependencies: [StoreSales.Default, ProcessorSetup.Default, StorePaidQuestions.Default],
  effect: Effect.gen(function* () {
    const setup = yield* ProcessorSetup
    const processor = yield* CardProcessor
    const hosted = yield* HostedCheckoutsRepo
    const products = yield* ProductsRepo
    const salesRepo = yield* SalesRepo
    const sales = yield* StoreSales
    const codes = yield* DiscountCodesRepo
    const questions = yield* StorePaidQuestions
    const transactor = yield* Transactor
    const platform = (yield* ProcessorPlatform).connect

    const productOf = (checkout: HostedCheckout) => products.find(checkout.workspaceId, checkout.productId)

    const completed = (
      event: Extract<ProcessorEvent, { kind: "checkout_completed" }>,
      workspaceId: string,
      key: ProcessorKey,
      now: Date
    ) =>
      Effect.gen(function* () {
        // Some payment methods complete the page before the money arrives; the processor's later
        // `async_payment_succeeded` comes as a completion with the payment made.
        if (event.paymentStatus === "unpaid") return "ignored" as const
        // By the page, else by the attempt it was opened for: a page whose opening timed out here may still be paid,
        // and a payment is never left without its access.
        const bySession = yield* hosted.lockBySession(workspaceId, event.sessionId)
        const found =
          Option.isNone(bySession) && event.reference !== null
            ? yield* hosted.lockByAttempt(workspaceId, event.reference)
            : bySession
        if (Option.isNone(found) || found.value.state === "completed") return "ignored" as const
        const checkout = found.value
        const product = yield* productOf(checkout)
        if (Option.isNone(product)) return "ignored" as const
        // The buyer held a place from the page's opening, so the sale is not turned away now: they paid for it.
        const paidUntil = paidUntilOf(
          {
            choice: checkout.choice,
            priceCents: checkout.recurringCents ?? checkout.amountCents,
            billing: checkout.billing,
            periodMonths: checkout.periodMonths,
            trialDays: checkout.trialDays,
            parts: checkout.parts
          },
          now
        )
        const { sale } = yield* sales.sell({
          product: product.value,
          email: checkout.email,
          name: checkout.name,
          billing: checkout.billing,
          amountCents: checkout.amountCents,
          source: "svc_checkout",
          how: "bought",
          orderId: orderIdOf(checkout.attempt, false),
          subscriptionId: event.subscriptionId,
          paidUntil,
          discountCode: checkout.discountCode,
          test: false,
          attribution: checkout.attribution,
          now
        })
        yield* hosted.update({
          ...checkout,
          state: "completed",
          sessionId: event.sessionId,
          subscriptionId: event.subscriptionId,
          paymentId: event.paymentId ?? checkout.paymentId,
          saleId: sale.id
        })
        // The question the buyer asked before the processor's page is the one this payment bought an answer to.
        if (checkout.question !== null) {
          yield* questions.ask({ product: product.value, sale, text: checkout.question, now })
        }
        // A payment plan is a monthly subscription that ends by itself after its last part.
        if (checkout.parts !== null && event.subscriptionId !== null) {
          yield* processor.endSubscriptionAt(key, event.subscriptionId, addMonths(now, checkout.parts))
        }
        return "applied" as const
      })

    const subscribed = (workspaceId: string, subscriptionId: string | null) =>
      Effect.gen(function* () {
        if (subscriptionId === null) return Option.none()
        const checkout = yield* hosted.findBySubscription(workspaceId, subscriptionId)
        if (Option.isNone(checkout) || checkout.value.state !== "completed") return Option.none()
        const product = yield* productOf(checkout.value)
        return Option.map(product, (p) => ({ checkout: checkout.value, product: p }))
      })

    const invoicePaid = (event: Extract<ProcessorEvent, { kind: "invoice_paid" }>, workspaceId: string, now: Date) =>
      Effect.gen(function* () {
        const found = yield* subscribed(workspaceId, event.subscriptionId)
        if (Option.isNone(found)) return "ignored" as const
        const { checkout, product } = found.value
        // The first invoice is the completed page's payment; keep its payment so a refund of it can be matched.
        if (event.billingReason === "subscription_create") {
          if (checkout.paymentId === null && event.paymentId !== null) {
            yield* hosted.update({ ...checkout, paymentId: event.paymentId })
          }
          return "applied" as const
        }
        // A plan's later parts pay for access the buyer already has for good.
        if (checkout.parts !== null) return "applied" as const
        yield* sales.renew({
          product,
          email: checkout.email,
          name: checkout.name,
          billing: checkout.billing,
          amountCents: event.amountPaidCents,
          how: "bought",
          orderId: event.invoiceId,
          subscriptionId: event.subscriptionId,
          paidUntil: event.periodEnd,
          now
        })
        return "applied" as const
      })

    const subscriptionUpdated = (
      event: Extract<ProcessorEvent, { kind: "subscription_updated" }>,
      workspaceId: string,
      now: Date
    ) =>
      Effect.gen(function* () {
        const found = yield* subscribed(workspaceId, event.subscriptionId)
        // A plan's own end is set by the service; only a membership's cancel is the buyer's.
        if (Option.isNone(found) || found.value.checkout.parts !== null || event.cancelAt === null) {
          return "ignored" as const
        }
        const { checkout, product } = found.value
        yield* sales.cancel(
          product,
          checkout.email,
          event.subscriptionId,
          { endsAt: event.cancelAt, paidUntil: event.currentPeriodEnd },
          now
        )
        return "applied" as const
      })

    const subscriptionDeleted = (
      event: Extract<ProcessorEvent, { kind: "subscription_deleted" }>,
      workspaceId: string,
      now: Date
    ) =>
      Effect.gen(function* () {
        const found = yield* subscribed(workspaceId, event.subscriptionId)
        // A plan that ran its parts leaves the buyer's access as it is: it was bought for good.
        if (Option.isNone(found) || found.value.checkout.parts !== null) return "ignored" as const
        yield* sales.end(found.value.product, found.value.checkout.email, event.subscriptionId, now)
        return "applied" as const
      })

    const refunded = (
      event: Extract<ProcessorEvent, { kind: "charge_refunded" }>,
      workspaceId: string,
      key: ProcessorKey,
      now: Date
    ) =>
      Effect.gen(function* () {
        // A part refund is the seller's goodwill: access stays. A whole one of any of a membership's charges refunds
        // the membership, as a refund through POST /sales of its order does (a later charge puts the access back).
        if (!event.fullyRefunded || event.paymentId === null) return "ignored" as const
        const paymentId = event.paymentId
        const byPayment = yield* hosted.findByPayment(workspaceId, paymentId)
        // Stripe names a membership's charges only on their invoices, which its events leave out: it is asked which
        // invoice the payment paid (after the once-only claim, so a resend never asks again).
        const checkout = Option.isSome(byPayment)
          ? byPayment
          : yield* Effect.flatMap(processor.invoiceOfPayment(key, paymentId), (invoice) =>
              invoice?.subscriptionId == null
                ? Effect.succeed(Option.none())
                : hosted.findBySubscription(workspaceId, invoice.subscriptionId)
            )
        if (Option.isNone(checkout) || checkout.value.saleId === null) return "ignored" as const
        const sale = yield* salesRepo.find(workspaceId, checkout.value.saleId)
        const product = yield* productOf(checkout.value)
        if (Option.isNone(sale) || Option.isNone(product)) return "ignored" as const
        yield* sales.refund(product.value, sale.value, now)
        return "applied" as const
      })

    const expired = (event: Extract<ProcessorEvent, { kind: "checkout_expired" }>, workspaceId: string) =>
      Effect.gen(function* () {
        const found = yield* hosted.lockBySession(workspaceId, event.sessionId)
        if (Option.isNone(found) || (found.value.state !== "open" && found.value.state !== "opening")) {
          return "ignored" as const
        }
        if (found.value.discountCodeId !== null) yield* codes.giveBack(workspaceId, found.value.discountCodeId)
        yield* hosted.update({ ...found.value, state: "expired" })
        return "applied" as const
      })

    const apply = (event: ProcessorEvent, workspaceId: string, key: ProcessorKey, now: Date) => {
      switch (event.kind) {
        case "checkout_completed":
          return completed(event, workspaceId, key, now)
        case "checkout_expired":
          return expired(event, workspaceId)
        case "invoice_paid":
          return invoicePaid(event, workspaceId, now)
        case "subscription_updated":
          return subscriptionUpdated(event, workspaceId, now)
        case "subscription_deleted":
          return subscriptionDeleted(event, workspaceId, now)
        case "charge_refunded":
          return refunded(event, workspaceId, key, now)
        // The processor retries a failed charge on its own schedule; access follows the subscription's end, if any.
        case "invoice_payment_failed":
        case "ignored":
          return Effect.succeed("ignored" as const)
        case "account_deauthorized":
          return Effect.as(setup.deauthorized(workspaceId), "applied" as const)
      }
    }

    /** Applies a checked event to the store it is for, once (its id claimed in the same transaction). */
    const applyOnce = (event: SignedProcessorEvent, workspaceId: string, key: ProcessorKey) =>
      Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            if (!(yield* salesRepo.claim(workspaceId, `stripe-event:${event.id}`, now))) {
              return "duplicate" as EventResult
            }
            const result: EventResult = yield* apply(event, workspaceId, key, now)
            return result
          })
        )
      })

    const notConnected = new NotFound({ message: "this store has no Stripe account connected" })

    /**
     * Checks and applies one webhook of the store's processor (its own endpoint, for an account connected by key).
     * Fails `NotFound` when the store has no such account, `ProcessorSignatureRefused` when the signature does not
     * check out, and `ProcessorFailure` when the processor could not be told what the event needs (the processor then
     * sends it again).
     */
    const receive = (workspaceId: string, payload: string, signature: string) =>
      Effect.gen(function* () {
        const keys = yield* setup.keys(workspaceId)
        if (Option.isNone(keys) || keys.value.webhookSecret === null || keys.value.key === null) {
          return yield* notConnected
        }
        const event = yield* processor.readEvent(keys.value.webhookSecret, payload, signature)
        return yield* applyOnce(event, workspaceId, keys.value.key)
      })

    /**
     * Checks and applies one event of the platform's Connect endpoint: signed with the platform's webhook secret, and
     * about the connected account it names, applied to that account's store. Events of accounts no store has (one
     * disconnected here, or the platform's own) are answered `ignored`, so Stripe stops sending them.
     */
    const receiveConnect = (payload: string, signature: string) =>
      Effect.gen(function* () {
        if (platform === null) {
          return yield* new NotFound({ message: "this server does not offer Stripe Connect" })
        }
        const event = yield* processor.readEvent(platform.webhookSecret, payload, signature)
        if (event.account === null) return "ignored" as EventResult
        const keys = yield* setup.connectedAccount(event.account)
        if (Option.isNone(keys) || keys.value.key === null) return "ignored" as EventResult
        return yield* applyOnce(event, keys.value.account.workspaceId, keys.value.key)
      })

    return { receive, receiveConnect } as const
  })
}) {}
