/**
 * One person's access to one product. `none` is a placeholder row that exists only so concurrent
 * events for the same person serialise on its row lock; it means "never had access".
 */
export type AccessState = "none" | "active" | "cancelled" | "ended" | "refunded" | "removed"

/** How a person came to have a product. */
export type AccessHow = "bought" | "free" | "own_checkout" | "added" | "imported" | "bundle"

/** A person's access to a product. */
export interface ProductAccess {
  readonly workspaceId: string
  readonly productId: string
  readonly email: string
  readonly name: string | null
  readonly state: AccessState
  readonly how: AccessHow | null
  readonly orderId: string | null
  readonly subscriptionId: string | null
  readonly paidUntil: Date | null
  /** When a cancelled membership's access runs out; null: at the end event. */
  readonly endsAt: Date | null
  /**
   * The bundle that gave this access (null: the person's own, from a sale or grant of the product itself). A
   * refund or end of that bundle takes away only the access it gave.
   */
  readonly viaBundleId: string | null
  readonly grantedAt: Date | null
  readonly updatedAt: Date
}

/** Whether the person can use the product at `now`. */
export const hasAccess = (access: ProductAccess, now: number): boolean =>
  access.state === "active" ||
  (access.state === "cancelled" && (access.endsAt === null || access.endsAt.getTime() > now))

/** A person who has (or had) something from the store. */
export interface Customer {
  readonly id: string
  readonly workspaceId: string
  readonly email: string
  readonly name: string | null
  readonly createdAt: Date
}
