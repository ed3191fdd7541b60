import { Effect } from "effect"
import { BadListRequest } from "../../shared/errors.js"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"
import type { AffiliateStatus } from "./affiliate.js"

const STATUSES: ReadonlyArray<AffiliateStatus> = ["pending", "active", "declined", "removed"]

/** What `StoreAffiliates.list` reads: the page, the window of joining times, and optional filters. */
export interface AffiliateListQuery {
  readonly productId: string | undefined
  readonly status: AffiliateStatus | undefined
  readonly page: PageRequest
  readonly created: CreatedRange
}

/** `GET /affiliates`'s query text as the typed query; 400 on any wrong parameter. */
export const readAffiliateListQuery = (
  query: StoreListQuery & { readonly product?: string | undefined; readonly status?: string | undefined }
) =>
  Effect.gen(function* () {
    const { page, range } = yield* readListQuery(query)
    const status = query.status?.trim() || undefined
    if (status !== undefined && !STATUSES.includes(status as AffiliateStatus)) {
      return yield* new BadListRequest({ message: "status must be pending, active, declined or removed" })
    }
    return {
      productId: query.product?.trim() || undefined,
      status: status as AffiliateStatus | undefined,
      page,
      created: range
    } satisfies AffiliateListQuery
  })
