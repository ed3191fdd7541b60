import { Effect } from "effect"
import { BadListRequest } from "../errors.js"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"
import type { CustomerListQuery } from "./customer-record.js"

/** `GET /customers`'s query text as the typed query: `has_access` first, then the page and window. */
export const readCustomerListQuery = (
  query: StoreListQuery & {
    readonly product?: string | undefined
    readonly has_access?: boolean | string | undefined
    readonly tag?: string | undefined
  }
) =>
  Effect.gen(function* () {
    const hasAccess = query.has_access === undefined ? undefined : String(query.has_access)
    if (hasAccess !== undefined && hasAccess !== "true" && hasAccess !== "false") {
      return yield* new BadListRequest({ message: "has_access must be true or false" })
    }
    const { page, range } = yield* readListQuery(query)
    const typed: CustomerListQuery = {
      page,
      created: range,
      productId: query.product,
      hasAccess: hasAccess === undefined ? undefined : hasAccess === "true",
      tag: query.tag
    }
    return typed
  })
