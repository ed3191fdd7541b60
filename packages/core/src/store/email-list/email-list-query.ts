import { Effect, Schema } from "effect"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"
import { BadListRequest } from "../errors.js"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"
import { ContactStatus } from "./email-contact.js"

/** Which contacts a page of the email list holds. */
export interface ContactListQuery {
  readonly status?: ContactStatus | undefined
  /** A tag's id, or its name in any case. */
  readonly tag?: string | undefined
  readonly page: PageRequest
  readonly created: CreatedRange
}

/** Which tags a page of the store's tags holds. */
export interface TagListQuery {
  readonly page: PageRequest
  readonly created: CreatedRange
}

const isStatus = Schema.is(ContactStatus)

/** `GET /email-contacts`' query text as the typed query: the status first, then the page and window. */
export const readContactListQuery = (
  query: StoreListQuery & { readonly status?: string | undefined; readonly tag?: string | undefined }
) =>
  Effect.gen(function* () {
    const status = query.status
    if (status !== undefined && !isStatus(status)) {
      return yield* new BadListRequest({ message: "status must be subscribed, unsubscribed, bounced or complained" })
    }
    const { page, range } = yield* readListQuery(query)
    const listQuery: ContactListQuery = { status, tag: query.tag?.trim() || undefined, page, created: range }
    return listQuery
  })

/** `GET /email-tags`' query text as the typed query. */
export const readTagListQuery = (query: StoreListQuery) =>
  Effect.map(readListQuery(query), ({ page, range }): TagListQuery => ({ page, created: range }))
