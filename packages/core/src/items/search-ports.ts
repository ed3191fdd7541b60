import { Context, type Effect } from "effect"
import type { RankedPage, RankKey } from "../shared/ranked-paging.js"
import type { ItemType } from "./schema.js"

/** One item matching a search. */
export interface ItemHit {
  readonly id: string
  readonly type: ItemType
  readonly title: string
  readonly url: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
  /** ts_rank of the item's `search` column against the query. */
  readonly rank: number
  /** The best passage, matching words marked with ** (ts_headline). */
  readonly snippet: string
}

/** Full-text search over workspace items (PostgreSQL `tsvector`, English configuration). */
export class SearchRepo extends Context.Tag("svc/items/SearchRepo")<
  SearchRepo,
  {
    /** Whether a websearch-syntax query has any searchable word (not only stop words or punctuation). */
    readonly hasTerms: (query: string) => Effect.Effect<boolean>
    /** Items outside the trash matching the query, best first, ties broken by id. */
    readonly searchItems: (
      workspaceId: string,
      query: string,
      filter: { readonly type?: ItemType | undefined },
      page: { readonly limit: number; readonly after: RankKey | undefined }
    ) => Effect.Effect<RankedPage<ItemHit>>
  }
>() {}
