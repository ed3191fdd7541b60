import type { Option } from "effect"

/** One product's sales in a period. */
export interface ProductSales {
  readonly productId: string
  readonly productTitle: string
  readonly sales: number
  readonly revenueCents: number
}

/** A span of time `[from, to)`. */
export interface Span {
  readonly from: Date
  readonly to: Date
}

/** One figure of the overview against the previous period. */
export interface Figure {
  readonly value: number
  readonly previous: number
  /** Change against previous in percent, one decimal; none when previous is 0 (no percentage of nothing). */
  readonly changePct: Option.Option<number>
}

/** One of the latest store events, said in a line. */
export interface OverviewEvent {
  readonly id: string
  readonly type: string
  readonly createdAt: Date
  readonly summary: string
}

/** A store's figures for a period against the previous one of the same length, its top products and events. */
export interface SellerOverview {
  readonly period: Span
  readonly previous: Span
  readonly figures: {
    readonly revenueCents: Figure
    readonly sales: Figure
    readonly refunds: Figure
    readonly refundedCents: Figure
    readonly netRevenueCents: Figure
    readonly newCustomers: Figure
    readonly activeMemberships: Figure
  }
  readonly topProducts: ReadonlyArray<ProductSales>
  readonly latestEvents: ReadonlyArray<OverviewEvent>
}

/** An item of a store's set-up checklist: done, or what is missing and how to do it. */
export interface SetupItem {
  readonly item: "support_email" | "payment" | "product" | "live_product"
  readonly done: boolean
  readonly message: string
}
