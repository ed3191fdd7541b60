import type { CohortMove, CohortWithMembers } from "./cohort.js"

// The store API's wire form of cohorts (snake_case, ISO times), which the store tools answer too.

/** A cohort as the store API answers it (`CohortRow`). */
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

/** A product's cohorts, as `GET /products/<id>/cohorts` answers them. */
export const cohortListJson = (cohorts: ReadonlyArray<CohortWithMembers>) => ({
  ok: true as const,
  cohorts: cohorts.map(cohortJson)
})

/** A created or changed cohort, as `POST /products/<id>/cohorts` answers it. */
export const cohortAnswerJson = (cohort: CohortWithMembers) => ({ ok: true as const, cohort: cohortJson(cohort) })

/** The answer of `POST /customers/cohort`. */
export const cohortMoveJson = (move: CohortMove) => ({
  ok: true as const,
  status: move.status,
  cohort: cohortJson(move.cohort)
})
