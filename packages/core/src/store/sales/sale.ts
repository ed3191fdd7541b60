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

/** A sale as the store API and its feeds answer it. */
export const saleJson = (sale: Sale) => ({
  id: sale.id,
  product_id: sale.productId,
  product_title: sale.productTitle,
  buyer_email: sale.buyerEmail,
  buyer_name: sale.buyerName,
  amount: sale.amountCents / 100,
  amount_cents: sale.amountCents,
  currency: sale.currency,
  billing: sale.billing,
  source: sale.source,
  order_id: sale.orderId,
  discount_code: sale.discountCode,
  // Taken from the link a buyer of the service's checkout used; an own checkout never tells us.
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  utm_content: null,
  utm_term: null,
  fbclid: null,
  referrer: null,
  status: sale.status,
  created_at: sale.createdAt.toISOString()
})
