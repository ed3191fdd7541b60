import { Effect } from "effect"
import { hasAccess } from "../sales/access.js"
import { AccessRepo } from "../sales/ports.js"
import { WaitlistRepo } from "./ports.js"
import type { Product } from "./product.js"

/** Why a product turned a new buyer away, and whether they were put on its waitlist. */
export interface TurnedAway {
  readonly reason: "sold_out" | "waitlist_mode"
  readonly message: string
  readonly waitlisted: boolean
}

/**
 * Places on products with a `quantity_limit` and their waitlists. A place is held by everyone who
 * has access to the product right now (a sale, a renewal or a hand-added person); a refund, an end or
 * a removal gives it back.
 */
export const makeStock = Effect.gen(function* () {
  const repo = yield* WaitlistRepo
  const access = yield* AccessRepo

  const holdsPlace = (product: Product, email: string, now: Date) =>
    Effect.map(access.accessOf(product.workspaceId, email, product.id), (rows) =>
      rows.some((a) => hasAccess(a, now.getTime()))
    )

  const putOnWaitlist = (
    product: Product,
    email: string,
    name: string | null,
    now: Date,
    reason: TurnedAway["reason"]
  ) =>
    Effect.zipRight(
      repo.join({ workspaceId: product.workspaceId, productId: product.id, email, name, reason, createdAt: now }),
      repo.waiting(product.workspaceId, product.id)
    )

  /**
   * Whether `email` must be turned away instead of getting the product: a `sale` while the product
   * takes waitlist emails instead of selling, or a new place on a sold-out product (someone who has
   * access already keeps theirs). Call it inside the transaction that grants, before the person's
   * access row is locked: a limited product's row is locked first, so its last place is taken once.
   */
  const turnAway = (
    product: Product,
    email: string,
    name: string | null,
    now: Date,
    kind: "sale" | "add"
  ): Effect.Effect<TurnedAway | undefined> =>
    Effect.gen(function* () {
      const fields = product.fields
      if (kind === "sale" && fields.waitlist_mode) {
        if (yield* holdsPlace(product, email, now)) {
          return {
            reason: "waitlist_mode",
            message: `the product takes waitlist emails instead of selling (waitlist_mode); ${email} already has access. PATCH waitlist_mode false to open sales`,
            waitlisted: false
          } as const
        }
        const waiting = yield* putOnWaitlist(product, email, name, now, "waitlist_mode")
        return {
          reason: "waitlist_mode",
          message: `the product takes waitlist emails instead of selling (waitlist_mode); ${email} is on its waitlist (${waiting} waiting). PATCH waitlist_mode false to open sales`,
          waitlisted: true
        } as const
      }
      const limit = fields.quantity_limit
      if (limit === null) return undefined
      yield* repo.lockProduct(product.workspaceId, product.id)
      if (yield* holdsPlace(product, email, now)) return undefined
      const taken = yield* repo.holders(product.workspaceId, product.id, now, email)
      if (taken < limit) return undefined
      if (!fields.quantity_waitlist) {
        return {
          reason: "sold_out",
          message: `the product has sold out: all ${limit} places (quantity_limit) are taken; raise quantity_limit to sell more`,
          waitlisted: false
        } as const
      }
      const waiting = yield* putOnWaitlist(product, email, name, now, "sold_out")
      return {
        reason: "sold_out",
        message: `the product has sold out: all ${limit} places (quantity_limit) are taken; ${email} is on its waitlist (${waiting} waiting)`,
        waitlisted: true
      } as const
    })

  /** Takes a person who just got the product off its waitlist. */
  const gotProduct = (product: Product, email: string) =>
    product.fields.waitlist_mode || product.fields.quantity_waitlist
      ? repo.leave(product.workspaceId, product.id, email)
      : Effect.void

  /** The answer fields that apply to the product: `quantity_left` with a limit, `waitlist_waiting` with a waitlist. */
  const standing = (product: Product, now: Date) =>
    Effect.gen(function* () {
      const limit = product.fields.quantity_limit
      const left =
        limit === null ? undefined : Math.max(0, limit - (yield* repo.holders(product.workspaceId, product.id, now)))
      const waiting =
        product.fields.waitlist_mode || product.fields.quantity_waitlist
          ? yield* repo.waiting(product.workspaceId, product.id)
          : undefined
      return {
        ...(left === undefined ? {} : { quantity_left: left }),
        ...(waiting === undefined ? {} : { waitlist_waiting: waiting })
      }
    })

  return { turnAway, gotProduct, standing } as const
})
