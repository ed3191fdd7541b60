import { Effect } from "effect"
import { BadListRequest } from "../errors.js"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"
import type { ProductStatus } from "./product.js"

const isStatus = (text: string): text is ProductStatus => text === "draft" || text === "live" || text === "off"

/** `GET /products`'s query text as the catalog's typed query: the status first, then the page and window. */
export const readProductListQuery = (query: StoreListQuery & { readonly status?: string | undefined }) =>
  Effect.gen(function* () {
    const status = query.status
    if (status !== undefined && !isStatus(status)) {
      return yield* new BadListRequest({ message: "status must be draft, live or off" })
    }
    const { page, range } = yield* readListQuery(query)
    return { status, page, created: range }
  })
