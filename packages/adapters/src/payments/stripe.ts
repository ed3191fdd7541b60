/**
 * The card processor on Stripe, through Stripe's official library (`stripe`, API version 2026-10-28): a Checkout
 * page per attempt (a payment, or a subscription with its trial and first discount), signed webhook events,
 * cancellations and refunds. Each call names the seller's secret key; the library's client is made once per key.
 */
import {
  CardProcessor,
  type HostedPaymentRequest,
  type ProcessorEvent,
  type ProcessorKey,
  ProcessorFailure,
  ProcessorSignatureRefused,
  STORE_CURRENCY
} from "@svc/core/store"
import { Clock, type Context, Effect, Layer } from "effect"
import type { Stripe } from "stripe"
import { loadOptional } from "../optional-package.js"

/** Settings of {@link makeStripeProcessor}. */
export interface StripeProcessorOptions {
  /** Where the API is, as an origin (default Stripe's, `https://api.stripe.com`); tests point it at a replay server. */
  readonly apiBase?: string
  /** The longest one request may wait for Stripe, each retry included anew (default 10 s). */
  readonly timeoutMs?: number
  /** Retries of a request that failed on the network, a 409 or a 5xx (default 2); every write is idempotent. */
  readonly maxNetworkRetries?: number
}

type Service = Context.Tag.Service<typeof CardProcessor>
type StripeModule = typeof import("stripe")
type Client = Stripe

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_RETRIES = 2

/** Loaded when first used: a server that never takes a card through Stripe needs no `stripe` package. */
const loadStripe = loadOptional({
  packages: ["stripe"],
  purpose: "The Stripe card processor",
  load: (): Promise<StripeModule> => import("stripe")
})

/** The Stripe card processor. */
export const makeStripeProcessor = (options: StripeProcessorOptions = {}): Service => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const address = options.apiBase === undefined ? {} : addressOf(options.apiBase)
  const clients = new Map<string, Client>()
  let library: StripeModule | undefined

  const loaded = Effect.suspend(() =>
    library === undefined ? Effect.tap(loadStripe, (module) => (library = module)) : Effect.succeed(library)
  )

  const clientOf = (secretKey: string) =>
    Effect.map(loaded, (module) => {
      const known = clients.get(secretKey)
      if (known !== undefined) return { module, client: known }
      const client = new module.Stripe(secretKey, {
        ...address,
        timeout: timeoutMs,
        maxNetworkRetries: options.maxNetworkRetries ?? DEFAULT_RETRIES
      })
      clients.set(secretKey, client)
      return { module, client }
    })

  /**
   * One API request. The library takes no AbortSignal, so an interrupted call ends at its own timeout; its own
   * errors become a {@link StripeFailure}, anything else is a defect.
   */
  const stripeCall = <A>(
    secretKey: string,
    doing: string,
    run: (client: Client) => Promise<A>
  ): Effect.Effect<A, StripeFailure> =>
    Effect.flatMap(
      Effect.mapError(clientOf(secretKey), (missing) => ({
        failure: new ProcessorFailure({ reason: "unavailable", message: missing.message }),
        code: undefined,
        stripeMessage: ""
      })),
      ({ module, client }) =>
        Effect.tryPromise({ try: () => run(client), catch: (cause) => cause }).pipe(
          Effect.catchAll((cause) =>
            cause instanceof module.Stripe.errors.StripeError
              ? Effect.fail(failureOf(doing, cause, secretKey, timeoutMs))
              : Effect.die(cause)
          )
        )
    )

  const api = <A>(secretKey: string, doing: string, run: (client: Client) => Promise<A>) =>
    Effect.mapError(stripeCall(secretKey, doing, run), (failure) => failure.failure)

  const checkKey: Service["checkKey"] = (secretKey) =>
    api(secretKey, "checking the secret key", (client) => client.accounts.retrieveCurrent()).pipe(
      // The account object carries no livemode; the key's own prefix says which mode it is of.
      Effect.map((account) => ({ accountId: account.id, livemode: /^[sr]k_live_/.test(secretKey) })),
      Effect.withSpan("stripe.checkKey")
    )

  /** The session's parameters; a subscription's first discount is a coupon made for this attempt alone. */
  const sessionParamsOf = (request: HostedPaymentRequest) =>
    Effect.gen(function* () {
      if (request.mode === "payment") return paymentSessionOf(request)
      const { interval, firstDiscount } = request
      if (interval === null) {
        return yield* new ProcessorFailure({
          reason: "refused",
          message: `A subscription to ${request.productName} needs a billing interval (month or year); none was given.`
        })
      }
      const coupon =
        firstDiscount === null
          ? undefined
          : yield* api(request.key.secretKey, "creating the first payment's discount", (client) =>
              client.coupons.create(couponOf(request, firstDiscount), {
                idempotencyKey: `${request.reference}:coupon`,
                ...onBehalfOf(request.key)
              })
            )
      return subscriptionSessionOf(request, interval, coupon?.id)
    })

  const startPayment: Service["startPayment"] = (request) =>
    Effect.gen(function* () {
      const params = yield* sessionParamsOf(request)
      const session = yield* api(request.key.secretKey, "opening the Checkout page", (client) =>
        client.checkout.sessions.create(params, {
          idempotencyKey: `${request.reference}:session`,
          ...onBehalfOf(request.key)
        })
      )
      if (session.url === null) {
        return yield* new ProcessorFailure({
          reason: "refused",
          message: `Stripe opened Checkout session ${session.id} without a page address (ui_mode ${session.ui_mode ?? "unknown"}), so the buyer cannot be sent there. Check the Checkout settings of the Stripe account.`
        })
      }
      return { sessionId: session.id, url: session.url }
    }).pipe(
      Effect.withSpan("stripe.startPayment", { attributes: { reference: request.reference, mode: request.mode } })
    )

  const readEvent: Service["readEvent"] = (webhookSecret, payload, signature) =>
    Effect.gen(function* () {
      // Without the library no signature can be checked: a defect (500), so Stripe sends the event again later.
      const module = yield* Effect.orDie(loaded)
      const now = yield* Clock.currentTimeMillis
      const event = yield* Effect.try({
        // The library's default tolerance (300 s), measured against the service's clock.
        try: () => module.Stripe.webhooks.constructEvent(payload, signature, webhookSecret, undefined, undefined, now),
        catch: (cause) =>
          new ProcessorSignatureRefused({
            message:
              cause instanceof module.Stripe.errors.StripeSignatureVerificationError
                ? `The Stripe webhook's signature does not check out: ${sentence(cause.message.split("\n")[0] ?? "")} Check that the store's webhook signing secret is the one (whsec_…) of this endpoint in the Stripe Dashboard, that the body is read raw, byte for byte, and that the server's clock is right.`
                : `The Stripe webhook could not be read as an event (${cause instanceof Error ? cause.message : String(cause)}). Check that the body is passed on raw, as Stripe sent it.`
          })
      })
      // A Connect endpoint's events name the connected account they are about.
      return { ...eventOf(event), account: event.account ?? null }
    }).pipe(Effect.withSpan("stripe.readEvent"))

  const cancelSubscription: Service["cancelSubscription"] = (key, subscriptionId) =>
    stripeCall(key.secretKey, `cancelling subscription ${subscriptionId}`, (client) =>
      client.subscriptions.cancel(subscriptionId, undefined, onBehalfOf(key))
    ).pipe(
      Effect.asVoid,
      // Stripe answers a cancelled subscription's cancel with resource_missing, as it does an unknown one: both have
      // ended. Not so one of the other mode ("a similar object exists in test mode"): that one is still running.
      Effect.catchIf(
        (failure) => failure.code === "resource_missing" && !/similar object exists/i.test(failure.stripeMessage),
        () => Effect.void
      ),
      Effect.mapError((failure) => failure.failure),
      Effect.withSpan("stripe.cancelSubscription", { attributes: { subscriptionId } })
    )

  const endSubscriptionAt: Service["endSubscriptionAt"] = (key, subscriptionId, at) =>
    api(key.secretKey, `setting the end of subscription ${subscriptionId}`, (client) =>
      client.subscriptions.update(subscriptionId, { cancel_at: unixSeconds(at) }, onBehalfOf(key))
    ).pipe(Effect.asVoid, Effect.withSpan("stripe.endSubscriptionAt", { attributes: { subscriptionId } }))

  const refund: Service["refund"] = (key, paymentId) =>
    stripeCall(key.secretKey, `refunding payment ${paymentId}`, (client) =>
      client.refunds.create(
        { payment_intent: paymentId },
        { idempotencyKey: `refund:${paymentId}`, ...onBehalfOf(key) }
      )
    ).pipe(
      Effect.asVoid,
      Effect.catchIf(
        (failure) => failure.code === "charge_already_refunded",
        () => Effect.void
      ),
      Effect.mapError((failure) => failure.failure),
      Effect.withSpan("stripe.refund", { attributes: { paymentId } })
    )

  const invoiceOfPayment: Service["invoiceOfPayment"] = (key, paymentId) =>
    api(key.secretKey, `finding the invoice payment ${paymentId} paid`, (client) =>
      client.invoicePayments.list(
        {
          payment: { type: "payment_intent", payment_intent: paymentId },
          limit: 1,
          expand: ["data.invoice"]
        },
        onBehalfOf(key)
      )
    ).pipe(
      Effect.map((page) => {
        const invoice = page.data[0]?.invoice
        if (invoice === undefined) return null
        // Expanded as asked; an id alone (or a deleted invoice) still names the invoice, without its subscription.
        if (typeof invoice === "string") return { invoiceId: invoice, subscriptionId: null, billingReason: null }
        if ("deleted" in invoice && invoice.deleted === true) {
          return { invoiceId: invoice.id, subscriptionId: null, billingReason: null }
        }
        return {
          invoiceId: invoice.id ?? "",
          subscriptionId: subscriptionOf(invoice),
          billingReason: invoice.billing_reason
        }
      }),
      Effect.withSpan("stripe.invoiceOfPayment", { attributes: { paymentId } })
    )

  const connectAccount: Service["connectAccount"] = (platformKey, code) =>
    api(platformKey, "completing the Stripe Connect authorization", (client) =>
      client.oauth.token({ grant_type: "authorization_code", code })
    ).pipe(
      Effect.flatMap((token) =>
        token.stripe_user_id === undefined
          ? Effect.fail(
              new ProcessorFailure({
                reason: "refused",
                message: "Stripe completed the authorization without naming the connected account."
              })
            )
          : Effect.succeed({ accountId: token.stripe_user_id, livemode: token.livemode ?? false })
      ),
      Effect.withSpan("stripe.connectAccount")
    )

  const disconnectAccount: Service["disconnectAccount"] = (platformKey, clientId, accountId) =>
    stripeCall(platformKey, `disconnecting account ${accountId}`, (client) =>
      client.oauth.deauthorize({ client_id: clientId, stripe_user_id: accountId })
    ).pipe(
      Effect.asVoid,
      // An account that has already let the platform go is disconnected: what was asked is done.
      Effect.catchIf(
        (failure) => failure.code === "invalid_client",
        () => Effect.void
      ),
      Effect.mapError((failure) => failure.failure),
      Effect.withSpan("stripe.disconnectAccount", { attributes: { accountId } })
    )

  return {
    checkKey,
    startPayment,
    readEvent,
    cancelSubscription,
    endSubscriptionAt,
    refund,
    invoiceOfPayment,
    connectAccount,
    disconnectAccount
  }
}

/** The request option that makes a call with the platform's key act for a connected account. */
const onBehalfOf = (key: ProcessorKey): { stripeAccount?: string } =>
  key.account === null ? {} : { stripeAccount: key.account }

/** {@link CardProcessor} on Stripe. */
export const StripeProcessorLive = (options: StripeProcessorOptions = {}): Layer.Layer<CardProcessor> =>
  Layer.succeed(CardProcessor, makeStripeProcessor(options))

/** The library's `host`, `port` and `protocol` settings for an origin such as `http://127.0.0.1:4010`. */
const addressOf = (origin: string): { host: string; port: number; protocol: "http" | "https" } => {
  const url = new URL(origin)
  const protocol = url.protocol === "http:" ? "http" : "https"
  return { host: url.hostname, port: url.port === "" ? (protocol === "http" ? 80 : 443) : Number(url.port), protocol }
}

const unixSeconds = (at: Date) => Math.floor(at.getTime() / 1000)
const dateOf = (seconds: number | null | undefined) => (seconds == null ? null : new Date(seconds * 1000))

/** An expandable field's id, whether Stripe sent the id or the object. */
const idOf = (value: string | { readonly id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id

const couponOf = (
  request: HostedPaymentRequest,
  discount: NonNullable<HostedPaymentRequest["firstDiscount"]>
): Stripe.CouponCreateParams => ({
  ...("percentOff" in discount
    ? { percent_off: discount.percentOff }
    : { amount_off: discount.amountOffCents, currency: STORE_CURRENCY }),
  duration: "once",
  // Made for this one attempt: nobody else may redeem it.
  max_redemptions: 1,
  metadata: { ...request.metadata }
})

/** What every session carries: the buyer, the attempt, the way back, the deadline and the seller's notes. */
const commonOf = (request: HostedPaymentRequest) => ({
  customer_email: request.email,
  client_reference_id: request.reference,
  success_url: request.successUrl,
  cancel_url: request.cancelUrl,
  expires_at: unixSeconds(request.expiresAt),
  metadata: { ...request.metadata }
})

const priceOf = (request: HostedPaymentRequest) => ({
  currency: STORE_CURRENCY,
  unit_amount: request.amountCents,
  product_data: { name: request.productName }
})

const paymentSessionOf = (request: HostedPaymentRequest): Stripe.Checkout.SessionCreateParams => ({
  mode: "payment",
  line_items: [{ quantity: 1, price_data: priceOf(request) }],
  // Copied so the seller finds them on the payment too, where refunds and disputes are.
  payment_intent_data: { metadata: { ...request.metadata } },
  ...commonOf(request)
})

const subscriptionSessionOf = (
  request: HostedPaymentRequest,
  interval: "month" | "year",
  couponId: string | undefined
): Stripe.Checkout.SessionCreateParams => ({
  mode: "subscription",
  line_items: [{ quantity: 1, price_data: { ...priceOf(request), recurring: { interval } } }],
  subscription_data: {
    metadata: { ...request.metadata },
    ...(request.trialDays !== null && request.trialDays > 0 ? { trial_period_days: request.trialDays } : {})
  },
  ...(couponId === undefined ? {} : { discounts: [{ coupon: couponId }] }),
  ...commonOf(request)
})

/** A failure with what Stripe said, so a caller can let some codes count as done. */
interface StripeFailure {
  readonly failure: ProcessorFailure
  readonly code: string | undefined
  readonly stripeMessage: string
}

/** A key-shaped word in Stripe's message (its 401 names the key, masked but for the last characters). */
const KEY_PATTERN = /\b([sr]k_(?:live|test)_)[A-Za-z0-9*]+/g

const sentence = (text: string) => {
  const trimmed = text.trim()
  return trimmed === "" || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
}

const failureOf = (
  doing: string,
  error: Stripe.errors.StripeError,
  secretKey: string,
  timeoutMs: number
): StripeFailure => {
  const said =
    sentence(error.message.replaceAll(secretKey, "…").replace(KEY_PATTERN, "$1…")) || "Stripe gave no reason."
  const requestId = error.requestId === undefined ? "" : ` Stripe's request id: ${error.requestId}.`
  const make = (reason: ProcessorFailure["reason"], message: string): StripeFailure => ({
    failure: new ProcessorFailure({ reason, message }),
    code: error.code,
    stripeMessage: error.message
  })
  switch (error.type) {
    case "StripeAuthenticationError":
      return make(
        "bad_key",
        `Stripe did not accept the secret key while ${doing}: ${said} Check the secret key in the store settings (sk_live_… or sk_test_…, from the Stripe Dashboard's API keys).`
      )
    case "StripePermissionError":
      return make(
        "bad_key",
        `The secret key may not do this at Stripe (${doing}): ${said} Put the account's secret key in the store settings, or give the restricted key what the store uses: Account read, and write on Checkout Sessions, Coupons, Subscriptions and Refunds.`
      )
    case "StripeConnectionError":
      return timedOut(error.detail)
        ? make("timeout", `Stripe did not answer within ${timeoutMs} ms while ${doing}. Try again in a moment.`)
        : make("unavailable", `Stripe could not be reached while ${doing}: ${said} Try again in a moment.`)
    case "StripeRateLimitError":
      return make(
        "unavailable",
        `Stripe is turning away requests as too many while ${doing}: ${said} Try again in a minute.`
      )
    case "StripeAPIError":
      return make(
        "unavailable",
        `Stripe failed while ${doing}${error.statusCode === undefined ? "" : ` (HTTP ${error.statusCode})`}: ${said} Try again in a moment.${requestId}`
      )
    default:
      // Invalid requests, card and idempotency errors: Stripe read the request and said no.
      return make(
        "refused",
        `Stripe refused ${doing}${error.param === undefined ? "" : ` (field ${error.param})`}: ${said}${requestId}`
      )
  }
}

const timedOut = (detail: Stripe.errors.StripeError["detail"]) =>
  typeof detail === "object" && detail !== null && "code" in detail && detail.code === "ETIMEDOUT"

/** The checkout's view of a verified Stripe event. */
const eventOf = (event: Stripe.Event): ProcessorEvent => {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object
      return {
        kind: "checkout_completed",
        id: event.id,
        sessionId: session.id,
        reference: session.client_reference_id,
        paymentStatus:
          session.payment_status === "paid"
            ? "paid"
            : session.payment_status === "no_payment_required"
              ? "no_payment_required"
              : "unpaid",
        amountTotalCents: session.amount_total ?? 0,
        customerEmail: session.customer_details?.email ?? session.customer_email,
        subscriptionId: idOf(session.subscription),
        paymentId: idOf(session.payment_intent)
      }
    }
    case "checkout.session.expired":
      return { kind: "checkout_expired", id: event.id, sessionId: event.data.object.id }
    case "invoice.paid": {
      const invoice = event.data.object
      return {
        kind: "invoice_paid",
        id: event.id,
        invoiceId: invoice.id,
        subscriptionId: subscriptionOf(invoice),
        amountPaidCents: invoice.amount_paid,
        billingReason: invoice.billing_reason,
        periodEnd: dateOf(subscriptionLineOf(invoice)?.period.end),
        paymentId: paymentOf(invoice)
      }
    }
    case "invoice.payment_failed": {
      const invoice = event.data.object
      return {
        kind: "invoice_payment_failed",
        id: event.id,
        invoiceId: invoice.id,
        subscriptionId: subscriptionOf(invoice),
        attemptCount: invoice.attempt_count,
        nextAttemptAt: dateOf(invoice.next_payment_attempt)
      }
    }
    case "customer.subscription.updated": {
      const subscription = event.data.object
      // Since API version 2025-03-31 the period lives on each item; the checkout sells one item per subscription.
      const currentPeriodEnd = dateOf(subscription.items.data[0]?.current_period_end)
      return {
        kind: "subscription_updated",
        id: event.id,
        subscriptionId: subscription.id,
        status: subscription.status,
        cancelAt: dateOf(subscription.cancel_at) ?? (subscription.cancel_at_period_end ? currentPeriodEnd : null),
        currentPeriodEnd
      }
    }
    case "customer.subscription.deleted":
      return { kind: "subscription_deleted", id: event.id, subscriptionId: event.data.object.id }
    case "account.application.deauthorized":
      return { kind: "account_deauthorized", id: event.id }
    case "charge.refunded": {
      const charge = event.data.object
      return {
        kind: "charge_refunded",
        id: event.id,
        paymentId: idOf(charge.payment_intent),
        // A charge names no invoice since API version 2025-03-31 (invoice payments link them now).
        invoiceId: null,
        fullyRefunded: charge.refunded
      }
    }
    default:
      return { kind: "ignored", id: event.id, type: event.type }
  }
}

const subscriptionOf = (invoice: Stripe.Invoice) => idOf(invoice.parent?.subscription_details?.subscription)

/** The subscription's own line (prorations and one-off items come first in `lines`), else the first line. */
const subscriptionLineOf = (invoice: Stripe.Invoice) =>
  invoice.lines.data.find((line) => line.parent?.type === "subscription_item_details") ?? invoice.lines.data[0]

/** The PaymentIntent that paid the invoice, when the event includes the invoice's payments (they are includable). */
const paymentOf = (invoice: Stripe.Invoice) => {
  const paid = (invoice.payments?.data ?? []).filter(
    (payment) => payment.status === "paid" && payment.payment.type === "payment_intent"
  )
  const chosen = paid.find((payment) => payment.is_default) ?? paid[0]
  return idOf(chosen?.payment.payment_intent)
}
