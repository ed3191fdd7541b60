import { Context, type Effect, type Option } from "effect"
import type { CreatedRange, Page, PageRequest } from "../../shared/paging.js"
import type { Customer, ProductAccess as Access } from "./access.js"
import type { Sale, SaleRowStatus } from "./sale.js"

/** Sale rows and the order ids already recorded. */
export class SalesRepo extends Context.Tag("svc/store/SalesRepo")<
  SalesRepo,
  {
    /** Records an idempotency key (e.g. `sale:<order id>`); `false` when it was already recorded. */
    readonly claim: (workspaceId: string, key: string, at: Date) => Effect.Effect<boolean>
    readonly insert: (sale: Sale) => Effect.Effect<void>
    /** Marks a sale refunded (the service's checkout's sales; an own checkout's keep their row). */
    readonly markRefunded: (workspaceId: string, id: string) => Effect.Effect<void>
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
        /** Only people with this tag (its id, or its name in any case). */
        readonly tag?: string | undefined
        readonly now: Date
      } & CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<Customer>>
  }
>() {}
