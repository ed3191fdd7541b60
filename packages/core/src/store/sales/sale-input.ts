import type { SaleEvent } from "./sale.js"

/** A sale event from an outside checkout, as `StoreSales.recordSale` takes it. */
export interface SaleInput {
  readonly event: SaleEvent
  readonly productId: string
  /** The buyer's email, trimmed and in lower case. */
  readonly email: string
  readonly name?: string | undefined
  /** The checkout's order id: the same id twice counts once; a refund names the sale by it. */
  readonly orderId?: string | undefined
  readonly subscriptionId?: string | undefined
  /**
   * Paid until and (cancel) when access ends, as the checkout sent them: ISO date or milliseconds. Read by the
   * service after the sale limits, so a store over its limit hears that before a badly written time.
   */
  readonly paidUntil?: string | number | undefined
  readonly endsAt?: string | number | undefined
  /** The code of the affiliate whose link brought a sale; it earns them their commission. */
  readonly affiliate?: string | undefined
}

/** `POST /sales`'s body (already decoded: known fields, right types) as the sale input. */
export const saleInputOf = (payload: {
  readonly event: SaleEvent
  readonly product: string
  readonly email: string
  readonly name?: string | undefined
  readonly order_id?: string | undefined
  readonly subscription_id?: string | undefined
  readonly paid_until?: string | number | undefined
  readonly ends_at?: string | number | undefined
  readonly affiliate?: string | undefined
}): SaleInput => ({
  event: payload.event,
  productId: payload.product,
  email: payload.email,
  name: payload.name,
  orderId: payload.order_id,
  subscriptionId: payload.subscription_id,
  paidUntil: payload.paid_until,
  endsAt: payload.ends_at,
  affiliate: payload.affiliate
})
