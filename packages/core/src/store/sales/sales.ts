import { Clock, Context, Effect, Option } from "effect"
import { Credits } from "../../credits/service.js"
import { makeEventRecorder } from "../../events/service.js"
import { RateLimiter } from "../../limits/ports.js"
import { RateLimited } from "../../limits/schema.js"
import { invalid, NotFound } from "../../shared/errors.js"
import type { NextStep } from "../../shared/next-step.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { type ProductAccess as Access, hasAccess } from "./access.js"
import { makeAffiliateCommissions } from "../affiliates/commissions.js"
import { makeAccessEmail } from "./access-email.js"
import { makeBuyerJoin } from "./buyer-join.js"
import { type BundleAccessLine, makeBundleAccess } from "./bundle-access.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { parseInstant } from "../../shared/list-query.js"
import { AccessRepo, SalesRepo } from "./ports.js"
import { ProductsRepo } from "../catalog/ports.js"
import type { Billing, Product } from "../catalog/product.js"
import { makeStock } from "../catalog/stock.js"
import { LiveCharges } from "../checkout/live-charges.js"
import {
  type Attribution,
  NO_ATTRIBUTION,
  type Sale,
  type SaleRejection,
  type SaleSource,
  type SaleStatus,
  STORE_CURRENCY
} from "./sale.js"
import type { SaleInput } from "./sale-input.js"
import { saleJson } from "./sale-json.js"
import type { SaleCounted, SaleTurnedAway } from "./sale-outcome.js"
import type { SaleListQuery } from "./sale-query.js"
import { StoreReviewRequests } from "../reviews/review-requests.js"

const rejected = (reason: SaleRejection, message: string, waitlisted?: boolean): SaleTurnedAway => ({
  status: "rejected",
  reason,
  message,
  waitlisted: Option.fromNullable(waitlisted)
})
const done = (status: SaleStatus): SaleCounted => ({ status })
const LIST_PRODUCTS: NextStep = { _tag: "ListProducts" }

/** How a sale gave access: the service's checkout (`bought`, or `free` at no cost) or an outside one. */
export type SaleHow = "bought" | "free" | "own_checkout"

/** What `grant` takes of a sale event: the buyer's name and the checkout's references. */
interface GrantInput {
  readonly name?: string | undefined
  readonly orderId?: string | undefined
  readonly subscriptionId?: string | undefined
}

/** A membership's renewal as `StoreSales.renew` records it, from either checkout. */
export type RenewalOrder = Omit<SaleOrder, "source" | "discountCode" | "test" | "attribution">

/** A new sale as `StoreSales.sell` records it, from either checkout. */
export interface SaleOrder {
  readonly product: Product
  /** Trimmed and in lower case. */
  readonly email: string
  readonly name: string | null
  /** What the buyer took: the product's billing, or `yearly` for a monthly product's yearly price. */
  readonly billing: Billing
  /** What was paid now, in cents, after any discount. */
  readonly amountCents: number
  readonly source: SaleSource
  readonly how: SaleHow
  readonly orderId: string | null
  readonly subscriptionId: string | null
  /** A membership's access runs to here unless renewed; null: the checkout did not say. */
  readonly paidUntil: Date | null
  readonly discountCode: string | null
  readonly test: boolean
  readonly attribution: Attribution
  readonly now: Date
}

/**
 * Sale recording limits per store: 60 a minute and 5,000 a day unless a layer provides others (the server reads them
 * from `SVC_STORE_SALES_PER_MINUTE` and `SVC_STORE_DAILY_SALE_CAP`).
 */
export class StoreSaleLimits extends Context.Reference<StoreSaleLimits>()("svc/store/StoreSaleLimits", {
  defaultValue: (): {
    readonly perMinute: number
    readonly perDay: number
  } => ({ perMinute: 60, perDay: 5000 })
}) {}

const instantOf = (field: string, value: string | number | undefined) => {
  if (value === undefined) return Effect.succeed(null)
  const date = parseInstant(String(value))
  return date === undefined
    ? Effect.fail(invalid(field, `${field} must be an ISO date or milliseconds since 1970`))
    : Effect.succeed(date)
}

/** Recording sales from any checkout, and the access each one gives or takes. */
export class StoreSales extends Effect.Service<StoreSales>()("svc/store/StoreSales", {
  dependencies: [Credits.Default, LiveCharges.Default, StoreReviewRequests.Default],
  effect: Effect.gen(function* () {
    const products = yield* ProductsRepo
    const sales = yield* SalesRepo
    const access = yield* AccessRepo
    const limiter = yield* RateLimiter
    const accessEmail = yield* makeAccessEmail
    const commissions = yield* makeAffiliateCommissions
    const bundleAccess = yield* makeBundleAccess
    const ids = yield* Ids
    const transactor = yield* Transactor
    const recordEvent = yield* makeEventRecorder
    const stock = yield* makeStock
    const limits = yield* StoreSaleLimits
    const credits = yield* Credits
    const joinList = yield* makeBuyerJoin
    const liveCharges = yield* LiveCharges
    const reviewRequests = yield* StoreReviewRequests

    const admit = (workspaceId: string) =>
      Effect.gen(function* () {
        const minute = yield* limiter.take(`store-sales-minute:${workspaceId}`, limits.perMinute, 60_000)
        if (!minute.allowed) {
          return yield* new RateLimited({
            message: `more than ${limits.perMinute} sales per minute for this store; try again in a minute`,
            retryAfterSeconds: Math.max(1, Math.ceil(minute.retryAfterMs / 1000))
          })
        }
        const day = yield* limiter.take(`store-sales-day:${workspaceId}`, limits.perDay, 86_400_000)
        if (!day.allowed) {
          return yield* new RateLimited({
            message: `the daily cap of ${limits.perDay} recorded sales per store is reached (SVC_STORE_DAILY_SALE_CAP); try again later`,
            retryAfterSeconds: Math.max(1, Math.ceil(day.retryAfterMs / 1000))
          })
        }
      })

    const customerData = (product: Product, person: Access, how: string) => ({
      product_id: product.id,
      product_title: product.fields.title,
      email: person.email,
      name: person.name,
      how
    })

    /**
     * Turns access on for a person (and, for a bundle, to each product in it); answers whether it is their first
     * access to the product, and what a bundle gave.
     */
    const grant = (
      product: Product,
      person: Access,
      input: GrantInput,
      now: Date,
      paidUntil: Date | null,
      how: SaleHow
    ) =>
      Effect.gen(function* () {
        const first = person.state === "none"
        // A sale of the product itself makes access a bundle gave the person's own: the bundle no longer takes it.
        const fromBundle = person.viaBundleId !== null
        yield* access.save({
          ...person,
          name: input.name ?? person.name,
          state: "active",
          how: fromBundle ? how : (person.how ?? how),
          viaBundleId: null,
          orderId: input.orderId ?? person.orderId,
          subscriptionId: input.subscriptionId ?? person.subscriptionId,
          paidUntil: paidUntil ?? person.paidUntil,
          endsAt: null,
          grantedAt: person.grantedAt ?? now,
          updatedAt: now
        })
        yield* stock.gotProduct(product, person.email)
        const included = yield* bundleAccess.giveIncluded(
          product,
          { email: person.email, name: input.name ?? person.name },
          now
        )
        if (first) {
          yield* access.ensureCustomer({
            id: yield* ids.make("cus_"),
            workspaceId: product.workspaceId,
            email: person.email,
            name: input.name ?? null,
            createdAt: now
          })
          yield* recordEvent(product.workspaceId, "customer.created", {
            ...customerData(product, { ...person, name: input.name ?? person.name }, how),
            created_at: now.toISOString()
          })
          // A paid question's buyer is sent its own email instead, with the link to the answer (StorePaidQuestions).
          if (product.kind !== "question") {
            yield* accessEmail.send(product, person.email, "bought", input.name ?? person.name)
          }
        }
        // A bundle's sale starts the sequences of the bundle and of each product it gave.
        const bought = [product.id, ...included.filter((l) => l.access === "granted").map((l) => l.product_id)]
        yield* joinList(product.workspaceId, { email: person.email, name: input.name ?? person.name }, now, bought)
        return { first, included }
      })

    // A bundle sale's event lists what it gave per product; other sales' events are unchanged.
    const bundleData = (product: Product, included: ReadonlyArray<BundleAccessLine>) =>
      product.kind === "bundle" ? { bundle_products: included } : {}

    // One refund per sale, whichever face asks: the key is the order id (what `POST /sales` refunds by), else the
    // sale's own id, so a refund through a tool and a resent one through the API count once.
    const refundKey = (sale: Sale) => (sale.orderId === null ? `refund-sale:${sale.id}` : `refund:${sale.orderId}`)

    /**
     * Refunds a recorded sale of `product`: its access ends, and `purchase.refunded` is recorded once. A sale of the
     * service's checkout reads `refunded` from then on; an own checkout's keeps its row as it was (the refunds feed
     * reports it).
     */
    const refund = (product: Product, sale: Sale, now: Date) =>
      Effect.gen(function* () {
        if (!(yield* sales.claim(product.workspaceId, refundKey(sale), now))) return done("duplicate")
        if (sale.source === "svc_checkout") yield* sales.markRefunded(product.workspaceId, sale.id)
        const person = yield* access.lock(product.workspaceId, product.id, sale.buyerEmail, now)
        if (person.state === "active" || person.state === "cancelled") {
          yield* access.save({
            ...person,
            state: "refunded",
            endsAt: now,
            updatedAt: now
          })
        }
        yield* bundleAccess.takeBackIncluded(product, sale.buyerEmail, { state: "refunded", endsAt: now }, now)
        yield* commissions.reverseSale(sale, now)
        yield* recordEvent(product.workspaceId, "purchase.refunded", {
          ...saleJson(sale),
          sale_id: sale.id,
          refunded_at: now.toISOString()
        })
        return done("revoked")
      })

    /** The buyer's access row of an order, locked, then turned on as `grant` does; with whether they had access. */
    const grantOrder = (order: RenewalOrder) =>
      Effect.gen(function* () {
        const { product, email, now } = order
        const person = yield* access.lock(product.workspaceId, product.id, email, now)
        const had = hasAccess(person, now.getTime())
        const granted = yield* grant(
          product,
          person,
          {
            name: order.name ?? undefined,
            orderId: order.orderId ?? undefined,
            subscriptionId: order.subscriptionId ?? undefined
          },
          now,
          order.paidUntil,
          order.how
        )
        return { person, had, ...granted }
      })

    /**
     * Whether a new sale of `product` to `email` must be turned away (waitlist mode, sold out, or a bundle with a
     * product sold out), putting the person on the waitlist where the product keeps one. In the sale's transaction.
     */
    const turnAway = (product: Product, email: string, name: string | null, now: Date) =>
      Effect.gen(function* () {
        const away = yield* stock.turnAway(product, email, name, now, "sale")
        if (away !== undefined) return rejected(away.reason, away.message, away.waitlisted)
        // A bundle sells whole: a product in it with no place left turns the sale away, and nothing is given.
        const included = yield* bundleAccess.turnAwayIncluded(product, email, name, now)
        if (included !== undefined) {
          return rejected(
            included.reason,
            `the bundle's product ${included.product.id} (${included.product.fields.title}): ${included.message}`,
            included.waitlisted
          )
        }
        return undefined
      })

    /**
     * A new sale of `product`, in the caller's transaction and after its stock checks (`turnAway`): the buyer's access (and a
     * bundle's products), the sale row, the credits the price includes and one `purchase.created`. Answers the sale
     * and whether the person had no access before (`granted`) or had lost it (`restored`).
     */
    const sell = (order: SaleOrder) =>
      Effect.gen(function* () {
        const { product, email, now } = order
        const { had, first, included } = yield* grantOrder(order)
        const sale: Sale = {
          id: yield* ids.make("purchase:"),
          workspaceId: product.workspaceId,
          productId: product.id,
          productTitle: product.fields.title,
          buyerEmail: email,
          buyerName: order.name,
          amountCents: order.amountCents,
          currency: STORE_CURRENCY,
          billing: order.billing,
          source: order.source,
          orderId: order.orderId,
          subscriptionId: order.subscriptionId,
          status: order.amountCents === 0 ? "free" : "paid",
          discountCode: order.discountCode,
          test: order.test,
          attribution: order.attribution,
          createdAt: now
        }
        yield* sales.insert(sale)
        // A buyer who came through an affiliate's link earns them their commission, in the sale's transaction.
        yield* commissions.creditSale(sale)
        // In the sale's transaction: the buyer's credits come with the sale, or not at all.
        yield* credits.grantByEmail({
          email,
          key: `sale:${sale.id}`,
          tenths: product.fields.included_credits * 10,
          reason: `included with ${product.fields.title}`
        })
        yield* recordEvent(product.workspaceId, "purchase.created", {
          ...saleJson(sale),
          how: order.how,
          ...bundleData(product, included)
        })
        // Their first sale of it asks them for a review a week on (a later sale finds the request there).
        yield* reviewRequests.requestFor({ product, email, name: order.name, now })
        const status: SaleStatus = first || had ? "granted" : "restored"
        return { sale, status }
      })

    /**
     * A membership's renewal payment, in the caller's transaction: access on (back) to `paidUntil`, and one
     * `membership.renewed`. Answers whether it gave first access, renewed it, or restored lost access.
     */
    const renew = (order: RenewalOrder) =>
      Effect.gen(function* () {
        const { product, email, now } = order
        const { person, had, first } = yield* grantOrder(order)
        yield* recordEvent(product.workspaceId, "membership.renewed", {
          product_id: product.id,
          product_title: product.fields.title,
          buyer_email: email,
          buyer_name: order.name ?? person.name,
          amount: order.amountCents / 100,
          amount_cents: order.amountCents,
          currency: STORE_CURRENCY,
          billing: order.billing,
          order_id: order.orderId,
          subscription_id: order.subscriptionId ?? person.subscriptionId,
          paid_until: order.paidUntil?.toISOString() ?? null,
          payment: "renewal",
          created_at: now.toISOString()
        })
        yield* commissions.creditRenewal(
          {
            product,
            subscriptionId: order.subscriptionId ?? person.subscriptionId,
            orderId: order.orderId,
            amountCents: order.amountCents,
            now
          },
          (saleId) => sales.find(product.workspaceId, saleId)
        )
        const status: SaleStatus = first ? "granted" : had ? "renewed" : "restored"
        return status
      })

    /**
     * Cancels a membership in the caller's transaction: access goes on until `until` (else the paid period's end), and
     * one `membership.cancelled`; a cancelled one only moves its end. `false` when the person has no access to cancel.
     */
    const cancel = (
      product: Product,
      email: string,
      subscriptionId: string | null,
      times: { readonly endsAt: Date | null; readonly paidUntil: Date | null },
      now: Date
    ) =>
      Effect.gen(function* () {
        const person = yield* access.lock(product.workspaceId, product.id, email, now)
        if (person.state === "cancelled") {
          if (times.endsAt !== null) {
            yield* access.save({ ...person, endsAt: times.endsAt, updatedAt: now })
            yield* bundleAccess.takeBackIncluded(product, email, { state: "cancelled", endsAt: times.endsAt }, now)
          }
          return true
        }
        if (person.state !== "active") return false
        const endsAt = times.endsAt ?? times.paidUntil ?? person.paidUntil
        yield* access.save({ ...person, state: "cancelled", endsAt, updatedAt: now })
        yield* bundleAccess.takeBackIncluded(product, email, { state: "cancelled", endsAt }, now)
        yield* recordEvent(product.workspaceId, "membership.cancelled", {
          product_id: product.id,
          product_title: product.fields.title,
          buyer_email: email,
          buyer_name: person.name,
          subscription_id: subscriptionId ?? person.subscriptionId,
          change: "cancelled",
          access_ends_at: endsAt?.toISOString() ?? null,
          created_at: now.toISOString()
        })
        return true
      })

    /**
     * Ends a membership now, in the caller's transaction, with one `purchase.membership_ended`; an ended one stays as it
     * is. `false` when the person has no access to end.
     */
    const end = (product: Product, email: string, subscriptionId: string | null, now: Date) =>
      Effect.gen(function* () {
        const person = yield* access.lock(product.workspaceId, product.id, email, now)
        if (person.state === "ended") return true
        if (person.state !== "active" && person.state !== "cancelled") return false
        yield* access.save({ ...person, state: "ended", endsAt: now, updatedAt: now })
        yield* bundleAccess.takeBackIncluded(product, email, { state: "ended", endsAt: now }, now)
        yield* recordEvent(product.workspaceId, "purchase.membership_ended", {
          product_id: product.id,
          product_title: product.fields.title,
          buyer_email: email,
          buyer_name: person.name,
          subscription_id: subscriptionId ?? person.subscriptionId,
          change: "ended",
          access_ends_at: now.toISOString(),
          created_at: now.toISOString()
        })
        return true
      })

    const record = (caller: StoreCaller, input: SaleInput) =>
      Effect.gen(function* () {
        const paidUntil = yield* instantOf("paid_until", input.paidUntil)
        const endsAt = yield* instantOf("ends_at", input.endsAt)
        if (input.event === "refund" && input.orderId === undefined) {
          return yield* invalid("order_id", "a refund needs the order_id of the sale it refunds")
        }
        const found = yield* products.find(caller.workspaceId, input.productId)
        if (Option.isNone(found)) {
          return {
            ...rejected("product_not_found", `no product ${input.productId} in this store`),
            next: LIST_PRODUCTS
          }
        }
        const product = found.value
        if (input.event === "sale" && product.status !== "live") {
          return rejected("product_not_live", "the product is not published; publish it, then resend the sale")
        }
        const membership = product.fields.billing !== "one-time"
        // A one-time product is paid once: there is nothing to renew, cancel or end. Refused before anything is
        // claimed or written, so the answer changes nothing and emits no event, whoever calls.
        if ((input.event === "renewal" || input.event === "cancel" || input.event === "end") && !membership) {
          return rejected(
            "not_a_membership",
            `${input.event} applies to memberships (billing monthly or yearly) only; ${product.id} is one-time`
          )
        }
        if (input.affiliate !== undefined && input.event !== "sale") {
          return yield* invalid("affiliate", "only a sale takes an affiliate code; a renewal earns for the sale's")
        }
        // Checked before anything is claimed or written: a wrong code changes nothing.
        const affiliate =
          input.affiliate === undefined ? null : yield* commissions.checkedCode(product, input.affiliate)
        const now = new Date(yield* Clock.currentTimeMillis)
        const email = input.email
        if (input.event === "sale") {
          const away = yield* turnAway(product, email, input.name ?? null, now)
          if (away !== undefined) return away
        }
        switch (input.event) {
          case "sale":
          case "renewal": {
            if (
              input.orderId !== undefined &&
              !(yield* sales.claim(caller.workspaceId, `order:${input.orderId}`, now))
            ) {
              return done("duplicate")
            }
            const amountCents = product.fields.price_cents
            if (input.event === "sale") {
              const sold = yield* sell({
                product,
                email,
                name: input.name ?? null,
                billing: product.fields.billing,
                amountCents,
                source: "own_checkout",
                how: "own_checkout",
                orderId: input.orderId ?? null,
                subscriptionId: input.subscriptionId ?? null,
                paidUntil,
                discountCode: null,
                test: false,
                attribution: { ...NO_ATTRIBUTION, affiliate },
                now
              })
              return done(sold.status)
            }
            return done(
              yield* renew({
                product,
                email,
                name: input.name ?? null,
                billing: product.fields.billing,
                amountCents,
                how: "own_checkout",
                orderId: input.orderId ?? null,
                subscriptionId: input.subscriptionId ?? null,
                paidUntil,
                now
              })
            )
          }
          case "cancel": {
            const cancelled = yield* cancel(product, email, input.subscriptionId ?? null, { endsAt, paidUntil }, now)
            return cancelled
              ? done("cancelled")
              : rejected("no_access", `${email} has no access to this membership to cancel`)
          }
          case "end": {
            const ended = yield* end(product, email, input.subscriptionId ?? null, now)
            return ended ? done("revoked") : rejected("no_access", `${email} has no access to this membership to end`)
          }
          case "refund": {
            const orderId = input.orderId ?? ""
            const sale = yield* sales.findByOrder(caller.workspaceId, orderId)
            if (Option.isNone(sale) || sale.value.productId !== product.id) {
              return rejected(
                "order_not_found",
                `no sale with order_id ${orderId} for this product; record the sale first`
              )
            }
            return yield* refund(product, sale.value, now)
          }
        }
      })

    /**
     * A refund of a sale the checkout sold on Stripe is made at Stripe first, outside the transaction (Stripe is called
     * over the network; its refund is idempotent, so a retry after a failure here never refunds twice).
     */
    const refundAtProcessor = (workspaceId: string, orderId: string | undefined) =>
      Effect.gen(function* () {
        if (orderId === undefined) return
        const sale = yield* sales.findByOrder(workspaceId, orderId)
        if (Option.isSome(sale)) yield* liveCharges.refund(sale.value)
      })

    /** Records one sale event: rate limits first, then the whole change and its events in one transaction. */
    const recordSale = (caller: StoreCaller, input: SaleInput) =>
      Effect.zipRight(
        admit(caller.workspaceId),
        Effect.zipRight(
          input.event === "refund" ? refundAtProcessor(caller.workspaceId, input.orderId) : Effect.void,
          transactor.withTransaction(record(caller, input))
        )
      )

    /**
     * Refunds one sale by its id (the tools' way; `POST /sales` refunds by order id): the same change, answer and
     * single event as a refund event through the API, in one transaction.
     */
    const refundSale = (caller: StoreCaller, saleId: string) =>
      Effect.zipRight(
        Effect.zipRight(
          admit(caller.workspaceId),
          Effect.flatMap(sales.find(caller.workspaceId, saleId), (sale) =>
            Option.isSome(sale) ? liveCharges.refund(sale.value) : Effect.void
          )
        ),
        transactor.withTransaction(
          Effect.gen(function* () {
            const sale = yield* sales.find(caller.workspaceId, saleId)
            if (Option.isNone(sale))
              return yield* new NotFound({
                message: `no sale ${saleId} in this store`
              })
            const product = yield* products.find(caller.workspaceId, sale.value.productId)
            if (Option.isNone(product)) {
              return yield* new NotFound({
                message: `the product of sale ${saleId} no longer exists`
              })
            }
            return yield* refund(product.value, sale.value, new Date(yield* Clock.currentTimeMillis))
          })
        )
      )

    /** Paged sale rows, newest first. */
    const listPage = (caller: StoreCaller, query: SaleListQuery) =>
      sales.listPage(
        caller.workspaceId,
        {
          productId: query.productId,
          email: query.email,
          status: query.status,
          ...query.created
        },
        query.page
      )

    /** One sale row of this store. */
    const get = (caller: StoreCaller, id: string) =>
      Effect.flatMap(sales.find(caller.workspaceId, id), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(new NotFound({ message: `no sale ${id} in this store` })),
          onSome: Effect.succeed
        })
      )

    return { recordSale, refundSale, listPage, get, turnAway, sell, renew, cancel, end, refund } as const
  })
}) {}
