import { Context, type Effect, type Option } from "effect"
import type { EventRecord } from "../events/schema.js"
import type { Page, PageRequest } from "../shared/paging.js"
import type { Customer, ProductAccess as Access } from "./access.js"
import type { Cohort, CohortMember, CohortWithMembers } from "./cohort.js"
import type { ContactStatus, EmailContact } from "./email-contact.js"
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
        /** Only people with this tag (its id, or its name in any case). */
        readonly tag?: string | undefined
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
  /** Only events whose `data.tag_id` is this tag id, or whose `data.tag_name` is this name in any case. */
  readonly tag?: string | undefined
  /** Only events whose `data.quiz_id` is this form. */
  readonly quizId?: string | undefined
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

/** Places taken on a product with a quantity limit, and the people waiting for one. */
export class WaitlistRepo extends Context.Tag("svc/store/WaitlistRepo")<
  WaitlistRepo,
  {
    /** Locks the product row until the transaction ends, so two sales never take the last place twice. */
    readonly lockProduct: (workspaceId: string, productId: string) => Effect.Effect<void>
    /** How many people have access to the product at `now` (active, or cancelled with time left). */
    readonly holders: (workspaceId: string, productId: string, now: Date) => Effect.Effect<number>
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

/** A store tag (shared by the store's people, keyed by email). */
export interface StoreTag {
  readonly id: string
  readonly name: string
}

/** Tags on the store's people. */
export class StoreTagsRepo extends Context.Tag("svc/store/StoreTagsRepo")<
  StoreTagsRepo,
  {
    /** The tags with these names, creating the missing ones with the ids given (names match in any case). */
    readonly ensure: (
      workspaceId: string,
      tags: ReadonlyArray<StoreTag>,
      at: Date
    ) => Effect.Effect<ReadonlyArray<StoreTag>>
    /** Puts the tags on the person; answers the ids of those the person did not have yet. */
    readonly addToPerson: (
      workspaceId: string,
      email: string,
      tagIds: ReadonlyArray<string>,
      at: Date
    ) => Effect.Effect<ReadonlyArray<string>>
    /** Takes the tags off the person; answers the ids of those the person had. */
    readonly removeFromPerson: (
      workspaceId: string,
      email: string,
      tagIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<string>>
    /** The store's tags named by these ids or names (names match in any case); unknown ones are left out. */
    readonly resolve: (workspaceId: string, refs: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StoreTag>>
    /** The tags of each person, by email (tag names in alphabetical order). */
    readonly tagsOf: (
      workspaceId: string,
      emails: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<StoreTag>>>
    /** The store's tags, newest first, each with how many people on the email list carry it. */
    readonly listPage: (
      workspaceId: string,
      range: CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<StoreTag & { readonly createdAt: Date; readonly contacts: number }>>
  }
>() {}

/** The people on the store's email list. */
export class EmailContactsRepo extends Context.Tag("svc/store/EmailContactsRepo")<
  EmailContactsRepo,
  {
    readonly find: (workspaceId: string, email: string) => Effect.Effect<Option.Option<EmailContact>>
    /** The contact, locked until the transaction ends, so two changes to one person never interleave. */
    readonly lock: (workspaceId: string, email: string) => Effect.Effect<Option.Option<EmailContact>>
    /** Adds the person unless already on the list (a unique key decides); `false` when they were. */
    readonly insert: (contact: EmailContact) => Effect.Effect<boolean>
    /** Saves the name, status and times of a contact. */
    readonly update: (contact: EmailContact) => Effect.Effect<void>
    /** Takes the person off the list, with their tags unless they are also a customer (who keeps them). */
    readonly remove: (workspaceId: string, email: string) => Effect.Effect<void>
    readonly listPage: (
      workspaceId: string,
      filter: {
        readonly status?: ContactStatus | undefined
        /** Only people with this tag (its id, or its name in any case). */
        readonly tag?: string | undefined
      } & CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<EmailContact>>
  }
>() {}

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
