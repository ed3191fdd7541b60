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

/** A cohort as the store API answers it. */
export const cohortJson = (cohort: CohortWithMembers) => ({
  id: cohort.id,
  product_id: cohort.productId,
  name: cohort.name,
  capacity: cohort.capacity,
  starts_on: cohort.startsOn,
  members: cohort.members,
  spots_left: cohort.capacity === null ? null : Math.max(0, cohort.capacity - cohort.members),
  full: cohort.capacity !== null && cohort.members >= cohort.capacity,
  created_at: cohort.createdAt.toISOString()
})
