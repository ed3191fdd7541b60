import * as SqlClient from "@effect/sql/SqlClient"
import { type CaptureRow, type ClipFilter, type HighlightRow, HighlightsRepo } from "@svc/core/highlights"
import type { ItemType } from "@svc/core/items"
import { pageOf, rankedPageOf } from "@svc/core/shared"
import { Effect, Layer } from "effect"
import { HEADLINE_OPTIONS } from "./search.js"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface HighlightSqlRow {
  readonly id: string
  readonly item_id: string
  readonly item_type: ItemType
  readonly item_title: string
  readonly text: string
  readonly note: string
  readonly created_at: Date
  readonly rank: number | null
  readonly snippet: string | null
}

interface CaptureSqlRow {
  readonly id: string
  readonly item_id: string | null
  readonly source_url: string | null
  readonly platform: string | null
  readonly title: string
  readonly text: string
  readonly created_at: Date
  readonly rank: number | null
  readonly snippet: string | null
}

const toHighlight = (row: HighlightSqlRow): HighlightRow => ({
  id: row.id,
  itemId: row.item_id,
  itemType: row.item_type,
  itemTitle: row.item_title,
  text: row.text,
  note: row.note,
  createdAt: row.created_at,
  rank: Number(row.rank ?? 0),
  snippet: row.snippet
})

const toCapture = (row: CaptureSqlRow): CaptureRow => ({
  id: row.id,
  itemId: row.item_id,
  sourceUrl: row.source_url,
  platform: row.platform,
  title: row.title,
  text: row.text,
  createdAt: row.created_at,
  rank: Number(row.rank ?? 0),
  snippet: row.snippet
})

/** `HighlightsRepo` over SQL: inserts are idempotent per (item, text); searches use the `search` tsvectors. */
export const HighlightsRepoSql = Layer.effect(
  HighlightsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql

    // Filters on a clip table aliased `c`.
    const filtersOf = (filter: ClipFilter) => {
      const item = filter.itemId === undefined ? sql`` : sql`AND c.item_id = ${filter.itemId}`
      const from = filter.createdAfter === undefined ? sql`` : sql`AND c.created_at >= ${filter.createdAfter}`
      const until = filter.createdBefore === undefined ? sql`` : sql`AND c.created_at < ${filter.createdBefore}`
      return sql`${item} ${from} ${until}`
    }
    const rankedAfter = (after: { rank: number; id: string } | undefined) =>
      after ? sql`WHERE (rank, id) < (${after.rank}::real, ${after.id})` : sql``
    const recentAfter = (after: { createdAt: Date; id: string } | undefined) =>
      after ? sql`AND (c.created_at, c.id) < (${after.createdAt}, ${after.id})` : sql``

    const highlightColumns = sql`c.id, c.item_id, i.type AS item_type, i.title AS item_title, c.text, c.note, c.created_at`
    const captureColumns = sql`c.id, c.item_id, c.source_url, c.platform, c.title, c.text, c.created_at`

    return {
      insertHighlight: (h) =>
        lean<{ readonly id: string; readonly note: string; readonly inserted: boolean }>`
          INSERT INTO highlights (id, workspace_id, item_id, text, note, created_at)
          VALUES (${h.id}, ${h.workspaceId}, ${h.itemId}, ${h.text}, ${h.note}, ${h.at})
          ON CONFLICT (item_id, md5(text)) DO UPDATE SET item_id = EXCLUDED.item_id
          RETURNING id, note, (xmax = 0) AS inserted`.pipe(
          Effect.flatMap((rows) =>
            rows[0]
              ? Effect.succeed({ id: rows[0].id, note: rows[0].note, created: rows[0].inserted })
              : Effect.dieMessage("highlight insert answered no row")
          ),
          Effect.orDie
        ),
      insertCapture: (c) =>
        lean<{ readonly id: string; readonly inserted: boolean }>`
          INSERT INTO captures (id, workspace_id, item_id, source_url, platform, title, text, created_at)
          VALUES (${c.id}, ${c.workspaceId}, ${c.itemId}, ${c.sourceUrl}, ${c.platform}, ${c.title}, ${c.text}, ${c.at})
          ON CONFLICT (item_id, md5(text)) WHERE item_id IS NOT NULL DO UPDATE SET item_id = EXCLUDED.item_id
          RETURNING id, (xmax = 0) AS inserted`.pipe(
          Effect.flatMap((rows) =>
            rows[0]
              ? Effect.succeed({ id: rows[0].id, created: rows[0].inserted })
              : Effect.dieMessage("capture insert answered no row")
          ),
          Effect.orDie
        ),
      itemExists: (workspaceId, itemId) =>
        lean`SELECT 1 FROM items WHERE id = ${itemId} AND workspace_id = ${workspaceId} AND trashed_at IS NULL`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      searchHighlights: (workspaceId, query, filter, page) =>
        sql<HighlightSqlRow>`
          WITH q AS (SELECT websearch_to_tsquery('english', ${query}) AS q),
          hits AS (
            SELECT ${highlightColumns}, ts_rank(c.search, q.q) AS rank
            FROM highlights c JOIN items i ON i.id = c.item_id, q
            WHERE c.workspace_id = ${workspaceId} AND i.trashed_at IS NULL AND c.search @@ q.q ${filtersOf(filter)}
          ),
          page AS (SELECT * FROM hits ${rankedAfter(page.after)} ORDER BY rank DESC, id DESC LIMIT ${page.limit + 1})
          SELECT page.*, ts_headline('english', concat_ws(' — ', page.text, nullif(page.note, '')), q.q,
                                     ${HEADLINE_OPTIONS}) AS snippet
          FROM page, q ORDER BY page.rank DESC, page.id DESC`.pipe(
          Effect.map((rows) => rankedPageOf(rows.map(toHighlight), page.limit)),
          Effect.orDie,
          withSpan("HighlightsRepo.searchHighlights")
        ),
      listHighlights: (workspaceId, filter, page) =>
        sql<HighlightSqlRow>`
          SELECT ${highlightColumns}, NULL::real AS rank, NULL::text AS snippet
          FROM highlights c JOIN items i ON i.id = c.item_id
          WHERE c.workspace_id = ${workspaceId} AND i.trashed_at IS NULL ${filtersOf(filter)} ${recentAfter(page.after)}
          ORDER BY c.created_at DESC, c.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toHighlight), page.limit)),
          Effect.orDie
        ),
      searchCaptures: (workspaceId, query, filter, page) =>
        sql<CaptureSqlRow>`
          WITH q AS (SELECT websearch_to_tsquery('english', ${query}) AS q),
          hits AS (
            SELECT ${captureColumns}, ts_rank(c.search, q.q) AS rank
            FROM captures c LEFT JOIN items i ON i.id = c.item_id, q
            WHERE c.workspace_id = ${workspaceId} AND (c.item_id IS NULL OR i.trashed_at IS NULL)
              AND c.search @@ q.q ${filtersOf(filter)}
          ),
          page AS (SELECT * FROM hits ${rankedAfter(page.after)} ORDER BY rank DESC, id DESC LIMIT ${page.limit + 1})
          SELECT page.*, ts_headline('english', concat_ws(' — ', nullif(page.title, ''), page.text), q.q,
                                     ${HEADLINE_OPTIONS}) AS snippet
          FROM page, q ORDER BY page.rank DESC, page.id DESC`.pipe(
          Effect.map((rows) => rankedPageOf(rows.map(toCapture), page.limit)),
          Effect.orDie,
          withSpan("HighlightsRepo.searchCaptures")
        ),
      listCaptures: (workspaceId, filter, page) =>
        sql<CaptureSqlRow>`
          SELECT ${captureColumns}, NULL::real AS rank, NULL::text AS snippet
          FROM captures c LEFT JOIN items i ON i.id = c.item_id
          WHERE c.workspace_id = ${workspaceId} AND (c.item_id IS NULL OR i.trashed_at IS NULL)
            ${filtersOf(filter)} ${recentAfter(page.after)}
          ORDER BY c.created_at DESC, c.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toCapture), page.limit)),
          Effect.orDie
        )
    }
  })
)
