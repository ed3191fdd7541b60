import type { Option } from "effect"
import type { NextStep } from "../../shared/next-step.js"
import type { SaleRejection, SaleStatus } from "./sale.js"

/** A sale event that was counted: what it did to the buyer's access. */
export interface SaleCounted {
  readonly status: SaleStatus
}

/** A sale event turned away without a change (not a failure: the checkout's event was heard). */
export interface SaleTurnedAway {
  readonly status: "rejected"
  readonly reason: SaleRejection
  readonly message: string
  /** With `sold_out` and `waitlist_mode`: whether the buyer is now on the product's waitlist. */
  readonly waitlisted: Option.Option<boolean>
  /** Where the caller finds what the event needs, which each face says in its own words after the message. */
  readonly next?: NextStep
}

/** What recording a sale event came to. */
export type SaleOutcome = SaleCounted | SaleTurnedAway

/** Whether a sale event was turned away. */
export const isTurnedAway = (outcome: SaleOutcome): outcome is SaleTurnedAway => outcome.status === "rejected"
