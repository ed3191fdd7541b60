import * as SqlClient from "@effect/sql/SqlClient"
import { ResearchLibraryRepo, type SavedSocialItem } from "@svc/core/research"
import { withSpan } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"

interface SavedRow {
  readonly id: string
  readonly type: SavedSocialItem["type"]
  readonly title: string
  readonly url: string | null
  readonly note: string
  readonly platform: string | null
  readonly external_id: string | null
  readonly author: string | null
  readonly text: string | null
  readonly created_at: Date
}

const savedOf = (row: SavedRow): SavedSocialItem => ({
  id: row.id,
  type: row.type,
  title: row.title,
  url: row.url,
  note: row.note,
  platform: row.type === "link" ? null : row.platform,
  externalId: row.external_id,
  author: row.author,
  text: row.text ?? "",
  createdAt: row.created_at
})

/** `ResearchLibraryRepo` over the items table: saved posts, ads and links, outside the trash. */
export const ResearchLibraryRepoSql = Layer.effect(
  ResearchLibraryRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`i.id, i.type, i.title, i.url, i.note, i.data ->> 'platform' AS platform,
      i.data ->> 'externalId' AS external_id, i.data ->> 'author' AS author,
      coalesce(i.data ->> 'text', i.data ->> 'description') AS text, i.created_at`
    // A leading @ and case never tell two authors apart.
    const authorKey = sql`lower(ltrim(i.data ->> 'author', '@'))`
    return {
      search: (workspaceId, query, types, limit) =>
        sql<SavedRow>`
          SELECT ${columns}
          FROM items i, websearch_to_tsquery('english', ${query}) q
          WHERE i.workspace_id = ${workspaceId} AND i.trashed_at IS NULL AND i.type IN ${sql.in(types)}
            AND i.search @@ q
          ORDER BY ts_rank(i.search, q) DESC, i.id DESC
          LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(savedOf)),
          Effect.orDie,
          withSpan("ResearchLibraryRepo.search")
        ),
      byAuthor: (workspaceId, author, platform, limit) =>
        sql<SavedRow>`
          SELECT ${columns}
          FROM items i
          WHERE i.workspace_id = ${workspaceId} AND i.trashed_at IS NULL AND i.type = 'post'
            AND ${authorKey} = ${author.replace(/^@/, "").toLowerCase()}
            ${platform === undefined ? sql`` : sql`AND i.data ->> 'platform' = ${platform}`}
          ORDER BY i.created_at DESC, i.id DESC
          LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(savedOf)),
          Effect.orDie,
          withSpan("ResearchLibraryRepo.byAuthor")
        ),
      authors: (workspaceId, query, limit) =>
        sql<{ readonly platform: string; readonly author: string; readonly posts: number }>`
          SELECT i.data ->> 'platform' AS platform, min(i.data ->> 'author') AS author, count(*)::int AS posts
          FROM items i
          WHERE i.workspace_id = ${workspaceId} AND i.trashed_at IS NULL AND i.type = 'post'
            AND i.data ->> 'author' IS NOT NULL
            AND strpos(${authorKey}, ${query.replace(/^@/, "").toLowerCase()}) > 0
          GROUP BY i.data ->> 'platform', ${authorKey}
          ORDER BY count(*) DESC, min(i.data ->> 'author')
          LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map((row) => ({ ...row, posts: Number(row.posts) }))),
          Effect.orDie,
          withSpan("ResearchLibraryRepo.authors")
        ),
      find: (workspaceId, idOrUrl) =>
        sql<SavedRow>`
          SELECT ${columns}
          FROM items i
          WHERE i.workspace_id = ${workspaceId} AND i.trashed_at IS NULL AND i.type IN ('post', 'ad', 'link')
            AND (i.id = ${idOrUrl} OR i.url = ${idOrUrl})
          ORDER BY (i.id = ${idOrUrl}) DESC, i.created_at DESC
          LIMIT 1`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), savedOf)),
          Effect.orDie,
          withSpan("ResearchLibraryRepo.find")
        )
    }
  })
)
