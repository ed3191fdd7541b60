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

/** Where the buyer came from: the landing link's `utm_*` and `fbclid` parameters and the page that linked to it. */
export interface Attribution {
  readonly utmSource: string | null
  readonly utmMedium: string | null
  readonly utmCampaign: string | null
  readonly utmContent: string | null
  readonly utmTerm: string | null
  readonly fbclid: string | null
  readonly referrer: string | null
  /** The affiliate code of the link (`?via=<code>`, or its cookie), as the buyer came with it. */
  readonly affiliate: string | null
}

/** No attribution: what an outside checkout's sale has, which never tells us the link. */
export const NO_ATTRIBUTION: Attribution = {
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  utmContent: null,
  utmTerm: null,
  fbclid: null,
  referrer: null,
  affiliate: null
}

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
  /** Taken by the built-in test processor: no money moved, and the feeds leave it out. */
  readonly test: boolean
  readonly attribution: Attribution
  readonly createdAt: Date
}

/** The currency of every store until stores pick their own. */
export const STORE_CURRENCY = "usd"
