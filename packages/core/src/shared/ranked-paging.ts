import { Either, Encoding } from "effect"
import { invalid, type InvalidInput } from "./errors.js"
import type { PageKey } from "./paging.js"

/** Where a ranked page starts: strictly after this row in (rank desc, id desc) order. */
export interface RankKey {
  readonly rank: number
  readonly id: string
}

/** One page of a ranked search, and the key of the next page when there is one. */
export interface RankedPage<A> {
  readonly rows: ReadonlyArray<A>
  readonly next: RankKey | undefined
}

/** Where a search page starts: after a ranked row (a query was given), or after a newer row (listing). */
export type SearchPosition =
  | { readonly _tag: "Ranked"; readonly key: RankKey }
  | { readonly _tag: "Recent"; readonly key: PageKey }

// A cursor names the search it belongs to (a hash of its query and filters), so a cursor from another search
// is refused instead of silently skipping rows. FNV-1a is enough: this guards mistakes, not attacks.
const fingerprint = (search: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < search.length; i++) {
    hash ^= search.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(36)
}

/**
 * Encodes a search cursor. Ranked cursors are keyset cursors on (rank, id): ts_rank of a row does not change
 * while the row does not, so a page never repeats or skips a row that was there before, even as items are added.
 */
export const encodeSearchCursor = (position: SearchPosition, search: string): string => {
  const body =
    position._tag === "Ranked"
      ? `r.${position.key.rank}.${position.key.id}`
      : `t.${position.key.createdAt.getTime()}.${position.key.id}`
  return Encoding.encodeBase64Url(`${fingerprint(search)}.${body}`)
}

/** Decodes a cursor made by `encodeSearchCursor` for the same search, or fails with `invalid` on `cursor`. */
export const decodeSearchCursor = (cursor: string, search: string): Either.Either<SearchPosition, InvalidInput> => {
  const bad = invalid(
    "cursor",
    "cursor is not one this search issued; pass nextCursor from the previous page with the same query and filters"
  )
  const text = Either.getOrElse(Encoding.decodeBase64UrlString(cursor), () => "")
  const match = /^([0-9a-z]+)\.([rt])\.([0-9.e+-]+?)\.([A-Za-z0-9_]+)$/.exec(text)
  if (!match || match[1] !== fingerprint(search)) return Either.left(bad)
  const [, , kind, value, id] = match
  const number = Number(value)
  if (!Number.isFinite(number) || id === undefined) return Either.left(bad)
  if (kind === "r") return Either.right({ _tag: "Ranked", key: { rank: number, id } })
  return Number.isSafeInteger(number)
    ? Either.right({ _tag: "Recent", key: { createdAt: new Date(number), id } })
    : Either.left(bad)
}

/** Builds a ranked page from `limit + 1` rows fetched best first. */
export const rankedPageOf = <A extends { readonly rank: number; readonly id: string }>(
  rows: ReadonlyArray<A>,
  limit: number
): RankedPage<A> => {
  const kept = rows.slice(0, limit)
  const last = kept[kept.length - 1]
  return { rows: kept, next: rows.length > limit && last ? { rank: last.rank, id: last.id } : undefined }
}
