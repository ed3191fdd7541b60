import { Context, type Effect, type Option } from "effect"
import type { CreatedRange, Page, PageRequest } from "../../shared/paging.js"
import type { Product, ProductStatus } from "./product.js"
import type { StoreSettings } from "./product-rules.js"

/** Stored products. */
export class ProductsRepo extends Context.Tag("svc/store/ProductsRepo")<
  ProductsRepo,
  {
    /** Inserts a product; `false` when its Custom AI already has one (a unique constraint decides). */
    readonly insert: (product: Product) => Effect.Effect<boolean>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Product>>
    /** The product with this id in whichever store has it: a public checkout link names the product only. */
    readonly findById: (id: string) => Effect.Effect<Option.Option<Product>>
    /** The products with these ids, in no particular order (unknown ids are left out); one read for many. */
    readonly findMany: (workspaceId: string, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Product>>
    /** The product that sells a Custom AI (there is at most one). */
    readonly findByCustomAi: (workspaceId: string, customAiId: string) => Effect.Effect<Option.Option<Product>>
    readonly update: (product: Product) => Effect.Effect<void>
    /** Every product of the workspace, newest first. */
    readonly listAll: (workspaceId: string) => Effect.Effect<ReadonlyArray<Product>>
    readonly listPage: (
      workspaceId: string,
      filter: { readonly status?: ProductStatus | undefined } & CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<Product>>
  }
>() {}

/** Store settings (support email, card processor), one row per workspace. */
export class StoreSettingsRepo extends Context.Tag("svc/store/StoreSettingsRepo")<
  StoreSettingsRepo,
  {
    readonly find: (workspaceId: string) => Effect.Effect<Option.Option<StoreSettings>>
    readonly save: (settings: StoreSettings) => Effect.Effect<void>
  }
>() {}

/** Places taken on a product with a quantity limit, and the people waiting for one. */
export class WaitlistRepo extends Context.Tag("svc/store/WaitlistRepo")<
  WaitlistRepo,
  {
    /** Locks the product row until the transaction ends, so two sales never take the last place twice. */
    readonly lockProduct: (workspaceId: string, productId: string) => Effect.Effect<void>
    /**
     * The places taken at `now`: people with access (active, or cancelled with time left), and buyers on a live
     * processor's payment page until it expires (but `exceptEmail`'s own: the buyer asking again).
     */
    readonly holders: (
      workspaceId: string,
      productId: string,
      now: Date,
      exceptEmail?: string | undefined
    ) => Effect.Effect<number>
    /** Adds the person to the waitlist; `false` when already on it. */
    readonly join: (entry: WaitlistEntry) => Effect.Effect<boolean>
    /** Takes the person off the waitlist (they got the product). */
    readonly leave: (workspaceId: string, productId: string, email: string) => Effect.Effect<void>
    /** How many people wait for the product. */
    readonly waiting: (workspaceId: string, productId: string) => Effect.Effect<number>
  }
>() {}

/** One person waiting for a product. */
export interface WaitlistEntry {
  readonly workspaceId: string
  readonly productId: string
  readonly email: string
  readonly name: string | null
  /** Why they were put on it: the product had sold out, or took waitlist emails instead of selling. */
  readonly reason: "sold_out" | "waitlist_mode"
  readonly createdAt: Date
}

/** The products each bundle sells, in the seller's order, and the access rows a bundle gave. */
export class BundlesRepo extends Context.Tag("svc/store/BundlesRepo")<
  BundlesRepo,
  {
    /** The bundle's product ids, in order. */
    readonly items: (workspaceId: string, bundleId: string) => Effect.Effect<ReadonlyArray<string>>
    /** The product ids of each of these bundles, in order (bundles without items are left out). */
    readonly itemsOf: (
      workspaceId: string,
      bundleIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<string>>>
    /** Replaces the bundle's products with these, in this order. */
    readonly setItems: (workspaceId: string, bundleId: string, productIds: ReadonlyArray<string>) => Effect.Effect<void>
    /** The bundles that sell this product. */
    readonly bundlesWith: (workspaceId: string, productId: string) => Effect.Effect<ReadonlyArray<string>>
    /** The products whose access row of this person the bundle gave (`via_bundle_id`), whatever their state. */
    readonly givenBy: (workspaceId: string, bundleId: string, email: string) => Effect.Effect<ReadonlyArray<string>>
  }
>() {}
