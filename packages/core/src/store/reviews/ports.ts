import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../../shared/paging.js"
import type { ProductReview, RatingSummary, ReviewOrigin } from "./review.js"
import type { HeldReviewRequest, ReviewRequest } from "./review-request.js"

/** The store's product reviews and imported testimonials. */
export class ReviewsRepo extends Context.Tag("svc/store/ReviewsRepo")<
  ReviewsRepo,
  {
    /**
     * Adds reviews; an imported one the product already has (the same text by the same name) is left out. Answers
     * those added.
     */
    readonly insertNew: (reviews: ReadonlyArray<ProductReview>) => Effect.Effect<ReadonlyArray<ProductReview>>
    /** A product's approved reviews, newest given first, at most `limit`. */
    readonly shown: (
      workspaceId: string,
      productId: string,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ProductReview>>
    /** The ratings of a product: every buyer's, and the approved imported ones'. */
    readonly rating: (workspaceId: string, productId: string) => Effect.Effect<RatingSummary>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<ProductReview>>
    /** Shows a review on its product's page, or hides it. */
    readonly setApproved: (workspaceId: string, id: string, approved: boolean) => Effect.Effect<void>
    /** Reviews newest recorded first, optionally of one product, one origin, and recorded within a window. */
    readonly listPage: (
      workspaceId: string,
      filter: {
        readonly productId?: string | undefined
        readonly origin?: ReviewOrigin | undefined
        readonly after?: Date | undefined
        readonly before?: Date | undefined
      },
      page: PageRequest
    ) => Effect.Effect<Page<ProductReview>>
  }
>() {}

/** What became of a held review request: emailed, or dropped unsent and why. */
export type ReviewRequestOutcome = { readonly state: "sent" } | { readonly state: "dropped"; readonly reason: string }

/** The follow-ups asking buyers for reviews: one per buyer and product. */
export class ReviewRequestsRepo extends Context.Tag("svc/store/ReviewRequestsRepo")<
  ReviewRequestsRepo,
  {
    /** Adds a request; `false` when the buyer already has one for the product (only their first sale asks). */
    readonly insertOnce: (request: ReviewRequest) => Effect.Effect<boolean>
    /** Claims up to `limit` waiting requests due by `claim.now`, each held until `claim.leaseUntil`. */
    readonly claimDue: (
      claim: { readonly now: Date; readonly claimToken: string; readonly leaseUntil: Date },
      limit: number
    ) => Effect.Effect<ReadonlyArray<HeldReviewRequest>>
    /** A request still held with `claimToken` and waiting, locked for the caller's transaction. */
    readonly lockClaimed: (id: string, claimToken: string) => Effect.Effect<Option.Option<HeldReviewRequest>>
    /** Settles a held request: sent, or dropped with its reason. */
    readonly settle: (id: string, claimToken: string, outcome: ReviewRequestOutcome, at: Date) => Effect.Effect<void>
    /** By id alone, for the review page (which checks the key); locked when `lock` is true. */
    readonly findById: (id: string, lock: boolean) => Effect.Effect<Option.Option<ReviewRequest>>
    /** Marks a request answered with `reviewId`. */
    readonly markAnswered: (id: string, reviewId: string, at: Date) => Effect.Effect<void>
  }
>() {}
