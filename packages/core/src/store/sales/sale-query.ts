import { Effect } from "effect"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"
import { BadListRequest } from "../errors.js"
import { readListQuery, readToolPaging, type StoreListQuery } from "../../shared/list-query.js"
import type { SaleRowStatus } from "./sale.js"

/** What `StoreSales.listPage` reads: the page, the creation window, and the filters. */
export interface SaleListQuery {
  readonly productId: string | undefined
  /** Only sales to this buyer: trimmed, in lower case. */
  readonly email: string | undefined
  readonly status: SaleRowStatus | undefined
  readonly page: PageRequest
  readonly created: CreatedRange
}

const isSaleRowStatus = (text: string): text is SaleRowStatus =>
  text === "paid" || text === "refunded" || text === "free"

/** `GET /sales`'s query text as the typed query: the status first, then the page and window (400 on each). */
export const readSaleListQuery = (
  query: StoreListQuery & {
    readonly product?: string | undefined
    readonly email?: string | undefined
    readonly status?: string | undefined
  }
) =>
  Effect.gen(function* () {
    const status = query.status
    if (status !== undefined && !isSaleRowStatus(status)) {
      return yield* new BadListRequest({ message: "status must be paid, refunded or free" })
    }
    const { page, range } = yield* readListQuery(query)
    const typed: SaleListQuery = {
      productId: query.product,
      email: query.email?.trim().toLowerCase(),
      status,
      page,
      created: range
    }
    return typed
  })

/**
 * A sales tool's typed list input as the typed query. Its limit and status are already checked by the tool's
 * schema; a cursor or time it cannot read fails as the store API's list does, naming the API's parameter.
 */
export const saleListQueryOf = (input: {
  readonly productId?: string | undefined
  readonly email?: string | undefined
  readonly status?: SaleRowStatus | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  readonly createdAfter?: string | undefined
  readonly createdBefore?: string | undefined
}) =>
  Effect.gen(function* () {
    const { page, created } = yield* readToolPaging(input)
    const query: SaleListQuery = {
      productId: input.productId,
      email: input.email?.trim().toLowerCase(),
      status: input.status,
      page,
      created
    }
    return query
  })
