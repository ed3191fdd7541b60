import { Effect, Either } from "effect"
import {
  decodeSearchCursor,
  encodeSearchCursor,
  type RankedPage,
  type RankKey,
  type SearchPosition
} from "../shared/ranked-paging.js"
import { invalid, NotFound } from "../shared/errors.js"
import type { Page, PageKey } from "../shared/paging.js"
import { Transactor } from "../shared/ports.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { SearchRepo } from "../items/search-ports.js"
import { type ClipFilter, HighlightsRepo } from "./ports.js"
import { makeClipWriter } from "./writer.js"
import { withSpan } from "../shared/spans.js"

/** A search or listing of highlights or captures as the tools take it. */
export interface ClipSearchInput extends ClipFilter {
  /** websearch syntax; empty or left out lists newest first. */
  readonly query?: string | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/** A page of clips and the cursor of the next one. */
export interface ClipPage<A> {
  readonly rows: ReadonlyArray<A>
  readonly nextCursor: string | undefined
}

/** Highlights (passages saved from items) and captures (text saved with links, posts and ads). */
export class Highlights extends Effect.Service<Highlights>()("svc/highlights/Highlights", {
  effect: Effect.gen(function* () {
    const repo = yield* HighlightsRepo
    const search = yield* SearchRepo
    const tx = yield* Transactor
    const writer = yield* makeClipWriter

    const itemMissing = (itemId: string) =>
      new NotFound({
        message: `no item ${itemId} in this workspace (or it is in the trash); svc_list_workspace_items lists them`
      })

    /**
     * Saves a passage of an item (and what the person thought of it); saving the same passage of the same item
     * again answers the existing highlight. The internal write path behind `highlights` on saved links.
     */
    const addHighlight = (workspaceId: string, itemId: string, text: string, note?: string) =>
      Effect.gen(function* () {
        const passage = text.trim()
        if (passage.length === 0) return yield* invalid("text", "a highlight needs some text")
        if (passage.length > LIBRARY_LIMITS.highlightCharacters) {
          return yield* invalid("text", `a highlight holds at most ${LIBRARY_LIMITS.highlightCharacters} characters`)
        }
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            if (!(yield* repo.itemExists(workspaceId, itemId))) return yield* itemMissing(itemId)
            return yield* writer.addHighlight(workspaceId, itemId, passage, note?.trim() ?? "")
          })
        )
      }).pipe(withSpan("Highlights.addHighlight"))

    // Shared shape of both searches: check the query and item, read the cursor, then search or list.
    const pageThrough = <A extends { readonly id: string; readonly rank: number; readonly createdAt: Date }>(
      workspaceId: string,
      input: ClipSearchInput,
      ranked: (
        query: string,
        filter: ClipFilter,
        page: { readonly limit: number; readonly after: RankKey | undefined }
      ) => Effect.Effect<RankedPage<A>>,
      recent: (
        filter: ClipFilter,
        page: { readonly limit: number; readonly after: PageKey | undefined }
      ) => Effect.Effect<Page<A>>
    ) =>
      Effect.gen(function* () {
        const query = input.query?.trim() ?? ""
        const filter: ClipFilter = {
          itemId: input.itemId,
          createdAfter: input.createdAfter,
          createdBefore: input.createdBefore
        }
        if (filter.createdAfter && filter.createdBefore && filter.createdAfter >= filter.createdBefore) {
          return yield* invalid("createdBefore", "createdBefore must be later than createdAfter")
        }
        if (query.length > 0 && !(yield* search.hasTerms(query))) {
          return yield* invalid(
            "query",
            "the query has no searchable words (only common words or punctuation); use more specific words, or leave query out to list newest first"
          )
        }
        if (filter.itemId !== undefined && !(yield* repo.itemExists(workspaceId, filter.itemId))) {
          return yield* itemMissing(filter.itemId)
        }
        const key = JSON.stringify([query, filter.itemId, filter.createdAfter, filter.createdBefore])
        const position: SearchPosition | undefined =
          input.cursor === undefined
            ? undefined
            : yield* Either.match(decodeSearchCursor(input.cursor, key), {
                onLeft: Effect.fail,
                onRight: Effect.succeed
              })
        const limit = input.limit ?? 25
        if (query.length > 0) {
          if (position?._tag === "Recent")
            return yield* invalid("cursor", "this cursor belongs to a listing, not a search")
          const page = yield* ranked(query, filter, { limit, after: position?.key })
          const next = page.next ? encodeSearchCursor({ _tag: "Ranked", key: page.next }, key) : undefined
          return { rows: page.rows, nextCursor: next } satisfies ClipPage<A>
        }
        if (position?._tag === "Ranked")
          return yield* invalid("cursor", "this cursor belongs to a search, not a listing")
        const page = yield* recent(filter, { limit, after: position?.key })
        const next = page.next ? encodeSearchCursor({ _tag: "Recent", key: page.next }, key) : undefined
        return { rows: page.rows, nextCursor: next } satisfies ClipPage<A>
      })

    /** Highlights matching a query (best first), or newest first without one. */
    const searchHighlights = (workspaceId: string, input: ClipSearchInput) =>
      pageThrough(
        workspaceId,
        input,
        (query, filter, page) => repo.searchHighlights(workspaceId, query, filter, page),
        (filter, page) => repo.listHighlights(workspaceId, filter, page)
      ).pipe(withSpan("Highlights.searchHighlights"))

    /** Captures matching a query (best first), or newest first without one. */
    const searchCaptures = (workspaceId: string, input: ClipSearchInput) =>
      pageThrough(
        workspaceId,
        input,
        (query, filter, page) => repo.searchCaptures(workspaceId, query, filter, page),
        (filter, page) => repo.listCaptures(workspaceId, filter, page)
      ).pipe(withSpan("Highlights.searchCaptures"))

    return { addHighlight, searchHighlights, searchCaptures } as const
  })
}) {}
