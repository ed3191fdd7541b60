import { Effect, Either } from "effect"
import { type CreatedRange, decodeCursor, encodeCursor, type Page, type PageKey, type PageRequest } from "./paging.js"
import { startsWithImpossibleDay } from "./time.js"
import { BadListRequest } from "./errors.js"

/**
 * The common query of the store API's paged lists (the webhooks group's too): as the contract decoded it, or as text
 * from a face that passes it on unread (GraphQL's arguments).
 */
export interface StoreListQuery {
  readonly limit?: number | string | undefined
  readonly starting_after?: string | undefined
  readonly created_after?: string | number | undefined
  readonly created_before?: string | number | undefined
}

/** Reads "ISO date or milliseconds" (e.g. `2026-11-21`, `2026-11-21T09:30:00Z`, `1795000000000`). */
export const parseInstant = (text: string): Date | undefined => {
  const trimmed = text.trim()
  if (startsWithImpossibleDay(trimmed)) return undefined
  const date = /^\d{1,16}$/.test(trimmed) ? new Date(Number(trimmed)) : new Date(trimmed)
  return trimmed.length > 0 && !Number.isNaN(date.getTime()) ? date : undefined
}

/**
 * Where a page starts: after the row `cursor` names (a `next_cursor` of this service), or at the newest row. A
 * cursor this service did not issue is refused naming the store API's parameter, as every face has answered it.
 */
export const readCursor = (cursor: string | undefined): Effect.Effect<PageKey | undefined, BadListRequest> =>
  cursor === undefined
    ? Effect.succeed(undefined)
    : Either.match(decodeCursor(cursor), {
        onLeft: () =>
          Effect.fail(
            new BadListRequest({ message: "starting_after must be the next_cursor of the previous page, unchanged" })
          ),
        onRight: Effect.succeed
      })

/** A bound of a list's window of creation times, read from `text` ("ISO date or milliseconds"). */
const readBound = (
  name: "created_after" | "created_before",
  text: string | number | undefined
): Effect.Effect<Date | undefined, BadListRequest> => {
  if (text === undefined) return Effect.succeed(undefined)
  const date = parseInstant(String(text))
  return date === undefined
    ? Effect.fail(new BadListRequest({ message: `${name} must be an ISO date or milliseconds since 1970` }))
    : Effect.succeed(date)
}

/** The page request and date range of a list query; 400 on any wrong parameter. */
export const readListQuery = (query: StoreListQuery) =>
  Effect.gen(function* () {
    const limit = query.limit === undefined ? 25 : Number(query.limit)
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 100) || String(query.limit ?? "1").trim() === "") {
      return yield* new BadListRequest({ message: "limit must be a whole number from 1 to 100 (default 25)" })
    }
    const after = yield* readCursor(query.starting_after)
    const range: CreatedRange = {
      after: yield* readBound("created_after", query.created_after),
      before: yield* readBound("created_before", query.created_before)
    }
    const page: PageRequest = { limit, after }
    return { page, range }
  })

/**
 * A face's paged list: the typed query read from the face's text, the service's page for it, and that page encoded
 * with the request it answers (whose cursor an empty page gives back).
 */
export const pagedAnswer = <Q extends { readonly page: PageRequest }, A, J, E1, E2, R1, R2>(
  query: Effect.Effect<Q, E1, R1>,
  list: (query: Q) => Effect.Effect<Page<A>, E2, R2>,
  encode: (page: Page<A>, request: PageRequest) => J
): Effect.Effect<J, E1 | E2, R1 | R2> =>
  Effect.flatMap(query, (typed) => Effect.map(list(typed), (page) => encode(page, typed.page)))

/** A store tool's `nextCursor`: the cursor of the next page, when there is one. */
export const nextCursorOf = <A>(page: Page<A>): { readonly nextCursor?: string } =>
  page.next === undefined ? {} : { nextCursor: encodeCursor(page.next) }

/** A store tool's paging, already typed by its schema (`limit` 1–100), as a list's page and window. */
export interface ToolPaging {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  readonly createdAfter?: string | undefined
  readonly createdBefore?: string | undefined
}

/**
 * A store tool's page and window, read without a round trip through query text; a cursor or time it cannot read
 * fails as the store API's list does, naming the API's parameter.
 */
export const readToolPaging = (input: ToolPaging) =>
  Effect.gen(function* () {
    const page: PageRequest = { limit: input.limit ?? 25, after: yield* readCursor(input.cursor) }
    const created: CreatedRange = {
      after: yield* readBound("created_after", input.createdAfter),
      before: yield* readBound("created_before", input.createdBefore)
    }
    return { page, created }
  })

/** The page key of a row keyed by its creation: `(created_at, id)`, the order every store list reads in. */
export const creationKey = (row: { readonly createdAt: Date; readonly id: string }): PageKey => ({
  createdAt: row.createdAt,
  id: row.id
})

/**
 * Where a list starts: after a row newer than any can be (the last millisecond of year 9999), so it reads as
 * the first page. The cursor of an empty first page, which has no row to point after.
 */
const LIST_START: PageKey = { createdAt: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)), id: "~" }

/**
 * The answer of a paged list: `{ ok, data, has_more, next_cursor }`. `next_cursor` is always a string (the
 * spec types it so): the key of the last row, on the last page too, so a poller can keep it and continue
 * from there later; on an empty page the cursor asked with, or the start of the list when none was given.
 */
export const pageAnswer = <A, B>(
  page: Page<A>,
  toJson: (row: A) => B,
  request: PageRequest,
  keyOf: (row: A) => PageKey
) => {
  const last = page.rows[page.rows.length - 1]
  const key = page.next ?? (last === undefined ? (request.after ?? LIST_START) : keyOf(last))
  return {
    ok: true as const,
    data: page.rows.map(toJson),
    has_more: page.next !== undefined,
    next_cursor: encodeCursor(key)
  }
}
