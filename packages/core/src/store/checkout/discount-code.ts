/** How a discount code takes money off: a percent of the price, or a fixed amount. */
export type DiscountKind = "percent" | "amount"

/** The shortest and longest code a seller may choose. */
export const DISCOUNT_CODE_MIN = 3
export const DISCOUNT_CODE_MAX = 24
/** What a code is made of: letters, digits and dashes. */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9-]{3,24}$/

/** A discount code of the service's checkout, for one product. */
export interface DiscountCode {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  /** As the seller wrote it; buyers may type it in any case. */
  readonly code: string
  readonly kind: DiscountKind
  /** 1 to 100 with `percent`, else null. */
  readonly percentOff: number | null
  /** More than 0 with `amount`, else null. */
  readonly amountOffCents: number | null
  /** Null: no cap. */
  readonly maxUses: number | null
  readonly uses: number
  readonly expiresAt: Date | null
  readonly disabledAt: Date | null
  readonly createdAt: Date
}

/** The key a code is looked up by: buyers type codes by hand, so case never matters. */
export const discountCodeKey = (code: string) => code.trim().toUpperCase()

/**
 * The price after the code, in whole cents: a percent is rounded to the nearest cent (half up), and no code takes a
 * price below zero.
 */
export const priceAfterDiscount = (
  priceCents: number,
  code: Pick<DiscountCode, "kind" | "percentOff" | "amountOffCents">
) => {
  const off =
    code.kind === "percent" ? Math.round((priceCents * (code.percentOff ?? 0)) / 100) : (code.amountOffCents ?? 0)
  return Math.max(0, priceCents - off)
}

/** Why a typed code does not apply, said to the buyer. */
export type DiscountRefusal = "unknown" | "other_product" | "expired" | "used_up" | "disabled"

/** Whether a code may be used now, before its use is counted (the count is checked again when it is taken). */
export const discountRefusal = (code: DiscountCode, productId: string, now: Date): DiscountRefusal | undefined => {
  if (code.productId !== productId) return "other_product"
  if (code.disabledAt !== null) return "disabled"
  if (code.expiresAt !== null && code.expiresAt.getTime() <= now.getTime()) return "expired"
  if (code.maxUses !== null && code.uses >= code.maxUses) return "used_up"
  return undefined
}

/** The buyer's words for each refusal. */
export const discountRefusalMessage: {
  readonly [R in DiscountRefusal]: string
} = {
  unknown: "This discount code does not exist. Check the spelling, or leave it empty.",
  other_product: "This discount code is for another product.",
  expired: "This discount code has expired.",
  used_up: "This discount code has been used as many times as it may be.",
  disabled: "This discount code is no longer valid."
}
