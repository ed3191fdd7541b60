import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { Page, PageRequest } from "../../shared/paging.js"
import type { ProductReview } from "./review.js"
import type { ReviewRow } from "./review-api.js"

/** A review as the store API answers it. */
export const reviewJson = (review: ProductReview): typeof ReviewRow.Type => ({
  id: review.id,
  product_id: review.productId,
  origin: review.origin,
  rating: review.rating,
  text: review.text,
  name: review.name,
  email: review.email,
  source: review.source,
  shown: review.approved,
  given_at: review.givenAt.toISOString(),
  created_at: review.createdAt.toISOString()
})

/** A page of reviews, as `GET /reviews` answers it. */
export const reviewPageJson = (page: Page<ProductReview>, request: PageRequest) =>
  pageAnswer(page, reviewJson, request, creationKey)
