import { Either, Encoding, Schema } from "effect"
import { invalid, type InvalidInput } from "./errors.js"

/** Where a newest-first keyset page starts: strictly older than this row. */
export interface PageKey {
  readonly createdAt: Date
  readonly id: string
}

/** One page of rows, and the key of the next page when there is one. */
export interface Page<A> {
  readonly rows: ReadonlyArray<A>
  readonly next: PageKey | undefined
}

/** Bounds on `created_at` of a paged list. */
export interface CreatedRange {
  readonly after?: Date | undefined
  readonly before?: Date | undefined
}

/** What a repository needs to read one newest-first page. */
export interface PageRequest {
  readonly limit: number
  readonly after: PageKey | undefined
}

/** The `limit` field every list tool takes. */
export const Limit = Schema.Int.pipe(Schema.between(1, 100)).annotations({
  description: "Page size, 1 to 100; default 25."
})

/** The `cursor` field every list tool takes. */
export const Cursor = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
  description: "nextCursor of the previous page."
})

/** Encodes a page key as an opaque cursor string. */
export const encodeCursor = (key: PageKey): string => Encoding.encodeBase64Url(`${key.createdAt.getTime()}.${key.id}`)

/** Decodes a cursor made by `encodeCursor`, or fails with `invalid` on the `cursor` field. */
export const decodeCursor = (cursor: string): Either.Either<PageKey, InvalidInput> => {
  const bad = invalid(
    "cursor",
    "cursor is not one this service issued; pass nextCursor from the previous page unchanged"
  )
  return Either.flatMap(
    Either.mapLeft(Encoding.decodeBase64UrlString(cursor), () => bad),
    (text) => {
      const dot = text.indexOf(".")
      const ms = Number(text.slice(0, dot))
      const id = text.slice(dot + 1)
      return dot > 0 && Number.isSafeInteger(ms) && id.length > 0
        ? Either.right({ createdAt: new Date(ms), id })
        : Either.left(bad)
    }
  )
}

/** Builds a page from `limit + 1` rows fetched newest first. */
export const pageOf = <A extends { readonly createdAt: Date; readonly id: string }>(
  rows: ReadonlyArray<A>,
  limit: number
): Page<A> => {
  const kept = rows.slice(0, limit)
  const last = kept[kept.length - 1]
  return { rows: kept, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : undefined }
}
