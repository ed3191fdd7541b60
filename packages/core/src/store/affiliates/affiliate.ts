/** How an affiliate is paid for a sale they brought: a share of what was paid, or a fixed amount. */
export type CommissionKind = "percent" | "fixed"

/** The most a percent commission may be. */
export const COMMISSION_PERCENT_MAX = 90
/** The longest cookie window, in days. */
export const COOKIE_DAYS_MAX = 365
/** The cookie window a new program gets. */
export const COOKIE_DAYS_DEFAULT = 30
/** An affiliate code: 3 to 32 lower-case letters, digits or dashes, unique in the store. */
export const AFFILIATE_CODE = /^[a-z0-9](?:[a-z0-9-]{1,30}[a-z0-9])$/
/** The longest note an applicant writes. */
export const AFFILIATE_NOTE_MAX = 1_000
/** The longest name. */
export const AFFILIATE_NAME_MAX = 120

/**
 * A product's affiliate program: what an affiliate earns on each sale and renewal they bring, how long their link's
 * cookie counts, and whether the seller approves each applicant first. Off, no new sale earns and nobody may apply.
 */
export interface AffiliateProgram {
  readonly workspaceId: string
  readonly productId: string
  readonly commissionKind: CommissionKind
  /** A percent (1 to 90) or cents (fixed). */
  readonly commissionValue: number
  readonly cookieDays: number
  readonly approval: boolean
  readonly active: boolean
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** `pending` until the seller decides (with approval on); `removed` ends a once active affiliate's link. */
export type AffiliateStatus = "pending" | "active" | "declined" | "removed"

/** A person who promotes one product with their own link, `?via=<code>`. */
export interface Affiliate {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly email: string
  readonly name: string | null
  readonly code: string
  readonly status: AffiliateStatus
  /** What they wrote when applying; null when the seller added them. */
  readonly note: string | null
  readonly createdAt: Date
  readonly decidedAt: Date | null
}

/** What one sale or renewal an affiliate brought earned them; reversed when the sale is refunded. */
export interface Commission {
  readonly id: string
  readonly workspaceId: string
  readonly affiliateId: string
  readonly productId: string
  /** The sale it came from (a renewal's too: the membership's first sale). */
  readonly saleId: string
  readonly subscriptionId: string | null
  readonly payment: "first" | "renewal"
  readonly amountCents: number
  readonly commissionCents: number
  readonly currency: string
  readonly test: boolean
  readonly createdAt: Date
  readonly reversedAt: Date | null
}

/** What `amountCents` earns under `program`: a share rounded to the cent, or the fixed amount (never above the sale). */
export const commissionOf = (program: AffiliateProgram, amountCents: number): number =>
  amountCents <= 0
    ? 0
    : program.commissionKind === "percent"
      ? Math.round((amountCents * program.commissionValue) / 100)
      : Math.min(program.commissionValue, amountCents)

/** A code as typed (any case, spaces around) as the store keeps it. */
export const normalCode = (code: string) => code.trim().toLowerCase()
