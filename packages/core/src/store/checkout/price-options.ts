import type { Billing, Product } from "../catalog/product.js"

/** Which of a product's prices the buyer picked. */
export type PriceChoice = "one-time" | "plan" | "monthly" | "yearly"

/** One way to pay for a product, as the checkout offers it. */
export interface PriceOption {
  readonly choice: PriceChoice
  /** The price of the product this way: the whole price, a plan's part, or a membership's price per period. */
  readonly priceCents: number
  /** What the sale records as its billing. */
  readonly billing: Billing
  /** A membership's period, in months; null for a one-time price. */
  readonly periodMonths: number | null
  /** Free days before a membership's first charge; null without. */
  readonly trialDays: number | null
  /** A payment plan's number of monthly parts (the first is paid at checkout); null without. */
  readonly parts: number | null
}

/**
 * The prices a product offers at the checkout: a one-time product its price and, with `payment_plan`, the plan; a
 * monthly membership its monthly price and, with `yearly_price_cents`, a yearly one; a yearly membership its price.
 * A trial applies to each membership price.
 */
export const priceOptions = (product: Product): ReadonlyArray<PriceOption> => {
  const f = product.fields
  const trialDays = f.trial_days
  switch (f.billing) {
    case "one-time":
      return [
        {
          choice: "one-time",
          priceCents: f.price_cents,
          billing: "one-time",
          periodMonths: null,
          trialDays: null,
          parts: null
        },
        ...(f.payment_plan === null || f.price_cents === 0
          ? []
          : [
              {
                choice: "plan",
                priceCents: f.payment_plan.amount_cents,
                billing: "one-time",
                periodMonths: null,
                trialDays: null,
                parts: f.payment_plan.count
              } satisfies PriceOption
            ])
      ]
    case "monthly":
      return [
        {
          choice: "monthly",
          priceCents: f.price_cents,
          billing: "monthly",
          periodMonths: 1,
          trialDays,
          parts: null
        },
        ...(f.yearly_price_cents === null
          ? []
          : [
              {
                choice: "yearly",
                priceCents: f.yearly_price_cents,
                billing: "yearly",
                periodMonths: 12,
                trialDays,
                parts: null
              } satisfies PriceOption
            ])
      ]
    case "yearly":
      return [
        {
          choice: "yearly",
          priceCents: f.price_cents,
          billing: "yearly",
          periodMonths: 12,
          trialDays,
          parts: null
        }
      ]
  }
}

/** What the buyer pays at checkout for `option` before any discount: nothing during a trial. */
export const dueNowCents = (option: PriceOption) => (option.trialDays === null ? option.priceCents : 0)

/** The same calendar day `months` later (the month's last day when it has no such day), in UTC. */
export const addMonths = (from: Date, months: number) => {
  const day = from.getUTCDate()
  const moved = new Date(from.getTime())
  moved.setUTCDate(1)
  moved.setUTCMonth(moved.getUTCMonth() + months)
  const last = new Date(Date.UTC(moved.getUTCFullYear(), moved.getUTCMonth() + 1, 0)).getUTCDate()
  moved.setUTCDate(Math.min(day, last))
  return moved
}

/**
 * Until when a new buyer's access is paid: a membership to the end of its trial or its first period; a one-time
 * price (whole or in parts) for good.
 */
export const paidUntilOf = (option: PriceOption, now: Date): Date | null => {
  if (option.periodMonths === null) return null
  if (option.trialDays !== null) return new Date(now.getTime() + option.trialDays * 86_400_000)
  return addMonths(now, option.periodMonths)
}
