import { Effect } from "effect"
import { BadListRequest } from "../../shared/errors.js"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"
import type { PaidQuestionStatus } from "./paid-question.js"

/** What `StorePaidQuestions.listPage` reads: the page, the window of asking times, and optional filters. */
export interface PaidQuestionListQuery {
  readonly productId: string | undefined
  readonly status: PaidQuestionStatus | undefined
  readonly page: PageRequest
  readonly created: CreatedRange
}

/** `GET /paid-questions`'s query text as the typed query; 400 on any wrong parameter. */
export const readPaidQuestionListQuery = (
  query: StoreListQuery & { readonly product?: string | undefined; readonly status?: string | undefined }
) =>
  Effect.gen(function* () {
    const { page, range } = yield* readListQuery(query)
    const status = query.status?.trim()
    if (status !== undefined && status !== "" && status !== "open" && status !== "answered") {
      return yield* new BadListRequest({ message: "status must be open or answered" })
    }
    const product = query.product?.trim()
    return {
      productId: product === "" ? undefined : product,
      status: status === "" ? undefined : status,
      page,
      created: range
    } satisfies PaidQuestionListQuery
  })
