/** What one account can spend now, split by the bucket it comes from; amounts in tenths of a credit. */
export interface CreditBalance {
  /** What can be spent now: allowance left + extra. */
  readonly balanceTenths: number
  /** Left of this month's plan allowance. */
  readonly allowanceTenths: number
  /** The plan's monthly amount. */
  readonly monthlyAllowanceTenths: number
  /** Granted credits (a product's included_credits); they never expire. */
  readonly extraTenths: number
  /** The month (`YYYY-MM`, UTC) the allowance belongs to. */
  readonly period: string
}

/** The answer of a charge: what the call cost, and the balance after it. */
export interface CreditCharge {
  readonly chargedTenths: number
  readonly balanceTenths: number
}

/** `charge`: a call paid for; `grant`: extra credits given. */
export type CreditEntryKind = "charge" | "grant"

/** One line of an account's ledger. */
export interface CreditEntry {
  readonly id: string
  readonly accountId: string
  readonly kind: CreditEntryKind
  /** The call id of a charge, or the idempotency key of a grant (`sale:<saleId>` for a product's credits). */
  readonly key: string
  /** The amount, positive whichever way it goes. */
  readonly tenths: number
  /** Of a charge: the part taken from the monthly allowance of `period`. */
  readonly allowanceTenths: number
  /** Of a charge: the part taken from extra credits; of a grant: the whole amount. */
  readonly extraTenths: number
  /** The allowance month (`YYYY-MM`) in force when the entry was written. */
  readonly period: string
  readonly reason: string
  readonly createdAt: Date
}

/** The stored balance row of an account: allowance used in `period`, and extra credits left. */
export interface CreditBalanceRow {
  readonly accountId: string
  readonly period: string
  readonly allowanceUsedTenths: number
  readonly extraTenths: number
}

/** Credits granted to an email that has no account yet, applied when that account first reads or spends. */
export interface PendingCreditGrant {
  readonly key: string
  readonly email: string
  readonly tenths: number
  readonly reason: string
  readonly createdAt: Date
}
