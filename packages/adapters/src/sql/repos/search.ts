import * as SqlClient from "@effect/sql/SqlClient"
import { type ItemHit, type ItemType, SearchRepo } from "@svc/core/items"
import { rankedPageOf } from "@svc/core/shared"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface HitRow {
  readonly id: string
  readonly type: ItemType
  readonly title: string
  readonly url: string | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly rank: number
  readonly snippet: string
}

/** ts_headline options shared by every search: up to two fragments, matches wrapped in `**`. */
export const HEADLINE_OPTIONS =
  'StartSel=**, StopSel=**, MaxWords=25, MinWords=10, MaxFragments=2, FragmentDelimiter=" … "'

/** `SearchRepo` over PostgreSQL full-text search (the `items.search` tsvector, English configuration). */
export const SearchRepoSql = Layer.effect(
  SearchRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      hasTerms: (query) =>
        lean<{ readonly n: number }>`SELECT numnode(websearch_to_tsquery('english', ${query}))::int AS n`.pipe(
          Effect.map((rows) => Number(rows[0]?.n ?? 0) > 0),
          Effect.orDie
        ),
      searchItems: (workspaceId, query, filter, page) => {
        const type = filter.type ? sql`AND i.type = ${filter.type}` : sql``
        // ts_rank is real; the key goes back as real so the row it came from compares equal, not greater.
        const after = page.after ? sql`WHERE (rank, id) < (${page.after.rank}::real, ${page.after.id})` : sql``
        // The page is chosen first and ts_headline, the costly part, runs on its rows only.
        return sql<HitRow>`
          WITH q AS (SELECT websearch_to_tsquery('english', ${query}) AS q),
          hits AS (
            SELECT i.id, i.type, i.title, i.url, i.note, i.body, i.data, i.created_at, i.updated_at,
                   ts_rank(i.search, q.q) AS rank
            FROM items i, q
            WHERE i.workspace_id = ${workspaceId} AND i.trashed_at IS NULL AND i.search @@ q.q ${type}
          ),
          page AS (SELECT * FROM hits ${after} ORDER BY rank DESC, id DESC LIMIT ${page.limit + 1})
          SELECT page.id, page.type, page.title, page.url, page.created_at, page.updated_at, page.rank,
                 ts_headline('english',
                   concat_ws(' — ', nullif(page.title, ''), nullif(page.note, ''), nullif(page.body, ''),
                             page.data ->> 'text', page.data ->> 'description'),
                   q.q, ${HEADLINE_OPTIONS}) AS snippet
          FROM page, q
          ORDER BY page.rank DESC, page.id DESC`.pipe(
          Effect.map((rows) =>
            rankedPageOf(
              rows.map(
                (row): ItemHit => ({
                  id: row.id,
                  type: row.type,
                  title: row.title,
                  url: row.url,
                  createdAt: row.created_at,
                  updatedAt: row.updated_at,
                  rank: Number(row.rank),
                  snippet: row.snippet
                })
              ),
              page.limit
            )
          ),
          Effect.orDie,
          withSpan("SearchRepo.searchItems")
        )
      }
    }
  })
)
