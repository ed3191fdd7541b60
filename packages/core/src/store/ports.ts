import { Context, type Effect, type Option } from "effect"
import type { EventRecord } from "../events/schema.js"
import type { Page, PageRequest } from "../shared/paging.js"
import type { Customer, ProductAccess as Access } from "./access.js"
import type { Product, ProductStatus } from "./product.js"
import type { StoreSettings } from "./product-rules.js"
import type { Sale, SaleRowStatus } from "./sale.js"

/** Bounds on `created_at` of a paged list. */
export interface CreatedRange {
  readonly after?: Date | undefined
  readonly before?: Date | undefined
}

/** Stored products. */
export class ProductsRepo extends Context.Tag("svc/store/ProductsRepo")<
  ProductsRepo,
  {
    /** Inserts a product; `false` when its Custom AI already has one (a unique constraint decides). */
    readonly insert: (product: Product) => Effect.Effect<boolean>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Product>>
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

/** Sale rows and the order ids already recorded. */
export class SalesRepo extends Context.Tag("svc/store/SalesRepo")<
  SalesRepo,
  {
    /** Records an idempotency key (e.g. `sale:<order id>`); `false` when it was already recorded. */
    readonly claim: (workspaceId: string, key: string, at: Date) => Effect.Effect<boolean>
    readonly insert: (sale: Sale) => Effect.Effect<void>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Sale>>
    readonly findByOrder: (workspaceId: string, orderId: string) => Effect.Effect<Option.Option<Sale>>
    readonly listPage: (
      workspaceId: string,
      filter: {
        readonly productId?: string | undefined
        readonly email?: string | undefined
        readonly status?: SaleRowStatus | undefined
      } & CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<Sale>>
  }
>() {}

/** Customers and their access to products. */
export class AccessRepo extends Context.Tag("svc/store/AccessRepo")<
  AccessRepo,
  {
    /**
     * The person's access row for the product, locked until the transaction ends (created as
     * `none` first when missing, so two events for one person never interleave).
     */
    readonly lock: (workspaceId: string, productId: string, email: string, at: Date) => Effect.Effect<Access>
    readonly save: (access: Access) => Effect.Effect<void>
    /** Adds the person to the store's customers unless already there. */
    readonly ensureCustomer: (customer: Customer) => Effect.Effect<void>
    readonly findCustomer: (workspaceId: string, email: string) => Effect.Effect<Option.Option<Customer>>
    /** A person's access rows (other than `none`), optionally for one product. */
    readonly accessOf: (
      workspaceId: string,
      email: string,
      productId?: string | undefined
    ) => Effect.Effect<ReadonlyArray<Access>>
    readonly listCustomers: (
      workspaceId: string,
      filter: {
        readonly productId?: string | undefined
        readonly hasAccess?: boolean | undefined
        readonly now: Date
      } & CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<Customer>>
  }
>() {}

/** Which events a feed reads. */
export interface FeedQuery {
  readonly types: ReadonlyArray<string>
  readonly since: Date
  /** Only events whose `data.product_id` is this product. */
  readonly productId?: string | undefined
  /** `purchase.created` events only when the sale was paid (and, with `memberships`, billed monthly or yearly). */
  readonly paidSales?: "all" | "memberships" | undefined
  readonly limit: number
}

/** Reads the event log for the store's polling feeds. */
export class StoreFeedRepo extends Context.Tag("svc/store/StoreFeedRepo")<
  StoreFeedRepo,
  {
    /** Matching events, newest first. */
    readonly recent: (workspaceId: string, query: FeedQuery) => Effect.Effect<ReadonlyArray<EventRecord>>
  }
>() {}
