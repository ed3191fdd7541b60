import { Schema } from "effect"
import type { Billing } from "../catalog/product.js"

/** What an outside checkout reports through `POST /sales`. */
export const SaleEvent = Schema.Literal("sale", "renewal", "cancel", "end", "refund").annotations({
  description: "sale, renewal, cancel, end or refund."
})
export type SaleEvent = typeof SaleEvent.Type

/** The answer status of a recorded sale event (mapping documented in docs/store-api.md). */
export type SaleStatus = "granted" | "restored" | "renewed" | "cancelled" | "revoked" | "duplicate"

/** Why a sale event was turned away (answered 200 with `ok: false`). */
export type SaleRejection =
  | "product_not_found"
  | "product_not_live"
  | "not_a_membership"
  | "no_access"
  | "order_not_found"
  | "sold_out"
  | "waitlist_mode"

/** Where a sale row came from: the service's own checkout, or a seller's own checkout reporting it. */
export type SaleSource = "svc_checkout" | "own_checkout"

/** The state of a sale row. */
export type SaleRowStatus = "paid" | "refunded" | "free"

/** One sale line. */
export interface Sale {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly productTitle: string
  readonly buyerEmail: string
  readonly buyerName: string | null
  readonly amountCents: number
  readonly currency: string
  readonly billing: Billing
  readonly source: SaleSource
  readonly orderId: string | null
  readonly subscriptionId: string | null
  readonly status: SaleRowStatus
  readonly discountCode: string | null
  readonly createdAt: Date
}

/** The currency of every store until stores pick their own. */
export const STORE_CURRENCY = "usd"
