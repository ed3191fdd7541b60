import { Effect, Either } from "effect"
import { decodeCursor, encodeCursor, type Page, type PageKey, type PageRequest } from "../shared/paging.js"
import { startsWithImpossibleDay } from "../shared/time.js"
import { BadListRequest } from "./errors.js"
import type { CreatedRange } from "../shared/paging.js"

/** The common query of the store's paged lists, as text from the URL. */
export interface StoreListQuery {
  readonly limit?: string | undefined
  readonly starting_after?: string | undefined
  readonly created_after?: string | undefined
  readonly created_before?: string | undefined
}

/** Reads "ISO date or milliseconds" (e.g. `2026-11-21`, `2026-11-21T09:30:00Z`, `1795000000000`). */
export const parseInstant = (text: string): Date | undefined => {
  const trimmed = text.trim()
  if (startsWithImpossibleDay(trimmed)) return undefined
  const date = /^\d{1,16}$/.test(trimmed) ? new Date(Number(trimmed)) : new Date(trimmed)
  return trimmed.length > 0 && !Number.isNaN(date.getTime()) ? date : undefined
}

/** The page request and date range of a list query; 400 on any wrong parameter. */
export const readListQuery = (query: StoreListQuery) =>
  Effect.gen(function* () {
    const limit = query.limit === undefined ? 25 : Number(query.limit)
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 100) || (query.limit ?? "1").trim() === "") {
      return yield* new BadListRequest({ message: "limit must be a whole number from 1 to 100 (default 25)" })
    }
    const after =
      query.starting_after === undefined
        ? undefined
        : yield* Either.match(decodeCursor(query.starting_after), {
            onLeft: () =>
              Effect.fail(
                new BadListRequest({
                  message: "starting_after must be the next_cursor of the previous page, unchanged"
                })
              ),
            onRight: Effect.succeed
          })
    const instant = (name: "created_after" | "created_before") => {
      const text = query[name]
      if (text === undefined) return Effect.succeed(undefined)
      const date = parseInstant(text)
      return date === undefined
        ? Effect.fail(new BadListRequest({ message: `${name} must be an ISO date or milliseconds since 1970` }))
        : Effect.succeed(date)
    }
    const range: CreatedRange = { after: yield* instant("created_after"), before: yield* instant("created_before") }
    const page: PageRequest = { limit, after }
    return { page, range }
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
