import { Effect } from "effect"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"

/** Which sequences a page of the store's sequences holds. */
export interface SequenceListQuery {
  readonly page: PageRequest
  readonly created: CreatedRange
}

/** `GET /email-sequences`' query text as the typed query. */
export const readSequenceListQuery = (query: StoreListQuery) =>
  Effect.map(readListQuery(query), ({ page, range }): SequenceListQuery => ({ page, created: range }))
