import { Context, type Effect } from "effect"
import type { ProductReview, RatingSummary } from "./review.js"

/** The store's product reviews and imported testimonials. */
export class ReviewsRepo extends Context.Tag("svc/store/ReviewsRepo")<
  ReviewsRepo,
  {
    /** Adds reviews; one the product already has (the same text by the same name) is left out. Answers those added. */
    readonly insertNew: (reviews: ReadonlyArray<ProductReview>) => Effect.Effect<ReadonlyArray<ProductReview>>
    /** A product's approved reviews, newest given first, at most `limit`. */
    readonly shown: (
      workspaceId: string,
      productId: string,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ProductReview>>
    /** The ratings of a product's approved reviews. */
    readonly rating: (workspaceId: string, productId: string) => Effect.Effect<RatingSummary>
  }
>() {}
