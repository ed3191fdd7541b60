import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../../shared/paging.js"
import type { Affiliate, AffiliateProgram, AffiliateStatus, Commission } from "./affiliate.js"

/** What a period's commissions of one affiliate add up to. */
export interface PayoutTotals {
  readonly sales: number
  readonly amountCents: number
  readonly commissionCents: number
  /** Commissions of refunded sales in the period: taken back, not owed. */
  readonly reversedCents: number
  /** Commissions of test sales in the period (not refunded): counted apart, never owed. */
  readonly testCommissionCents: number
}

/** The store's affiliate programs, affiliates and commissions. */
export class AffiliatesRepo extends Context.Tag("svc/store/AffiliatesRepo")<
  AffiliatesRepo,
  {
    readonly findProgram: (workspaceId: string, productId: string) => Effect.Effect<Option.Option<AffiliateProgram>>
    readonly saveProgram: (program: AffiliateProgram) => Effect.Effect<void>
    /** Adds an affiliate; `false` when the code is taken in the store or the email already has the product's. */
    readonly insertAffiliate: (affiliate: Affiliate) => Effect.Effect<boolean>
    readonly findAffiliate: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Affiliate>>
    readonly findByCode: (workspaceId: string, code: string) => Effect.Effect<Option.Option<Affiliate>>
    readonly findByEmail: (
      workspaceId: string,
      productId: string,
      email: string
    ) => Effect.Effect<Option.Option<Affiliate>>
    /** Sets the status, and when it was decided. */
    readonly setStatus: (workspaceId: string, id: string, status: AffiliateStatus, at: Date) => Effect.Effect<void>
    /** Affiliates newest first, optionally of one product and one status, created within a window. */
    readonly listAffiliates: (
      workspaceId: string,
      filter: {
        readonly productId?: string | undefined
        readonly status?: AffiliateStatus | undefined
        readonly after?: Date | undefined
        readonly before?: Date | undefined
      },
      page: PageRequest
    ) => Effect.Effect<Page<Affiliate>>
    /** Adds a commission once per `key` (a sale, a renewal); `false` when the key has one already. */
    readonly insertCommission: (commission: Commission, key: string) => Effect.Effect<boolean>
    /** The first commission of a membership (by its subscription), not reversed. */
    readonly firstOfSubscription: (
      workspaceId: string,
      productId: string,
      subscriptionId: string
    ) => Effect.Effect<Option.Option<Commission>>
    /** Marks every commission of a sale reversed; answers how many it reversed. */
    readonly reverseSale: (workspaceId: string, saleId: string, at: Date) => Effect.Effect<number>
    /** An affiliate's commissions made within [from, to), and those of them reversed. */
    readonly payoutTotals: (
      workspaceId: string,
      affiliateId: string,
      from: Date,
      to: Date
    ) => Effect.Effect<PayoutTotals>
  }
>() {}
