/** How long after a buyer's first sale of a product they are asked to review it. */
export const REVIEW_REQUEST_DELAY_DAYS = 7

/** Where a review request stands: waiting for its day, emailed, answered with a review, or dropped unsent. */
export type ReviewRequestState = "waiting" | "sent" | "answered" | "dropped"

/**
 * The follow-up that asks one buyer to review one product: written at their first sale of it, emailed when due
 * (`REVIEW_REQUEST_DELAY_DAYS` later) with a link to the review page that holds `key`, and answered at most once.
 */
export interface ReviewRequest {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly email: string
  readonly name: string | null
  /** The secret of the review page's link. */
  readonly key: string
  readonly state: ReviewRequestState
  /** When it is emailed. */
  readonly dueAt: Date
  /** Why it was dropped unsent (`no_access`, `product_deleted`); null otherwise. */
  readonly dropReason: string | null
  /** The review it was answered with. */
  readonly reviewId: string | null
  readonly createdAt: Date
}

/** A request the review worker holds: claimed with `claimToken` until its lease runs out. */
export interface HeldReviewRequest extends ReviewRequest {
  readonly claimToken: string
}

/** The buyer's review page: a rating and words about the product, once. */
export const reviewUrlOf = (publicBase: string, request: Pick<ReviewRequest, "id" | "key">) =>
  `${publicBase}/r/${encodeURIComponent(request.id)}?k=${encodeURIComponent(request.key)}`
