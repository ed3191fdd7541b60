import { Context, type Effect, type Option } from "effect"
import type { Cohort, CohortMember, CohortWithMembers } from "./cohort.js"

/** A product's cohorts and who is in which (one cohort per person and product). */
export class CohortsRepo extends Context.Tag("svc/store/CohortsRepo")<
  CohortsRepo,
  {
    readonly insert: (cohort: Cohort) => Effect.Effect<void>
    /** Saves a cohort's name, capacity and start day (its product and creation stay). */
    readonly update: (cohort: Cohort) => Effect.Effect<void>
    /** The product's cohorts with their member counts, earliest start first (no start day last). */
    readonly listForProduct: (workspaceId: string, productId: string) => Effect.Effect<ReadonlyArray<CohortWithMembers>>
    /**
     * The cohort, locked until the transaction ends so concurrent moves into it count its members
     * one after another, with its member count read after the lock was taken.
     */
    readonly lock: (workspaceId: string, cohortId: string) => Effect.Effect<Option.Option<CohortWithMembers>>
    readonly membershipOf: (
      workspaceId: string,
      productId: string,
      email: string
    ) => Effect.Effect<Option.Option<CohortMember>>
    /** Puts the person in the cohort, leaving any other cohort of the product. */
    readonly place: (member: CohortMember) => Effect.Effect<void>
  }
>() {}
