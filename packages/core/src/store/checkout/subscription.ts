/**
 * A membership the service's checkout bills itself: the test processor's (a live processor bills its own and tells
 * the service by its webhooks). It is charged again every `periodMonths` from `renewsAt` until it stops.
 */
export interface Subscription {
  /** `test_sub_…`: the sale's and the access's `subscription_id`. */
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly email: string
  readonly name: string | null
  readonly billing: "monthly" | "yearly"
  /** Each later charge: the price picked, in full (a discount code takes money off the first payment only). */
  readonly amountCents: number
  readonly periodMonths: number
  readonly test: boolean
  /** `stopped` once the buyer's access is no longer active (cancelled, ended, refunded or removed). */
  readonly state: "active" | "stopped"
  readonly stopReason: string | null
  /** When the next charge is due: the end of the paid period (or of the trial). */
  readonly renewsAt: Date
  /** How many renewal charges went through. */
  readonly renewals: number
  readonly createdAt: Date
}

/** A subscription a worker holds (its claim), as the renewal worker runs it. */
export interface HeldSubscription extends Subscription {
  readonly claimToken: string
}
