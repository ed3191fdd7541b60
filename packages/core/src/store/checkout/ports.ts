import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../../shared/paging.js"
import type { DiscountCode } from "./discount-code.js"
import type { HostedCheckout, ProcessorAccount } from "./hosted-checkout.js"
import type { HeldSubscription, Subscription } from "./subscription.js"

/** Discount codes of the service's checkout. */
export class DiscountCodesRepo extends Context.Tag("svc/store/DiscountCodesRepo")<
  DiscountCodesRepo,
  {
    /** Adds a code; `false` when the store already has one with the same key (any case). */
    readonly insert: (code: DiscountCode) => Effect.Effect<boolean>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<DiscountCode>>
    /** The store's code typed as `code`, in any case. */
    readonly findByCode: (workspaceId: string, code: string) => Effect.Effect<Option.Option<DiscountCode>>
    /** Codes newest first, optionally of one product and made within a window (`after` < created_at < `before`). */
    readonly listPage: (
      workspaceId: string,
      filter: {
        readonly productId?: string | undefined
        readonly after?: Date | undefined
        readonly before?: Date | undefined
      },
      page: PageRequest
    ) => Effect.Effect<Page<DiscountCode>>
    /** Turns a code off at `at` (kept for the sales that used it); the code as it is now, none when missing. */
    readonly disable: (workspaceId: string, id: string, at: Date) => Effect.Effect<Option.Option<DiscountCode>>
    /**
     * Counts one use at `at`, in one guarded statement: only while the code is on, unexpired and under `max_uses`.
     * `false` when it may not be used (another buyer took the last use). Runs in the caller's transaction, so a
     * checkout that fails later gives the use back.
     */
    readonly use: (workspaceId: string, id: string, at: Date) => Effect.Effect<boolean>
    /** Gives one use back (a live processor's payment page that expired unpaid); never below none. */
    readonly giveBack: (workspaceId: string, id: string) => Effect.Effect<void>
  }
>() {}

/** The memberships the service's checkout bills itself (see {@link Subscription}). */
export class SubscriptionsRepo extends Context.Tag("svc/store/SubscriptionsRepo")<
  SubscriptionsRepo,
  {
    readonly insert: (subscription: Subscription) => Effect.Effect<void>
    /**
     * Claims up to `limit` active subscriptions due at `claim.now`, held until `claim.leaseUntil` (a worker that dies
     * holding one leaves it to another after the lease).
     */
    readonly claimDue: (
      claim: { readonly now: Date; readonly claimToken: string; readonly leaseUntil: Date },
      limit: number
    ) => Effect.Effect<ReadonlyArray<HeldSubscription>>
    /** The held subscription, locked until the transaction ends; none when the claim was lost or it stopped. */
    readonly lockClaimed: (id: string, claimToken: string) => Effect.Effect<Option.Option<HeldSubscription>>
    /** Moves a held subscription on (renewed to `renewsAt`, or stopped) and lets go of it. */
    readonly move: (
      id: string,
      claimToken: string,
      change: {
        readonly state: Subscription["state"]
        readonly stopReason: string | null
        readonly renewsAt: Date
        readonly renewals: number
        readonly at: Date
      }
    ) => Effect.Effect<void>
  }
>() {}

/** Stores' live card processor accounts (see {@link ProcessorAccount}). */
export class ProcessorAccountsRepo extends Context.Tag("svc/store/ProcessorAccountsRepo")<
  ProcessorAccountsRepo,
  {
    readonly find: (workspaceId: string) => Effect.Effect<Option.Option<ProcessorAccount>>
    /** The store an account connected through the platform (Stripe Connect) belongs to. */
    readonly findConnected: (accountId: string) => Effect.Effect<Option.Option<ProcessorAccount>>
    /** Adds or replaces the store's account. */
    readonly save: (account: ProcessorAccount) => Effect.Effect<void>
    /** `false` when the store had none. */
    readonly remove: (workspaceId: string) => Effect.Effect<boolean>
  }
>() {}

/** The trips to a live processor's payment page (see {@link HostedCheckout}). */
export class HostedCheckoutsRepo extends Context.Tag("svc/store/HostedCheckoutsRepo")<
  HostedCheckoutsRepo,
  {
    /** Adds one; `false` when the attempt already has one. */
    readonly insert: (checkout: HostedCheckout) => Effect.Effect<boolean>
    readonly findByAttempt: (workspaceId: string, attempt: string) => Effect.Effect<Option.Option<HostedCheckout>>
    /** The checkout, locked until the transaction ends. */
    readonly lockByAttempt: (workspaceId: string, attempt: string) => Effect.Effect<Option.Option<HostedCheckout>>
    readonly lockBySession: (workspaceId: string, sessionId: string) => Effect.Effect<Option.Option<HostedCheckout>>
    readonly findBySubscription: (
      workspaceId: string,
      subscriptionId: string
    ) => Effect.Effect<Option.Option<HostedCheckout>>
    readonly findByPayment: (workspaceId: string, paymentId: string) => Effect.Effect<Option.Option<HostedCheckout>>
    /** Writes the checkout's changing parts (state, the page, the subscription and payment, the sale). */
    readonly update: (checkout: HostedCheckout) => Effect.Effect<void>
  }
>() {}
