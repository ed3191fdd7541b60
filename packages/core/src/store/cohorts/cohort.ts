/** A group of a product's buyers who start together, with an optional cap on its size. */
export interface Cohort {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly name: string
  /** The most people it takes; null for no cap. */
  readonly capacity: number | null
  /** The day it starts, `YYYY-MM-DD`; null when not set. */
  readonly startsOn: string | null
  readonly createdAt: Date
}

/** A cohort with how many people are in it. */
export interface CohortWithMembers extends Cohort {
  readonly members: number
}

/** A person's place in one cohort of a product (a person is in at most one cohort per product). */
export interface CohortMember {
  readonly workspaceId: string
  readonly productId: string
  readonly cohortId: string
  readonly email: string
  readonly name: string | null
  /** Whether they were added to a full cohort (`over_cap: true`). */
  readonly overCap: boolean
  readonly joinedAt: Date
}

/** The most people a cohort may be capped at. */
export const COHORT_CAPACITY_MAX = 100_000

/** What moving a buyer into a cohort did, and the cohort as it now is. */
export interface CohortMove {
  readonly status: "moved" | "already_in_cohort"
  readonly cohort: CohortWithMembers
}

/** A move of a buyer with access to the product into one of its cohorts. */
export interface CohortMoveRequest {
  readonly productId: string
  readonly email: string
  readonly cohortId: string
  /** Into a full cohort anyway. */
  readonly overCap?: boolean | undefined
}
