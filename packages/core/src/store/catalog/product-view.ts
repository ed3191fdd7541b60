import type { Option } from "effect"
import type { CustomAiKind } from "../../custom-ai/schema.js"
import type { BundleChecklistItem } from "./bundle.js"
import type { Product } from "./product.js"
import type { ChecklistItem } from "./product-rules.js"

/** A product as the seller sees it: itself, what it sells, what remains before it can go live, and its stock. */
export interface ProductView {
  readonly product: Product
  /** A bundle's products, in order; empty for a Custom AI's product. */
  readonly bundleProductIds: ReadonlyArray<string>
  /** What remains before the product can go live; empty when it can. */
  readonly checklist: ReadonlyArray<ChecklistItem | BundleChecklistItem>
  /** With a quantity limit: places left (people with access hold one each). */
  readonly quantityLeft: Option.Option<number>
  /** With a waitlist (waitlist mode, or one once sold out): how many people wait. */
  readonly waitlistWaiting: Option.Option<number>
}

/** A product of a paged list, with the products a bundle sells. */
export interface ListedProduct {
  readonly product: Product
  readonly bundleProductIds: ReadonlyArray<string>
}

/** The store's identity as its credential sees it. */
export interface StoreIdentity {
  readonly accountId: string
  /** The owner's email; empty when the account is gone. */
  readonly email: string
  readonly handle: string
  readonly name: string
  readonly workspaceId: string
}

/** One of the store's Custom AIs, with the product that sells it once there is one. */
export interface SellableCustomAi {
  readonly id: string
  readonly name: string
  readonly kind: CustomAiKind
  readonly productId: Option.Option<string>
  readonly createdAt: Date
}
