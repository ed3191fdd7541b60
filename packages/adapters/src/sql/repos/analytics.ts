import * as SqlClient from "@effect/sql/SqlClient"
import {
  type AnalyticsPost,
  AnalyticsRepo,
  type ClaimedFetch,
  type MetricSample,
  METRICS,
  type PeriodFigures,
  type PlatformFigures,
  type PostMetrics
} from "@svc/core/analytics"
import type { Platform } from "@svc/core/scheduling"
import { withSpan } from "@svc/core/shared"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"

type MetricColumns = { readonly [K in keyof PostMetrics]: number | string | null }

interface ClaimedRow {
  readonly delivery_id: string
  readonly workspace_id: string
  readonly post_id: string
  readonly platform: Platform
  readonly social_account_id: string | null
  readonly remote_id: string
  readonly posted_at: Date
  readonly failures: number
  readonly claim_token: string
  readonly lease_until: Date
}

/** A number column (sums come back as float8, which both engines answer as numbers; a string is parsed). */
const numberOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : typeof value === "number" ? value : Number(value)

const metricsOf = (row: Partial<MetricColumns>): PostMetrics => ({
  likes: numberOrNull(row.likes),
  replies: numberOrNull(row.replies),
  reposts: numberOrNull(row.reposts),
  quotes: numberOrNull(row.quotes),
  views: numberOrNull(row.views),
  clicks: numberOrNull(row.clicks)
})

const dateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value))

const json = <A>(value: A | string): A => (typeof value === "string" ? (JSON.parse(value) as A) : value)

/** Sums of the latest samples (float8: a number on both engines; null when every row's is null). */
const SUMS = METRICS.map((m) => `sum(${m})::float8 AS ${m}`).join(", ")

/**
 * Each posted delivery of the workspace ($1) with its latest sample, published in [$2, $3) when given, on platform $4
 * when given. The scheduling tables are read, never written.
 */
const LATEST = `
  SELECT d.id, d.post_id, d.platform, d.url, d.posted_at, s.taken_at,
         s.likes, s.replies, s.reposts, s.quotes, s.views, s.clicks
  FROM post_deliveries d
  LEFT JOIN LATERAL (
    SELECT * FROM post_metric_samples s WHERE s.delivery_id = d.id ORDER BY s.taken_at DESC LIMIT 1
  ) s ON true
  WHERE d.workspace_id = $1 AND d.status = 'posted' AND d.posted_at IS NOT NULL
    AND ($2::timestamptz IS NULL OR d.posted_at >= $2::timestamptz)
    AND ($3::timestamptz IS NULL OR d.posted_at < $3::timestamptz)
    AND ($4::text IS NULL OR d.platform = $4::text)`

const PERIOD = `
  WITH latest AS (${LATEST})
  SELECT platform, count(DISTINCT post_id)::int AS posts, ${SUMS}, max(taken_at) AS metrics_at
  FROM latest
  GROUP BY GROUPING SETS ((platform), ())`

/** The sort key of a post: its first time out (epoch ms) or a metric's total; a null metric sorts last. */
const SORT_KEY = `(CASE $5::text
    WHEN 'publishedAt' THEN extract(epoch FROM p.published_at) * 1000
    WHEN 'engagement' THEN COALESCE(p.engagement, $6::float8)
    WHEN 'likes' THEN COALESCE(p.likes, $6::float8)
    WHEN 'replies' THEN COALESCE(p.replies, $6::float8)
    WHEN 'reposts' THEN COALESCE(p.reposts, $6::float8)
    WHEN 'views' THEN COALESCE(p.views, $6::float8)
    WHEN 'clicks' THEN COALESCE(p.clicks, $6::float8)
  END)::float8`

/** A page of posts sorted by `SORT_KEY` then id, `direction` one of the two, after the key ($7, $8) when given. */
const postsPage = (direction: "DESC" | "ASC") => `
  WITH latest AS (${LATEST}),
  per_post AS (
    SELECT post_id, min(posted_at) AS published_at, ${SUMS},
      CASE WHEN count(likes) + count(replies) + count(reposts) + count(quotes) = 0 THEN NULL
           ELSE (COALESCE(sum(likes), 0) + COALESCE(sum(replies), 0) + COALESCE(sum(reposts), 0)
                 + COALESCE(sum(quotes), 0))::float8 END AS engagement
    FROM latest GROUP BY post_id
  ),
  keyed AS (SELECT p.*, ${SORT_KEY} AS sort_key FROM per_post p)
  SELECT k.*, posts.text,
    (SELECT json_agg(json_build_object('platform', l.platform, 'url', l.url, 'posted_at', l.posted_at,
       'taken_at', l.taken_at, 'likes', l.likes, 'replies', l.replies, 'reposts', l.reposts, 'quotes', l.quotes,
       'views', l.views, 'clicks', l.clicks) ORDER BY l.posted_at, l.platform)
     FROM latest l WHERE l.post_id = k.post_id) AS platforms
  FROM keyed k JOIN posts ON posts.id = k.post_id
  WHERE ($7::float8 IS NULL OR (k.sort_key, k.post_id) ${direction === "DESC" ? "<" : ">"} ($7::float8, $8::text))
  ORDER BY k.sort_key ${direction}, k.post_id ${direction}
  LIMIT $9::int`

const POSTS_DESC = postsPage("DESC")
const POSTS_ASC = postsPage("ASC")

type PeriodRow = MetricColumns & {
  readonly platform: Platform | null
  readonly posts: number
  readonly metrics_at: Date | string | null
}

type PostRow = MetricColumns & {
  readonly post_id: string
  readonly published_at: Date | string
  readonly engagement: number | string | null
  readonly sort_key: number | string
  readonly text: string
  readonly platforms: ReadonlyArray<Record<string, unknown>> | string
}

/** A null key means the first page: both statements take the key as a nullable parameter. */
const NULL_LAST_DESC = -1
const NULL_LAST_ASC = Number.MAX_SAFE_INTEGER

/**
 * `AnalyticsRepo` over SQL. Fetches are claimed like the other queues: one `UPDATE … RETURNING` over due rows locked
 * with `SKIP LOCKED`, setting a lease and a fresh token; only that token records the fetch, and its sample is written
 * in the same statement that releases the claim. Sums over samples are `float8` so both engines answer numbers.
 */
export const AnalyticsRepoSql = Layer.effect(
  AnalyticsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    const sql = yield* SqlClient.SqlClient

    return {
      scheduleNew: (now) =>
        lean<{ readonly delivery_id: string }>`
          INSERT INTO post_metric_fetches (delivery_id, workspace_id, next_fetch_at, failures, created_at)
          SELECT d.id, d.workspace_id, ${now}, 0, ${now}
          FROM post_deliveries d
          WHERE d.status = 'posted' AND d.remote_id IS NOT NULL AND d.posted_at IS NOT NULL
            AND d.posted_at > ${now}::timestamptz - interval '90 days'
            AND NOT EXISTS (SELECT 1 FROM post_metric_fetches f WHERE f.delivery_id = d.id)
          ON CONFLICT (delivery_id) DO NOTHING
          RETURNING delivery_id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie,
          withSpan("AnalyticsRepo.scheduleNew", { captureStackTrace: false })
        ),
      claimDue: (claim, limit) =>
        lean<ClaimedRow>`
          WITH claimed AS (
            UPDATE post_metric_fetches AS f
            SET claim_token = ${claim.claimToken}, lease_until = ${claim.leaseUntil}
            FROM (
              SELECT delivery_id FROM post_metric_fetches
              WHERE next_fetch_at <= ${claim.now} AND (lease_until IS NULL OR lease_until <= ${claim.now})
              ORDER BY next_fetch_at
              LIMIT ${limit}::int
              FOR UPDATE SKIP LOCKED
            ) AS due
            WHERE f.delivery_id = due.delivery_id
            RETURNING f.delivery_id, f.workspace_id, f.failures, f.claim_token, f.lease_until
          )
          SELECT c.*, d.post_id, d.platform, d.social_account_id, d.remote_id, d.posted_at
          FROM claimed c JOIN post_deliveries d ON d.id = c.delivery_id`.pipe(
          Effect.map((rows) =>
            rows.map(
              (row): ClaimedFetch => ({
                deliveryId: row.delivery_id,
                workspaceId: row.workspace_id,
                postId: row.post_id,
                platform: row.platform,
                socialAccountId: row.social_account_id,
                remoteId: row.remote_id,
                postedAt: row.posted_at,
                failures: row.failures,
                claimToken: row.claim_token,
                leaseUntil: row.lease_until
              })
            )
          ),
          Effect.orDie,
          withSpan("AnalyticsRepo.claimDue", { captureStackTrace: false })
        ),
      record: (deliveryId, claimToken, r) => {
        const m = r.sample?.metrics
        return lean<{ readonly held: number }>`
          WITH held AS (
            UPDATE post_metric_fetches
            SET next_fetch_at = ${r.nextFetchAt}, failures = ${r.failures}, last_error = ${r.error},
                last_fetched_at = COALESCE(${r.sample?.takenAt ?? null}::timestamptz, last_fetched_at),
                claim_token = NULL, lease_until = NULL
            WHERE delivery_id = ${deliveryId} AND claim_token = ${claimToken}
            RETURNING delivery_id
          ), sampled AS (
            INSERT INTO post_metric_samples (delivery_id, taken_at, likes, replies, reposts, quotes, views, clicks)
            SELECT delivery_id, ${r.sample?.takenAt ?? null}::timestamptz, ${m?.likes ?? null}::int,
                   ${m?.replies ?? null}::int, ${m?.reposts ?? null}::int, ${m?.quotes ?? null}::int,
                   ${m?.views ?? null}::int, ${m?.clicks ?? null}::int
            FROM held WHERE ${r.sample !== null}::boolean
            ON CONFLICT (delivery_id, taken_at) DO NOTHING
          )
          SELECT count(*)::int AS held FROM held`.pipe(
          Effect.map((rows) => (rows[0]?.held ?? 0) > 0),
          Effect.orDie
        )
      },
      samples: (deliveryId) =>
        lean<MetricColumns & { readonly taken_at: Date }>`
          SELECT * FROM post_metric_samples WHERE delivery_id = ${deliveryId} ORDER BY taken_at`.pipe(
          Effect.map((rows) => rows.map((row): MetricSample => ({ takenAt: row.taken_at, metrics: metricsOf(row) }))),
          Effect.orDie
        ),
      recordClick: (workspaceId, postId, at) =>
        lean`
          INSERT INTO feed_link_clicks (workspace_id, post_id, day, clicks)
          VALUES (${workspaceId}, ${postId}, ${at.toISOString().slice(0, 10)}::date, 1)
          ON CONFLICT (post_id, day) DO UPDATE SET clicks = feed_link_clicks.clicks + 1`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      feedClicks: (workspaceId, postIds) =>
        lean<{ readonly post_id: string; readonly clicks: number | string }>`
          SELECT post_id, sum(clicks)::float8 AS clicks FROM feed_link_clicks
          WHERE workspace_id = ${workspaceId}
            AND post_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(postIds)}::jsonb))
          GROUP BY post_id`.pipe(
          Effect.map((rows) => new Map(rows.map((row) => [row.post_id, Number(row.clicks)]))),
          Effect.orDie
        ),
      periodFigures: (workspaceId, from, to) =>
        sql.unsafe<PeriodRow>(PERIOD, [workspaceId, from, to, null]).pipe(
          Effect.map((rows) => {
            const figures = (row: PeriodRow | undefined): PeriodFigures => ({
              postsPublished: row?.posts ?? 0,
              metrics: row === undefined ? metricsOf({}) : metricsOf(row)
            })
            const all = rows.find((row) => row.platform === null)
            const times = rows.flatMap((row) => {
              const at = dateOrNull(row.metrics_at)
              return at === null ? [] : [at.getTime()]
            })
            return {
              all: figures(all),
              platforms: rows
                .filter((row) => row.platform !== null)
                .sort((a, b) => String(a.platform).localeCompare(String(b.platform)))
                .map((row) => ({ platform: row.platform as Platform, ...figures(row) })),
              metricsAt: times.length === 0 ? null : new Date(Math.max(...times))
            }
          }),
          Effect.orDie,
          withSpan("AnalyticsRepo.periodFigures", { captureStackTrace: false })
        ),
      listPosts: (workspaceId, query) => {
        const desc = query.order === "desc"
        return sql
          .unsafe<PostRow>(desc ? POSTS_DESC : POSTS_ASC, [
            workspaceId,
            query.from ?? null,
            query.to ?? null,
            query.platform ?? null,
            query.sort,
            desc ? NULL_LAST_DESC : NULL_LAST_ASC,
            query.after?.key ?? null,
            query.after?.id ?? null,
            query.limit + 1
          ])
          .pipe(
            Effect.map((rows) => {
              const posts = rows.slice(0, query.limit).map((row): AnalyticsPost => {
                const platforms = json(row.platforms).map(
                  (p): PlatformFigures => ({
                    platform: p.platform as Platform,
                    url: typeof p.url === "string" ? p.url : null,
                    postedAt: new Date(String(p.posted_at)),
                    metricsAt: dateOrNull(p.taken_at),
                    metrics: metricsOf(p as Partial<MetricColumns>)
                  })
                )
                return {
                  postId: row.post_id,
                  text: row.text,
                  publishedAt: dateOrNull(row.published_at) ?? new Date(0),
                  platforms,
                  totals: metricsOf(row),
                  engagement: numberOrNull(row.engagement),
                  sortKey: Number(row.sort_key)
                }
              })
              const last = posts[posts.length - 1]
              return {
                rows: posts,
                next:
                  rows.length > query.limit && last !== undefined ? { key: last.sortKey, id: last.postId } : undefined
              }
            }),
            Effect.orDie,
            withSpan("AnalyticsRepo.listPosts", { captureStackTrace: false })
          )
      }
    }
  })
)
