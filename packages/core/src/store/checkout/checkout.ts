import { Clock, Data, Effect, Option } from "effect"
import { AccountsRepo, WorkspacesRepo } from "../../accounts/ports.js"
import { planAtLeast } from "../../accounts/schema.js"
import type { Store } from "../../accounts/workspace.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { unstorableText } from "../../shared/storable-text.js"
import { ProductsRepo } from "../catalog/ports.js"
import type { Product } from "../catalog/product.js"
import { StoreSetup } from "../catalog/settings.js"
import { StorePages } from "../catalog/store-pages.js"
import { makeStock } from "../catalog/stock.js"
import { readEmailAddress } from "../email-list/email-address.js"
import type { Attribution, Sale } from "../sales/sale.js"
import { SalesRepo } from "../sales/ports.js"
import { StoreSales } from "../sales/sales.js"
import {
  type DiscountCode,
  type DiscountRefusal,
  discountRefusal,
  discountRefusalMessage,
  priceAfterDiscount
} from "./discount-code.js"
import type { HostedCheckout } from "./hosted-checkout.js"
import { DiscountCodesRepo, HostedCheckoutsRepo, SubscriptionsRepo } from "./ports.js"
import { CardProcessor, type HostedPaymentRequest } from "./processor.js"
import { ProcessorSetup } from "./processor-setup.js"
import { dueNowCents, type PriceChoice, type PriceOption, paidUntilOf, priceOptions } from "./price-options.js"
import { chargeTestCard, readTestCard, type TestCard } from "./test-processor.js"
import { questionProblem, StorePaidQuestions } from "../questions/paid-questions.js"
import type { ProductReview, RatingSummary } from "../reviews/review.js"
import { StoreReviews } from "../reviews/reviews.js"

const ATTEMPT_PREFIX = "chk_"
const ATTEMPT_PATTERN = /^chk_[a-z0-9]{8,40}$/

/** The order id of an attempt's sale: the test processor's are marked, so they never pass for a live one. */
export const orderIdOf = (attempt: string, test: boolean) =>
  `${test ? "test_ord_" : "ord_"}${attempt.slice(ATTEMPT_PREFIX.length)}`

/** How long a live processor's payment page stays open (Stripe takes 30 minutes to 24 hours). */
const HOSTED_PAGE_MS = 60 * 60_000

/**
 * The discount a live processor takes off a membership's first charge. A one-time payment's discount is already in
 * its amount; a membership's page charges the full price each period, so the code becomes the processor's coupon.
 */
const firstDiscountOf = (checkout: HostedCheckout): HostedPaymentRequest["firstDiscount"] => {
  if (checkout.recurringCents === null || checkout.amountCents === checkout.recurringCents) return null
  if (checkout.trialDays !== null) return null
  const off = checkout.recurringCents - checkout.amountCents
  return off >= checkout.recurringCents ? { percentOff: 100 } : { amountOffCents: off }
}

/** The longest buyer name the checkout keeps. */
export const BUYER_NAME_MAX = 200
/** The longest attribution value (a `utm_*`, `fbclid` or referrer) kept on a sale; longer ones are cut. */
export const ATTRIBUTION_MAX = 500

/** Why a product cannot be bought at its checkout. */
export type Unavailable =
  | { readonly reason: "not_found"; readonly message: string }
  | {
      readonly reason: "external"
      readonly message: string
      readonly checkoutUrl: string
    }
  | { readonly reason: "not_on_sale"; readonly message: string }

/** A typed discount code as the checkout applies it. */
export type AppliedCode =
  | { readonly status: "applied"; readonly code: DiscountCode }
  | {
      readonly status: "refused"
      readonly typed: string
      readonly refusal: DiscountRefusal
    }

/** What the checkout page shows of a product on sale. */
export interface CheckoutOffer {
  readonly product: Product
  readonly store: Store
  readonly options: ReadonlyArray<PriceOption>
  /** Places left, when the product has a limit and shows it; null otherwise. */
  readonly left: number | null
  /** `waitlist_mode`: the page takes waitlist emails instead of selling. */
  readonly waitlistMode: boolean
  /** All places are taken; `waitlist` says whether the page takes waitlist emails then. */
  readonly soldOut: boolean
  readonly waitlist: boolean
  /** Whether the built-in test processor takes the payment (no money moves). */
  readonly test: boolean
  /** Whether a live processor (Stripe) takes the payment on its own page: this page asks for no card. */
  readonly hosted: boolean
  readonly code: AppliedCode | null
  /** The product's rating and its newest approved reviews, shown on the page. */
  readonly reviews: { readonly rating: RatingSummary; readonly reviews: ReadonlyArray<ProductReview> }
  /**
   * This showing of the page's order: the form sends it back, and one attempt sells at most once, so a form sent
   * twice (a double click, a reload) answers the first sale instead of making a second.
   */
  readonly attempt: string
}

/** What the buyer sent from the checkout page. */
export interface CheckoutRequest {
  readonly productId: string
  readonly choice: string
  readonly email: string
  readonly name: string
  /** The discount code typed; empty for none. */
  readonly code: string
  /** What a paid-question product's buyer asks; ignored for other products. */
  readonly question: string
  readonly card: TestCard | null
  /** The buyer passed the test processor's authentication step. */
  readonly authenticated: boolean
  /** The page's {@link CheckoutOffer.attempt}; a malformed one is replaced by a fresh one. */
  readonly attempt: string
  readonly attribution: Attribution
}

/** A field of the checkout form the buyer must correct, with the words to show beside it. */
export type CheckoutErrors = Readonly<
  Partial<
    Record<"email" | "name" | "choice" | "code" | "question" | "card_number" | "card_expiry" | "card_cvc", string>
  >
>

/** How a checkout ended. Nothing is written unless it ends `sold` or `turned_away` with `waitlisted`. */
export type CheckoutOutcome =
  | {
      readonly status: "sold"
      readonly sale: Sale
      readonly product: Product
      /** The buyer had had access before and lost it; the sale gave it back. */
      readonly restored: boolean
    }
  | { readonly status: "unavailable"; readonly unavailable: Unavailable }
  /** The buyer pays on the live processor's page: `openHosted` opens it, after the checkout's transaction. */
  | { readonly status: "hosted"; readonly checkout: HostedCheckout }
  | { readonly status: "refused"; readonly errors: CheckoutErrors }
  | { readonly status: "declined"; readonly message: string }
  /** The live processor's page could not be opened (or has closed): nothing was charged, the buyer may try again. */
  | { readonly status: "processor_unavailable"; readonly message: string }
  | { readonly status: "requires_authentication"; readonly message: string }
  | {
      readonly status: "turned_away"
      readonly reason: "sold_out" | "waitlist_mode"
      readonly waitlisted: boolean
      readonly message: string
    }

/** Ends the checkout's transaction without a trace: the outcome is answered, every write rolled back. */
class Stopped extends Data.TaggedError("CheckoutStopped")<{
  readonly outcome: CheckoutOutcome
}> {}

const clean = (value: string | null) => {
  if (value === null) return null
  // Control characters never belong in a link's parameters; a value past the cap is cut, not refused: the buyer
  // did not write it and must not be stopped by it.
  const text = Array.from(value)
    .filter((char) => char >= " " && char !== "\u007f")
    .join("")
    .trim()
  if (text.length === 0 || unstorableText(text) !== undefined) return null
  return text.slice(0, ATTRIBUTION_MAX)
}

/** Attribution as a sale keeps it: trimmed, without control characters, at most {@link ATTRIBUTION_MAX} each. */
export const cleanAttribution = (a: Attribution): Attribution => ({
  utmSource: clean(a.utmSource),
  utmMedium: clean(a.utmMedium),
  utmCampaign: clean(a.utmCampaign),
  utmContent: clean(a.utmContent),
  utmTerm: clean(a.utmTerm),
  fbclid: clean(a.fbclid),
  referrer: clean(a.referrer),
  affiliate: clean(a.affiliate)
})

/**
 * The service's own checkout: the offer a product's checkout page shows, and buying it (or claiming a free one, or
 * joining its waitlist). A paid checkout goes through the store's processor; until a live processor is connected that
 * is the built-in test processor, and its sales are marked `test`.
 */
export class StoreCheckout extends Effect.Service<StoreCheckout>()("svc/store/StoreCheckout", {
  dependencies: [
    StoreSales.Default,
    StoreSetup.Default,
    ProcessorSetup.Default,
    StorePaidQuestions.Default,
    StoreReviews.Default
  ],
  effect: Effect.gen(function* () {
    const products = yield* ProductsRepo
    const workspaces = yield* WorkspacesRepo
    const accounts = yield* AccountsRepo
    const setup = yield* StoreSetup
    const sales = yield* StoreSales
    const codes = yield* DiscountCodesRepo
    const subscriptions = yield* SubscriptionsRepo
    const stock = yield* makeStock
    const ids = yield* Ids
    const salesRepo = yield* SalesRepo
    const transactor = yield* Transactor
    const processorSetup = yield* ProcessorSetup
    const processor = yield* CardProcessor
    const hostedRepo = yield* HostedCheckoutsRepo
    const questions = yield* StorePaidQuestions
    const reviews = yield* StoreReviews
    // Read once: a request's own context (a face's) need not carry the server's public address.
    const pages = yield* StorePages

    const notFound: Unavailable = {
      reason: "not_found",
      message: "There is no such product."
    }
    const notOnSale: Unavailable = {
      reason: "not_on_sale",
      message: "This product is not on sale right now."
    }

    /** The product, its store, and whether its checkout takes payments now; or why it cannot be bought here. */
    const sellable = (productId: string) =>
      Effect.gen(function* () {
        const found = yield* products.findById(productId)
        if (Option.isNone(found)) return { unavailable: notFound } as const
        const product = found.value
        if (product.status !== "live") return { unavailable: notOnSale } as const
        if (product.fields.checkout_mode === "external") {
          return product.fields.checkout_url === null
            ? ({ unavailable: notOnSale } as const)
            : ({
                unavailable: {
                  reason: "external",
                  message: "This product is sold through the seller's own checkout.",
                  checkoutUrl: product.fields.checkout_url
                }
              } as const)
        }
        const store = yield* workspaces.findStore(product.workspaceId)
        const workspace = yield* workspaces.findById(product.workspaceId)
        const owner = Option.isNone(workspace) ? Option.none() : yield* accounts.findById(workspace.value.ownerId)
        if (Option.isNone(store) || Option.isNone(owner)) return { unavailable: notFound } as const
        // Selling is a Starter feature, like the store API: a store on a lower plan takes no orders.
        if (!planAtLeast(owner.value.plan, "starter")) return { unavailable: notOnSale } as const
        const settings = yield* setup.get(product.workspaceId)
        const paid = product.fields.price_cents > 0 && !product.fields.waitlist_mode
        if (paid && settings.cardProcessor !== "connected") return { unavailable: notOnSale } as const
        // A connected Stripe account takes the payments; without one, the built-in test processor does.
        const live =
          settings.cardProcessor === "connected" ? yield* processorSetup.keys(product.workspaceId) : Option.none()
        return { product, store: store.value, test: Option.isNone(live), hosted: Option.isSome(live) } as const
      })

    const applyCode = (product: Product, typed: string, now: Date) =>
      Effect.gen(function* () {
        const text = typed.trim()
        if (text.length === 0) return null
        const found = yield* codes.findByCode(product.workspaceId, text)
        if (Option.isNone(found))
          return {
            status: "refused",
            typed: text,
            refusal: "unknown"
          } satisfies AppliedCode
        const refusal = discountRefusal(found.value, product.id, now)
        return refusal === undefined
          ? ({ status: "applied", code: found.value } satisfies AppliedCode)
          : ({
              status: "refused",
              typed: text,
              refusal
            } satisfies AppliedCode)
      })

    /** What the checkout page of `productId` shows, with `code` applied when it is good; or why it cannot sell. */
    const offer = (productId: string, code: string) =>
      Effect.gen(function* () {
        const found = yield* sellable(productId)
        if ("unavailable" in found)
          return {
            status: "unavailable",
            unavailable: found.unavailable
          } as const
        const { product, store } = found
        const now = new Date(yield* Clock.currentTimeMillis)
        const standing = yield* stock.standing(product, now)
        const limit = product.fields.quantity_limit
        const soldOut = limit !== null && standing.quantity_left === 0
        const result: CheckoutOffer = {
          product,
          store,
          options: priceOptions(product),
          left:
            product.fields.quantity_show_left && standing.quantity_left !== undefined ? standing.quantity_left : null,
          waitlistMode: product.fields.waitlist_mode,
          soldOut,
          waitlist: product.fields.quantity_waitlist,
          test: found.test,
          hosted: found.hosted,
          code: yield* applyCode(product, code, now),
          reviews: yield* reviews.shownFor(product),
          attempt: yield* ids.make(ATTEMPT_PREFIX)
        }
        return { status: "available", offer: result } as const
      })

    const stop = (outcome: CheckoutOutcome) => Effect.fail(new Stopped({ outcome }))

    /** Checks what the buyer typed; answers the fields to correct, or the person. */
    const readBuyer = (request: CheckoutRequest) =>
      Effect.gen(function* () {
        const errors: Record<string, string> = {}
        const email = yield* readEmailAddress("email", request.email).pipe(
          Effect.map(Option.some),
          Effect.orElseSucceed(() => {
            errors.email = "Enter your email address, like name@example.com."
            return Option.none<string>()
          })
        )
        const name = request.name.trim()
        if (name.length > BUYER_NAME_MAX) errors.name = `Keep your name under ${BUYER_NAME_MAX} characters.`
        else if (unstorableText(name) !== undefined) errors.name = "Your name has characters we cannot keep."
        return { errors, email, name: name.length === 0 ? null : name }
      })

    /**
     * Buys (or claims, or joins the waitlist of) a product at its checkout, in one transaction: the place, the code's
     * use, the payment and the sale with its access, credits and events happen together or not at all. A declined
     * card, a used-up code or a refused field leaves nothing behind.
     */
    const buy = (request: CheckoutRequest): Effect.Effect<CheckoutOutcome> =>
      Effect.gen(function* () {
        const found = yield* sellable(request.productId)
        if ("unavailable" in found)
          return {
            status: "unavailable",
            unavailable: found.unavailable
          } as const
        const { product } = found
        const buyer = yield* readBuyer(request)
        const errors: Record<string, string> = { ...buyer.errors }
        const now = new Date(yield* Clock.currentTimeMillis)

        // Waitlist mode takes an email and nothing else.
        const options = priceOptions(product)
        const option =
          options.find((o) => o.choice === (request.choice as PriceChoice)) ??
          (options.length === 1 ? options[0] : undefined)
        if (option === undefined && !product.fields.waitlist_mode) errors.choice = "Pick how you want to pay."
        const applied = product.fields.waitlist_mode ? null : yield* applyCode(product, request.code, now)
        if (applied?.status === "refused") errors.code = discountRefusalMessage[applied.refusal]
        // A paid question is asked before it is paid for: the payment buys the answer to this text.
        const asks = product.kind === "question" && !product.fields.waitlist_mode
        const question = request.question.trim()
        const badQuestion = asks ? questionProblem(question) : undefined
        if (badQuestion !== undefined) errors.question = badQuestion
        const due =
          option === undefined
            ? 0
            : applied?.status === "applied"
              ? priceAfterDiscount(dueNowCents(option), applied.code)
              : dueNowCents(option)
        // A live processor takes the card on its own page: a membership or a plan goes there even when nothing is due
        // now (a trial, a 100 % code), so its later charges can be taken.
        const hosted =
          found.hosted &&
          option !== undefined &&
          !product.fields.waitlist_mode &&
          (due > 0 || ((option.periodMonths !== null || option.parts !== null) && option.priceCents > 0))
        const needsCard = !found.hosted && !product.fields.waitlist_mode && due > 0
        if (needsCard) {
          if (request.card === null) errors.card_number = "Enter your card details."
          else for (const problem of readTestCard(request.card, now)) errors[problem.field] = problem.message
        }
        if (Object.keys(errors).length > 0 || Option.isNone(buyer.email)) {
          return { status: "refused", errors } as const
        }
        const email = buyer.email.value

        const attempt = ATTEMPT_PATTERN.test(request.attempt) ? request.attempt : yield* ids.make(ATTEMPT_PREFIX)
        const orderId = orderIdOf(attempt, found.test)

        return yield* transactor
          .withTransaction(
            Effect.gen(function* () {
              // Taken in the sale's transaction: a failed attempt gives it back, a sold one keeps it.
              if (!(yield* salesRepo.claim(product.workspaceId, `checkout:${attempt}`, now))) {
                const first = yield* salesRepo.findByOrder(product.workspaceId, orderId)
                if (Option.isSome(first))
                  return { status: "sold", sale: first.value, product, restored: false } as const
                const opened = yield* hostedRepo.findByAttempt(product.workspaceId, attempt)
                if (Option.isSome(opened)) return { status: "hosted", checkout: opened.value } as const
              }
              const away = yield* sales.turnAway(product, email, buyer.name, now)
              if (away !== undefined) {
                const outcome: CheckoutOutcome = {
                  status: "turned_away",
                  reason: away.reason === "waitlist_mode" ? "waitlist_mode" : "sold_out",
                  waitlisted: Option.getOrElse(away.waitlisted, () => false),
                  message: away.message
                }
                // Joining the waitlist is kept; anything else turned away leaves nothing.
                return outcome.waitlisted ? outcome : yield* stop(outcome)
              }
              if (option === undefined)
                return yield* stop({
                  status: "refused",
                  errors: { choice: "Pick how you want to pay." }
                })
              if (applied?.status === "applied" && !(yield* codes.use(product.workspaceId, applied.code.id, now))) {
                return yield* stop({
                  status: "refused",
                  errors: { code: discountRefusalMessage.used_up }
                })
              }
              if (hosted) {
                // The place and the code's use are held by this row until the processor's page completes or expires.
                const checkout: HostedCheckout = {
                  attempt,
                  workspaceId: product.workspaceId,
                  productId: product.id,
                  choice: option.choice,
                  billing: option.billing,
                  amountCents: due,
                  recurringCents: option.periodMonths !== null || option.parts !== null ? option.priceCents : null,
                  periodMonths: option.periodMonths,
                  trialDays: option.trialDays,
                  parts: option.parts,
                  email,
                  name: buyer.name,
                  discountCodeId: applied?.status === "applied" ? applied.code.id : null,
                  discountCode: applied?.status === "applied" ? applied.code.code : null,
                  attribution: cleanAttribution(request.attribution),
                  question: asks ? question : null,
                  state: "opening",
                  sessionId: null,
                  url: null,
                  subscriptionId: null,
                  paymentId: null,
                  saleId: null,
                  createdAt: now,
                  expiresAt: new Date(now.getTime() + HOSTED_PAGE_MS)
                }
                yield* hostedRepo.insert(checkout)
                return { status: "hosted", checkout } as const
              }
              if (needsCard && request.card !== null) {
                const charged = chargeTestCard(request.card, request.authenticated)
                if (charged.status !== "succeeded") return yield* stop(charged)
              }
              const period = option.periodMonths
              const subscriptionId = period === null ? null : yield* ids.make(found.test ? "test_sub_" : "sub_")
              const paidUntil = paidUntilOf(option, now)
              const { sale, status } = yield* sales.sell({
                product,
                email,
                name: buyer.name,
                billing: option.billing,
                amountCents: due,
                source: "svc_checkout",
                how: product.fields.price_cents === 0 ? "free" : "bought",
                orderId,
                subscriptionId,
                paidUntil,
                discountCode: applied?.status === "applied" ? applied.code.code : null,
                test: found.test,
                attribution: cleanAttribution(request.attribution),
                now
              })
              if (asks) yield* questions.ask({ product, sale, text: question, now })
              // The test processor bills the membership itself from then on (the renewal worker).
              if (subscriptionId !== null && period !== null && paidUntil !== null && option.billing !== "one-time") {
                yield* subscriptions.insert({
                  id: subscriptionId,
                  workspaceId: product.workspaceId,
                  productId: product.id,
                  email,
                  name: buyer.name,
                  billing: option.billing,
                  amountCents: option.priceCents,
                  periodMonths: period,
                  test: found.test,
                  state: "active",
                  stopReason: null,
                  renewsAt: paidUntil,
                  renewals: 0,
                  createdAt: now
                })
              }
              return { status: "sold", sale, product, restored: status === "restored" } as const
            })
          )
          .pipe(Effect.catchTag("CheckoutStopped", (stopped) => Effect.succeed(stopped.outcome)))
      })

    /**
     * What an attempt came to, if anything: its sale, or its trip to the live processor's page. What a form sent
     * again, its token already used, is answered with.
     */
    const soldBy = (productId: string, attempt: string) =>
      Effect.gen(function* () {
        if (!ATTEMPT_PATTERN.test(attempt)) return Option.none()
        const found = yield* products.findById(productId)
        if (Option.isNone(found)) return Option.none()
        const product = found.value
        for (const test of [true, false]) {
          const sale = yield* salesRepo.findByOrder(product.workspaceId, orderIdOf(attempt, test))
          if (Option.isSome(sale)) {
            return Option.some<CheckoutOutcome>({ status: "sold", sale: sale.value, product, restored: false })
          }
        }
        const opened = yield* hostedRepo.findByAttempt(product.workspaceId, attempt)
        return Option.map(opened, (checkout): CheckoutOutcome => ({ status: "hosted", checkout }))
      })

    /** How the live processor's page could not be opened: said to the buyer, who may try again. */
    const processorDown = (message: string): CheckoutOutcome => ({ status: "processor_unavailable", message })

    /**
     * Opens the live processor's payment page for a checkout `buy` answered `hosted`, outside any transaction (the
     * processor is called over the network): the page's address to send the buyer to. The processor is asked with
     * the attempt as its idempotency key, so a form sent twice gets the same page. When it cannot open, the place and
     * the code's use go back at once.
     */
    const openHosted = (
      checkout: HostedCheckout
    ): Effect.Effect<{ readonly status: "redirect"; readonly url: string } | CheckoutOutcome> =>
      Effect.gen(function* () {
        if (checkout.state === "open" && checkout.url !== null)
          return { status: "redirect", url: checkout.url } as const
        const product = yield* products.findById(checkout.productId)
        if (checkout.state === "completed" && checkout.saleId !== null && Option.isSome(product)) {
          const sale = yield* salesRepo.find(checkout.workspaceId, checkout.saleId)
          if (Option.isSome(sale))
            return { status: "sold", sale: sale.value, product: product.value, restored: false } as const
        }
        if (checkout.state !== "opening" || Option.isNone(product)) {
          return processorDown("This payment page has closed. Start again: nothing was charged.")
        }
        const keys = yield* processorSetup.keys(checkout.workspaceId)
        const page = `${pages.publicBase}/c/${encodeURIComponent(checkout.productId)}`
        const key = Option.flatMap(keys, (k) => Option.fromNullable(k.key))
        const request = Option.map(
          key,
          (k): HostedPaymentRequest => ({
            key: k,
            reference: checkout.attempt,
            productName: product.value.fields.title,
            email: checkout.email,
            mode: checkout.recurringCents === null ? "payment" : "subscription",
            amountCents: checkout.recurringCents ?? checkout.amountCents,
            interval: checkout.recurringCents === null ? null : checkout.periodMonths === 12 ? "year" : "month",
            trialDays: checkout.trialDays,
            firstDiscount: firstDiscountOf(checkout),
            successUrl: `${page}/done?attempt=${encodeURIComponent(checkout.attempt)}`,
            cancelUrl: `${page}?cancelled=${encodeURIComponent(checkout.attempt)}`,
            expiresAt: checkout.expiresAt,
            metadata: {
              svc_attempt: checkout.attempt,
              svc_product: checkout.productId,
              svc_choice: checkout.choice,
              ...(checkout.discountCode === null ? {} : { svc_discount_code: checkout.discountCode })
            }
          })
        )
        const opened = Option.isNone(request)
          ? yield* Effect.either(Effect.fail("the store's card processor is no longer connected" as const))
          : yield* Effect.either(processor.startPayment(request.value))
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const current = yield* hostedRepo.lockByAttempt(checkout.workspaceId, checkout.attempt)
            if (Option.isNone(current)) return processorDown("This payment page has closed. Start again.")
            if (opened._tag === "Right") {
              if (current.value.state === "opening") {
                yield* hostedRepo.update({
                  ...current.value,
                  state: "open",
                  sessionId: opened.right.sessionId,
                  url: opened.right.url
                })
              }
              return { status: "redirect", url: opened.right.url } as const
            }
            if (current.value.state === "opening") {
              if (current.value.discountCodeId !== null) {
                yield* codes.giveBack(current.value.workspaceId, current.value.discountCodeId)
              }
              yield* hostedRepo.update({ ...current.value, state: "failed" })
            }
            const why = typeof opened.left === "string" ? opened.left : opened.left.message
            return processorDown(
              `The payment page could not be opened (${why}). Nothing was charged: try again in a moment.`
            )
          })
        )
      })

    /**
     * The buyer came back from the live processor's page without paying (its "back" link): the place and the code's
     * use their page held go back now rather than when it expires. Should they still pay on that page, its completion
     * sells all the same. The attempt is the buyer's own secret (a random id on their page), so only they can do this.
     */
    const releaseHosted = (productId: string, attempt: string) =>
      Effect.gen(function* () {
        if (!ATTEMPT_PATTERN.test(attempt)) return
        const product = yield* products.findById(productId)
        if (Option.isNone(product)) return
        yield* transactor.withTransaction(
          Effect.gen(function* () {
            const found = yield* hostedRepo.lockByAttempt(product.value.workspaceId, attempt)
            if (Option.isNone(found) || (found.value.state !== "open" && found.value.state !== "opening")) return
            if (found.value.discountCodeId !== null) {
              yield* codes.giveBack(found.value.workspaceId, found.value.discountCodeId)
            }
            yield* hostedRepo.update({ ...found.value, state: "expired" })
          })
        )
      })

    return { offer, buy, soldBy, openHosted, releaseHosted } as const
  })
}) {}
