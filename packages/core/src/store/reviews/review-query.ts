import { Effect } from "effect"
import { BadListRequest } from "../../shared/errors.js"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"
import type { ReviewOrigin } from "./review.js"

/** What `StoreReviews.listPage` reads: the page and optional filters. */
export interface ReviewListQuery {
  readonly productId: string | undefined
  readonly origin: ReviewOrigin | undefined
  readonly page: PageRequest
  readonly created: CreatedRange
}

/** `GET /reviews`'s query (and the tool's) as the typed query; 400 on any wrong parameter. */
export const readReviewListQuery = (
  query: StoreListQuery & { readonly product?: string | undefined; readonly origin?: string | undefined }
) =>
  Effect.gen(function* () {
    const { page, range } = yield* readListQuery(query)
    const origin = query.origin?.trim()
    if (origin !== undefined && origin !== "" && origin !== "buyer" && origin !== "imported") {
      return yield* new BadListRequest({ message: "origin must be buyer or imported" })
    }
    const product = query.product?.trim()
    return {
      productId: product === "" ? undefined : product,
      origin: origin === "" ? undefined : origin,
      page,
      created: range
    } satisfies ReviewListQuery
  })
