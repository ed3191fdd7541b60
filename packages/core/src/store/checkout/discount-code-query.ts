import { Effect } from "effect"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"

/** What `StoreDiscountCodes.listPage` reads: the page, the creation window, and optionally one product. */
export interface DiscountCodeListQuery {
  readonly productId: string | undefined
  readonly page: PageRequest
  readonly created: CreatedRange
}

/** `GET /discount-codes`'s query text as the typed query; 400 on any wrong paging parameter. */
export const readDiscountCodeListQuery = (query: StoreListQuery & { readonly product?: string | undefined }) =>
  Effect.map(readListQuery(query), ({ page, range }): DiscountCodeListQuery => {
    const product = query.product?.trim()
    return {
      productId: product === "" ? undefined : product,
      page,
      created: range
    }
  })
