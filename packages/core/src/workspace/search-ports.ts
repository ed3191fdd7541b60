import { Context, type Effect } from "effect"
import type { RankedPage, RankKey } from "../library/ranked-paging.js"
import type { Page, PageRequest } from "../shared/paging.js"
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
export class SearchRepo extends Context.Tag("svc/workspace/SearchRepo")<
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

/** A chat of the workspace. */
export interface ChatRow {
  readonly id: string
  readonly title: string
  readonly customAIId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** Stored chats. */
export class ChatsRepo extends Context.Tag("svc/workspace/ChatsRepo")<
  ChatsRepo,
  {
    /** Chats, most recently active first; the page key's `createdAt` carries `updatedAt`. */
    readonly list: (
      workspaceId: string,
      filter: { readonly customAIId?: string | undefined },
      page: PageRequest
    ) => Effect.Effect<Page<ChatRow>>
  }
>() {}
