/** The most reviews one import takes. */
export const REVIEW_IMPORT_MAX = 200
/** The longest review text kept. */
export const REVIEW_TEXT_MAX = 5_000
/** The longest name a review is given under. */
export const REVIEW_NAME_MAX = 200
/** How many approved reviews a product's page shows, newest first. */
export const REVIEWS_SHOWN = 5

/** Where a review came from: a buyer of the product, or the seller's import of testimonials given elsewhere. */
export type ReviewOrigin = "buyer" | "imported"

/**
 * A review of one product: a rating of 1 to 5 and words. Imported ones are testimonials the seller collected
 * elsewhere (a rating is optional on those); they show on the product page but are never a new event.
 */
export interface ProductReview {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly origin: ReviewOrigin
  readonly rating: number | null
  readonly text: string
  readonly name: string | null
  readonly email: string | null
  /** Where an imported testimonial was given (`Trustpilot`, `email`, …); null for a buyer's review. */
  readonly source: string | null
  /** Whether its giver lets the seller quote it (a buyer ticks it on the review page; an import is the seller's own). */
  readonly quotable: boolean
  /** Whether it shows on the product page: only a quotable one may, and the seller may hide any. */
  readonly approved: boolean
  /** When it was given (an imported one's own date when the seller gave it). */
  readonly givenAt: Date
  readonly createdAt: Date
}

/** A product's ratings: how many reviews carry one, and their average (null without any). */
export interface RatingSummary {
  readonly count: number
  readonly average: number | null
}
