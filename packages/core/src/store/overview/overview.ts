import { Clock, Context, Effect, Option } from "effect"
import type { EventRecord } from "../../events/schema.js"
import { invalid } from "../../shared/errors.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { StoreSettingsRepo } from "../catalog/ports.js"
import { ProcessorAccountsRepo } from "../checkout/ports.js"
import { OVERVIEW_PERIODS, type OverviewRequest } from "./overview-request.js"
import type { Figure, ProductSales, SellerOverview, SetupItem } from "./seller-overview.js"
import { StorePages } from "../catalog/store-pages.js"
import { agentStepsOn } from "../catalog/agent-steps.js"

export { OVERVIEW_PERIODS, type OverviewPeriod, type OverviewRequest } from "./overview-request.js"
export type { ProductSales } from "./seller-overview.js"

/** How many products a store has, counted in storage. */
export interface ProductCounts {
  readonly products: number
  readonly live: number
  /** Products that sell through the seller's own checkout (`checkout_mode` external with a `checkout_url`). */
  readonly ownCheckout: number
}

/** A store's figures over one period `[from, to)`, each an SQL aggregate over its rows. */
export interface PeriodFigures {
  /** SUM(amount_cents) of sale rows with status `paid` created in the period. */
  readonly revenueCents: number
  /** COUNT of sale rows created in the period whatever their status (paid, free, refunded). */
  readonly sales: number
  /** COUNT of `purchase.refunded` events in the period. */
  readonly refunds: number
  /** SUM of `data.amount_cents` of those events. */
  readonly refundedCents: number
  /** COUNT of store customers created in the period. */
  readonly newCustomers: number
  /** COUNT of access rows of monthly or yearly products that had access at `to` (see `StoreStatsRepo`). */
  readonly activeMemberships: number
}

/** The store's counts and sums, read as SQL aggregates (COUNT/SUM/GROUP BY), never by loading rows. */
export class StoreStatsRepo extends Context.Tag("svc/store/StoreStatsRepo")<
  StoreStatsRepo,
  {
    readonly productCounts: (workspaceId: string) => Effect.Effect<ProductCounts>
    /**
     * The figures of `[from, to)`. Active memberships: access rows of monthly/yearly products granted before
     * `to` that are active, or whose access ended (cancelled, ended, refunded, removed) after `to` or, cancelled,
     * has no end yet.
     */
    readonly figures: (workspaceId: string, from: Date, to: Date) => Effect.Effect<PeriodFigures>
    /** The products with the most revenue in `[from, to)` (then most sales), at most `limit`. */
    readonly topProducts: (
      workspaceId: string,
      from: Date,
      to: Date,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ProductSales>>
    /** The newest events of these types, newest first. */
    readonly latestEvents: (
      workspaceId: string,
      types: ReadonlyArray<string>,
      limit: number
    ) => Effect.Effect<ReadonlyArray<EventRecord>>
  }
>() {}

/** The event types the overview's `latest_events` shows: the store's own (sales, memberships, customers, cohorts). */
export const STORE_EVENT_TYPES: ReadonlyArray<string> = [
  "purchase.created",
  "purchase.refunded",
  "purchase.membership_ended",
  "membership.renewed",
  "membership.cancelled",
  "customer.created",
  "cohort_signup.created"
]

/** The longest custom period, in days. */
export const OVERVIEW_MAX_DAYS = 366

const DAY_MS = 86_400_000

/** One figure of the overview against the previous period. */
const compare = (value: number, previous: number): Figure => ({
  value,
  previous,
  // One decimal; no percentage of nothing.
  changePct: previous === 0 ? Option.none() : Option.some(Math.round(((value - previous) / previous) * 1000) / 10)
})

const eventSummary = (event: EventRecord): string => {
  const d = event.data
  const text = (key: string) => (typeof d[key] === "string" ? (d[key] as string) : "")
  const cents = typeof d.amount_cents === "number" ? ` (${(d.amount_cents / 100).toFixed(2)} USD)` : ""
  const who = text("buyer_email") || text("email")
  const what = text("product_title") || text("product_id")
  switch (event.type) {
    case "purchase.created":
      return `${who} bought ${what}${cents}`
    case "purchase.refunded":
      return `${who}'s purchase of ${what} was refunded${cents}`
    case "purchase.membership_ended":
      return `${who}'s membership of ${what} ended`
    case "membership.renewed":
      return `${who} renewed ${what}${cents}`
    case "membership.cancelled":
      return `${who} cancelled ${what}`
    case "customer.created":
      return `${who} became a customer (${what})`
    case "cohort_signup.created":
      return `${who} joined cohort ${text("cohort_name")} of ${what}`
    default:
      return event.type
  }
}

/** The seller's view of a store: its set-up checklist, and its figures over a period against the one before. */
export class StoreOverview extends Effect.Service<StoreOverview>()("svc/store/StoreOverview", {
  effect: Effect.gen(function* () {
    const stats = yield* StoreStatsRepo
    const settingsRepo = yield* StoreSettingsRepo
    const processorAccounts = yield* ProcessorAccountsRepo
    // Its set-up items are read by agents (svc_list_stores): said as the store tools say the publish checklist.
    const steps = agentStepsOn((yield* StorePages).settingsPage)

    /** What is left before a store can sell, item by item (each `done` or with what is missing). */
    const setup = (workspaceId: string) =>
      Effect.gen(function* (): Effect.fn.Return<ReadonlyArray<SetupItem>> {
        const settings = Option.getOrUndefined(yield* settingsRepo.find(workspaceId))
        const supportEmail = settings?.supportEmail ?? null
        const processor = settings?.cardProcessor ?? "none"
        const counts = yield* stats.productCounts(workspaceId)
        const paymentDone = processor === "connected" || counts.ownCheckout > 0
        return [
          {
            item: "support_email",
            done: supportEmail !== null,
            message: supportEmail !== null ? `support email is ${supportEmail}` : steps.support_email("")
          },
          {
            item: "payment",
            done: paymentDone,
            message: paymentDone
              ? processor === "connected"
                ? Option.isSome(yield* processorAccounts.find(workspaceId))
                  ? "Stripe takes the checkout's payments"
                  : "the built-in test processor takes the checkout's payments (test mode: no money moves; the owner connects Stripe for real ones)"
                : "a product sells through your own checkout"
              : steps.payment("")
          },
          {
            item: "product",
            done: counts.products > 0,
            message:
              counts.products > 0 ? `${counts.products} product(s)` : "create a product (svc_save_custom_ai_product)"
          },
          {
            item: "live_product",
            done: counts.live > 0,
            message:
              counts.live > 0 ? `${counts.live} live product(s)` : "publish a product (svc_publish_custom_ai_product)"
          }
        ]
      })

    const periodOf = (request: OverviewRequest) =>
      Effect.gen(function* () {
        if (request.kind === "range") {
          const { from, to } = request
          if (from.getTime() >= to.getTime()) return yield* invalid("to", "to must be after from (to is exclusive)")
          if (to.getTime() - from.getTime() > OVERVIEW_MAX_DAYS * DAY_MS) {
            return yield* invalid("to", `a period is at most ${OVERVIEW_MAX_DAYS} days`)
          }
          return { from, to }
        }
        const now = yield* Clock.currentTimeMillis
        const days = OVERVIEW_PERIODS[request.period]
        return { from: new Date(now - days * DAY_MS), to: new Date(now) }
      })

    /** The store's figures for a period against the previous period of the same length, top products, events. */
    const overview = (caller: StoreCaller, request: OverviewRequest) =>
      Effect.gen(function* () {
        const { from, to } = yield* periodOf(request)
        const previousFrom = new Date(from.getTime() - (to.getTime() - from.getTime()))
        const workspaceId = caller.workspaceId
        const [now, before, top, events] = yield* Effect.all([
          stats.figures(workspaceId, from, to),
          stats.figures(workspaceId, previousFrom, from),
          stats.topProducts(workspaceId, from, to, 5),
          stats.latestEvents(workspaceId, STORE_EVENT_TYPES, 10)
        ])
        const answer: SellerOverview = {
          period: { from, to },
          previous: { from: previousFrom, to: from },
          figures: {
            revenueCents: compare(now.revenueCents, before.revenueCents),
            sales: compare(now.sales, before.sales),
            refunds: compare(now.refunds, before.refunds),
            refundedCents: compare(now.refundedCents, before.refundedCents),
            netRevenueCents: compare(now.revenueCents - now.refundedCents, before.revenueCents - before.refundedCents),
            newCustomers: compare(now.newCustomers, before.newCustomers),
            activeMemberships: compare(now.activeMemberships, before.activeMemberships)
          },
          topProducts: top,
          latestEvents: events.map((e) => ({
            id: e.id,
            type: e.type,
            createdAt: e.createdAt,
            summary: eventSummary(e)
          }))
        }
        return answer
      })

    return { setup, overview } as const
  })
}) {}
