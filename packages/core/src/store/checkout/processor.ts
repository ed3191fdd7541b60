import { Context, Effect, Schema } from "effect"

/**
 * A live card processor with a hosted payment page (Stripe Checkout): the service's checkout sends the buyer there,
 * and learns what happened from the processor's signed events. The built-in test processor needs none of this: it
 * charges inside the checkout's own transaction (`test-processor.ts`).
 */

/**
 * What the processor is called with for one store: the seller's own secret key (`account` null), or, for an account
 * connected through the platform (Stripe Connect), the platform's secret key acting for `account` (`acct_…`).
 */
export interface ProcessorKey {
  readonly secretKey: string
  readonly account: string | null
}

/** What a live processor's hosted page is asked to take. Amounts are integer cents of {@link STORE_CURRENCY}. */
export interface HostedPaymentRequest {
  /** The store's key at the processor. */
  readonly key: ProcessorKey
  /** The checkout attempt (`chk_…`): the processor hands it back on the events of this payment. */
  readonly reference: string
  readonly productName: string
  readonly email: string
  /**
   * `payment`: one charge of `amountCents` (any discount already taken off). `subscription`: `amountCents` every
   * `interval`, after `trialDays` free days, with `firstDiscount` off the first charge.
   */
  readonly mode: "payment" | "subscription"
  readonly amountCents: number
  readonly interval: "month" | "year" | null
  readonly trialDays: number | null
  readonly firstDiscount: { readonly percentOff: number } | { readonly amountOffCents: number } | null
  /** Where the processor sends the buyer after paying, and back when they give up. */
  readonly successUrl: string
  readonly cancelUrl: string
  /** The page stops taking the payment then (the processor's shortest is 30 minutes). */
  readonly expiresAt: Date
  /** Kept on the processor's records, for the seller reading them there. */
  readonly metadata: Readonly<Record<string, string>>
}

/** A hosted payment page opened for one attempt. */
export interface HostedPayment {
  readonly sessionId: string
  readonly url: string
}

/** A processor event the checkout acts on, read from a signed webhook. */
export type ProcessorEvent =
  | {
      readonly kind: "checkout_completed"
      readonly id: string
      readonly sessionId: string
      readonly reference: string | null
      /** Whether money was taken (`paid`), none was due (`no_payment_required`: a trial), or it is still to come. */
      readonly paymentStatus: "paid" | "unpaid" | "no_payment_required"
      readonly amountTotalCents: number
      readonly customerEmail: string | null
      readonly subscriptionId: string | null
      /** The payment a refund names (a Stripe PaymentIntent); none for a subscription's session. */
      readonly paymentId: string | null
    }
  | { readonly kind: "checkout_expired"; readonly id: string; readonly sessionId: string }
  | {
      readonly kind: "invoice_paid"
      readonly id: string
      readonly invoiceId: string
      readonly subscriptionId: string | null
      readonly amountPaidCents: number
      /** `subscription_create` for the first invoice, `subscription_cycle` for each renewal. */
      readonly billingReason: string | null
      /** The end of the period the invoice pays for. */
      readonly periodEnd: Date | null
      readonly paymentId: string | null
    }
  | {
      readonly kind: "invoice_payment_failed"
      readonly id: string
      readonly invoiceId: string
      readonly subscriptionId: string | null
      readonly attemptCount: number
      readonly nextAttemptAt: Date | null
    }
  | {
      readonly kind: "subscription_updated"
      readonly id: string
      readonly subscriptionId: string
      readonly status: string
      /** Set when the subscription will end by itself (cancelled at the period's end, or a plan's last part). */
      readonly cancelAt: Date | null
      readonly currentPeriodEnd: Date | null
    }
  | { readonly kind: "subscription_deleted"; readonly id: string; readonly subscriptionId: string }
  | {
      readonly kind: "charge_refunded"
      readonly id: string
      readonly paymentId: string | null
      readonly invoiceId: string | null
      /** Whether the whole charge is refunded (a part refund leaves access as it is). */
      readonly fullyRefunded: boolean
    }
  /** The seller took the platform's access away at the processor (Stripe Connect): the store is disconnected. */
  | { readonly kind: "account_deauthorized"; readonly id: string }
  | { readonly kind: "ignored"; readonly id: string; readonly type: string }

/** An event as its signed webhook gave it, with the connected account it is about (none for a store's own key). */
export type SignedProcessorEvent = ProcessorEvent & { readonly account: string | null }

/** The processor refused or could not be reached; `reason` says which, `message` what to do. */
export class ProcessorFailure extends Schema.TaggedError<ProcessorFailure>()("ProcessorFailure", {
  reason: Schema.Literal("refused", "bad_key", "unavailable", "timeout"),
  message: Schema.String
}) {}

/** A webhook whose signature does not check out (or is older than the tolerance): it is answered 400, not applied. */
export class ProcessorSignatureRefused extends Schema.TaggedError<ProcessorSignatureRefused>()(
  "ProcessorSignatureRefused",
  { message: Schema.String }
) {}

/** What the live card processor does, as the checkout and its webhook use it. */
export interface CardProcessorShape {
  /** Checks a secret key: the account it belongs to, and whether it moves real money. */
  readonly checkKey: (
    secretKey: string
  ) => Effect.Effect<{ readonly accountId: string; readonly livemode: boolean }, ProcessorFailure>
  readonly startPayment: (request: HostedPaymentRequest) => Effect.Effect<HostedPayment, ProcessorFailure>
  /** Checks a webhook's signature (with the tolerance of the processor's library) and reads its event. */
  readonly readEvent: (
    webhookSecret: string,
    payload: string,
    signature: string
  ) => Effect.Effect<SignedProcessorEvent, ProcessorSignatureRefused>
  /** Ends a subscription now (the seller removed the buyer's access). */
  readonly cancelSubscription: (key: ProcessorKey, subscriptionId: string) => Effect.Effect<void, ProcessorFailure>
  /** Has a subscription end by itself at `at` (a payment plan's last part). */
  readonly endSubscriptionAt: (
    key: ProcessorKey,
    subscriptionId: string,
    at: Date
  ) => Effect.Effect<void, ProcessorFailure>
  /** Refunds a whole payment (a seller's refund through the store). */
  readonly refund: (key: ProcessorKey, paymentId: string) => Effect.Effect<void, ProcessorFailure>
  /**
   * The invoice a payment paid, when it paid one: its subscription, and why it was billed (`subscription_create` for
   * a subscription's first payment). A refund names only its payment, so this ties it to what it paid for.
   */
  readonly invoiceOfPayment: (
    key: ProcessorKey,
    paymentId: string
  ) => Effect.Effect<PaidInvoice | null, ProcessorFailure>
  /**
   * Completes a seller's authorization of the platform (Stripe Connect OAuth): the code their browser brought back,
   * redeemed with the platform's secret key, for the account they connected.
   */
  readonly connectAccount: (
    platformKey: string,
    code: string
  ) => Effect.Effect<{ readonly accountId: string; readonly livemode: boolean }, ProcessorFailure>
  /** Takes the platform's access to a connected account away (the seller disconnected the store). */
  readonly disconnectAccount: (
    platformKey: string,
    clientId: string,
    accountId: string
  ) => Effect.Effect<void, ProcessorFailure>
}

/** An invoice a payment paid (see {@link CardProcessorShape.invoiceOfPayment}). */
export interface PaidInvoice {
  readonly invoiceId: string
  readonly subscriptionId: string | null
  readonly billingReason: string | null
}

const notComposed = () =>
  Effect.fail(
    new ProcessorFailure({
      reason: "unavailable",
      message:
        "this server was composed without a card processor adapter (provide StripeProcessorLive from @svc/adapters/payments)"
    })
  )

/**
 * The live card processor (Stripe). A reference with a default, so a composition that never takes live payments
 * (a tool, a test of another area) needs none; that default refuses every call and says what to provide. `svc`
 * provides the Stripe adapter.
 */
export class CardProcessor extends Context.Reference<CardProcessor>()("svc/store/CardProcessor", {
  defaultValue: (): CardProcessorShape => ({
    checkKey: notComposed,
    startPayment: notComposed,
    readEvent: () =>
      Effect.fail(
        new ProcessorSignatureRefused({ message: "this server was composed without a card processor adapter" })
      ),
    cancelSubscription: notComposed,
    endSubscriptionAt: notComposed,
    refund: notComposed,
    invoiceOfPayment: notComposed,
    connectAccount: notComposed,
    disconnectAccount: notComposed
  })
}) {}
