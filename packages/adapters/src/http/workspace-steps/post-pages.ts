import type { Page, PageKey } from "@svc/core/shared"
import { Effect } from "effect"

const newerFirst = (a: PageKey, b: PageKey): number =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

/**
 * One page of a list kept by any of several filters, from one page per filter read after the same cursor: the
 * newest `limit` rows of them all (every list reads newest first by `(createdAt, id)`, so the union's first `limit`
 * rows are among each list's first `limit`). Another page follows when rows were left over or a list had more.
 */
export const pageOfAny = <A extends PageKey, E, R>(
  limit: number,
  pages: ReadonlyArray<Effect.Effect<Page<A>, E, R>>
): Effect.Effect<Page<A>, E, R> =>
  Effect.map(Effect.all(pages), (read) => {
    if (read.length === 1 && read[0] !== undefined) return read[0]
    const rows = read.flatMap((page) => page.rows).sort(newerFirst)
    const kept = rows.slice(0, limit)
    const last = kept[kept.length - 1]
    const more = rows.length > limit || read.some((page) => page.next !== undefined)
    return { rows: kept, next: more && last !== undefined ? { createdAt: last.createdAt, id: last.id } : undefined }
  })
