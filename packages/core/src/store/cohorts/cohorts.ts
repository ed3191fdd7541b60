import { Clock, Effect, Option } from "effect"
import { makeEventRecorder } from "../../events/service.js"
import { FieldProblem, InvalidInput, invalid, NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { isCalendarDay } from "../../shared/time.js"
import { hasAccess } from "../sales/access.js"
import { requireProductEditor, type StoreCaller } from "../../auth/store-caller.js"
import {
  type Cohort,
  COHORT_CAPACITY_MAX,
  type CohortMove,
  type CohortMoveRequest,
  type CohortWithMembers
} from "./cohort.js"
import { AccessRepo } from "../sales/ports.js"
import { CohortsRepo } from "./ports.js"
import { ProductsRepo } from "../catalog/ports.js"

/** What a new cohort needs: its product, a name, and optionally a cap and a start day. */
export interface NewCohort {
  readonly productId: string
  readonly name: string
  readonly capacity?: number | null | undefined
  readonly startsOn?: string | null | undefined
}

/** Changes to a cohort: a field left out is kept; `null` removes the cap or the start day. */
export interface CohortChanges {
  readonly name?: string | undefined
  readonly capacity?: number | null | undefined
  readonly startsOn?: string | null | undefined
}

/** The rules of a cohort's fields, every broken one at once; a cap may not be below the people already in it. */
const checkCohort = (
  cohort: { readonly name: string; readonly capacity: number | null; readonly startsOn: string | null },
  members: number
) => {
  const problems: Array<FieldProblem> = []
  const problem = (path: string, message: string) => problems.push(new FieldProblem({ path, message }))
  if (cohort.name.length === 0 || cohort.name.length > 200)
    problem("name", "the cohort name must be 1 to 200 characters")
  const capacity = cohort.capacity
  if (capacity !== null && !(Number.isInteger(capacity) && capacity >= 1 && capacity <= COHORT_CAPACITY_MAX)) {
    problem("capacity", `the capacity must be a whole number from 1 to ${COHORT_CAPACITY_MAX}`)
  } else if (capacity !== null && capacity < members) {
    problem(
      "capacity",
      `the cohort already has ${members} people; the capacity cannot be below that (null removes the cap)`
    )
  }
  if (cohort.startsOn !== null && !isCalendarDay(cohort.startsOn)) {
    problem("starts_on", "the start day must be a real day, YYYY-MM-DD")
  }
  return problems.length > 0
    ? Effect.fail(new InvalidInput({ message: problems.map((p) => p.message).join("; "), errors: problems }))
    : Effect.void
}

/** The cohorts of a store's products, and moving buyers into them. */
export class StoreCohorts extends Effect.Service<StoreCohorts>()("svc/store/StoreCohorts", {
  effect: Effect.gen(function* () {
    const products = yield* ProductsRepo
    const cohorts = yield* CohortsRepo
    const access = yield* AccessRepo
    const ids = yield* Ids
    const transactor = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    const productOf = (workspaceId: string, id: string) =>
      Effect.flatMap(products.find(workspaceId, id), (found) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(new NotFound({ message: `no product ${id} in this store`, next: { _tag: "ListProducts" } })),
          onSome: Effect.succeed
        })
      )

    /** Creates a cohort of a product (the CLI's `svc cohorts create`; the API and tools go through `createFor`). */
    const create = (workspaceId: string, input: NewCohort) =>
      Effect.gen(function* () {
        const product = yield* productOf(workspaceId, input.productId)
        const name = input.name.trim()
        const capacity = input.capacity ?? null
        const startsOn = input.startsOn ?? null
        yield* checkCohort({ name, capacity, startsOn }, 0)
        const cohort: Cohort = {
          id: yield* ids.make("coh_"),
          workspaceId,
          productId: product.id,
          name,
          capacity,
          startsOn,
          createdAt: new Date(yield* Clock.currentTimeMillis)
        }
        yield* cohorts.insert(cohort)
        const created: CohortWithMembers = { ...cohort, members: 0 }
        return created
      })

    /**
     * Creates a cohort for a store API or tool caller (`POST /products/<id>/cohorts`, `svc_manage_cohorts`). A
     * cohort is part of how a product is sold, so it is a product change: refused to automation connections.
     */
    const createFor = (caller: StoreCaller, input: NewCohort) =>
      Effect.zipRight(requireProductEditor(caller), create(caller.workspaceId, input))

    /**
     * Changes a cohort's name, cap or start day (`null` removes the cap or the start day). A cap below the
     * people already in it is refused. The cohort is locked so a concurrent move cannot slip past the new cap.
     */
    const update = (caller: StoreCaller, cohortId: string, changes: CohortChanges) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          yield* requireProductEditor(caller)
          if (changes.name === undefined && changes.capacity === undefined && changes.startsOn === undefined) {
            return yield* invalid("", "give at least one of name, capacity, startsOn to change")
          }
          const locked = yield* cohorts.lock(caller.workspaceId, cohortId)
          if (Option.isNone(locked)) {
            return yield* new NotFound({
              message: `no cohort ${cohortId} in this store`,
              next: { _tag: "ListCohorts" }
            })
          }
          const current = locked.value
          const next: Cohort = {
            id: current.id,
            workspaceId: current.workspaceId,
            productId: current.productId,
            name: changes.name === undefined ? current.name : changes.name.trim(),
            capacity: changes.capacity === undefined ? current.capacity : changes.capacity,
            startsOn: changes.startsOn === undefined ? current.startsOn : changes.startsOn,
            createdAt: current.createdAt
          }
          yield* checkCohort(next, current.members)
          yield* cohorts.update(next)
          const updated: CohortWithMembers = { ...next, members: current.members }
          return updated
        })
      )

    /** A product's cohorts, earliest start first. */
    const list = (caller: StoreCaller, productId: string) =>
      Effect.gen(function* () {
        const product = yield* productOf(caller.workspaceId, productId)
        return yield* cohorts.listForProduct(caller.workspaceId, product.id)
      })

    /**
     * Moves a buyer with access to the product into one of its cohorts (out of any other); a full
     * cohort refuses them unless `overCap`. Records `cohort_signup.created` in the same transaction.
     */
    const move = (caller: StoreCaller, input: CohortMoveRequest) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const product = yield* productOf(caller.workspaceId, input.productId)
          const locked = yield* cohorts.lock(caller.workspaceId, input.cohortId)
          if (Option.isNone(locked) || locked.value.productId !== product.id) {
            return yield* new NotFound({
              message: `no cohort ${input.cohortId} for product ${product.id}`,
              next: { _tag: "ListCohorts", productId: product.id }
            })
          }
          const cohort = locked.value
          const now = new Date(yield* Clock.currentTimeMillis)
          const rows = yield* access.accessOf(caller.workspaceId, input.email, product.id)
          const person = rows.find((a) => hasAccess(a, now.getTime()))
          if (person === undefined) {
            return yield* new NotFound({
              message: `${input.email} has no access to ${product.id}; only buyers with access can join its cohorts`
            })
          }
          const current = yield* cohorts.membershipOf(caller.workspaceId, product.id, input.email)
          if (Option.isSome(current) && current.value.cohortId === cohort.id) {
            const stayed: CohortMove = { status: "already_in_cohort", cohort }
            return stayed
          }
          const full = cohort.capacity !== null && cohort.members >= cohort.capacity
          if (full && input.overCap !== true) {
            return yield* invalid(
              "cohort",
              `cohort ${cohort.name} (${cohort.id}) is full: ${cohort.members} of ${cohort.capacity} places taken; send over_cap: true (overCap in svc_manage_cohorts) to add ${input.email} anyway`
            )
          }
          yield* cohorts.place({
            workspaceId: caller.workspaceId,
            productId: product.id,
            cohortId: cohort.id,
            email: input.email,
            name: person.name,
            overCap: full,
            joinedAt: now
          })
          yield* recordEvent(caller.workspaceId, "cohort_signup.created", {
            product_id: product.id,
            product_title: product.fields.title,
            cohort_id: cohort.id,
            cohort_name: cohort.name,
            starts_on: cohort.startsOn,
            email: input.email,
            name: person.name,
            previous_cohort_id: Option.match(current, { onNone: () => null, onSome: (m) => m.cohortId }),
            over_cap: full,
            created_at: now.toISOString()
          })
          const moved: CohortMove = { status: "moved", cohort: { ...cohort, members: cohort.members + 1 } }
          return moved
        })
      )

    return { create, createFor, update, list, move } as const
  })
}) {}
