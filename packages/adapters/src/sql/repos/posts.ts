import {
  type ClaimedDelivery,
  type Delivery,
  type DeliveryStatus,
  type Platform,
  type Post,
  type PostStatus,
  PostsRepo,
  type PostView,
  type Visibility
} from "@svc/core/scheduling"
import { pageOf, withSpan } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface PostRow {
  readonly id: string
  readonly workspace_id: string
  readonly account_id: string
  readonly text: string
  readonly platforms: ReadonlyArray<Platform>
  readonly media: ReadonlyArray<{ readonly id: string; readonly altText: string | null }>
  readonly status: PostStatus
  readonly scheduled_for: Date | null
  readonly from_slot: boolean
  readonly number_thread: boolean
  readonly visibility: Visibility
  readonly content_warning: string | null
  readonly posted_at: Date | null
  readonly error: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

interface DeliveryRow {
  readonly id: string
  readonly post_id: string
  readonly workspace_id: string
  readonly platform: Platform
  readonly social_account_id: string | null
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly next_attempt_at: Date | null
  readonly claim_token: string | null
  readonly lease_until: Date | null
  readonly remote_id: string | null
  readonly url: string | null
  readonly error: string | null
  readonly posted_at: Date | null
  readonly created_at: Date
}

/** A post row with its deliveries as a JSON array (timestamps as text). */
type ViewRow = PostRow & { readonly deliveries: ReadonlyArray<Record<string, unknown>> }

const json = <A>(value: A | string): A => (typeof value === "string" ? (JSON.parse(value) as A) : value)
const dateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(String(value))

const toPost = (row: PostRow): Post => ({
  id: row.id,
  workspaceId: row.workspace_id,
  accountId: row.account_id,
  text: row.text,
  platforms: json(row.platforms),
  media: json(row.media),
  status: row.status,
  scheduledFor: row.scheduled_for,
  fromSlot: row.from_slot,
  numberThread: row.number_thread,
  visibility: row.visibility,
  contentWarning: row.content_warning,
  postedAt: row.posted_at,
  error: row.error,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  postId: row.post_id,
  workspaceId: row.workspace_id,
  platform: row.platform,
  socialAccountId: row.social_account_id,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  remoteId: row.remote_id,
  url: row.url,
  error: row.error,
  postedAt: row.posted_at,
  createdAt: row.created_at
})

// `to_json` of a row writes timestamps as text: read back here.
const fromJson = (d: Record<string, unknown>): Delivery =>
  toDelivery({
    ...(d as unknown as DeliveryRow),
    next_attempt_at: dateOrNull(d.next_attempt_at),
    lease_until: dateOrNull(d.lease_until),
    posted_at: dateOrNull(d.posted_at),
    created_at: new Date(String(d.created_at))
  })

const toView = (row: ViewRow): PostView => ({
  ...toPost(row),
  deliveries: json(row.deliveries).map(fromJson)
})

const toClaimed = (row: DeliveryRow): ClaimedDelivery => ({
  ...toDelivery(row),
  claimToken: row.claim_token ?? "",
  leaseUntil: row.lease_until ?? row.created_at
})

/**
 * `PostsRepo` over SQL. Due deliveries are claimed like the other queues: one `UPDATE … RETURNING` over due rows
 * locked with `SKIP LOCKED`, setting a lease and a fresh token that alone may record the delivery, and counting the
 * try; the same statement moves their posts to `publishing`, so an edit or a cancel (which lock the post) can no
 * longer change a post that started going out.
 */
export const PostsRepoSql = Layer.effect(
  PostsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql

    const insertDeliveries = (deliveries: ReadonlyArray<Delivery>) =>
      Effect.forEach(
        deliveries,
        (d) =>
          lean`INSERT INTO post_deliveries (id, post_id, workspace_id, platform, social_account_id, status, attempts,
                                            next_attempt_at, remote_id, url, error, posted_at, created_at)
               VALUES (${d.id}, ${d.postId}, ${d.workspaceId}, ${d.platform}, ${d.socialAccountId}, ${d.status},
                       ${d.attempts}, ${d.nextAttemptAt}, ${d.remoteId}, ${d.url}, ${d.error}, ${d.postedAt},
                       ${d.createdAt})`,
        { discard: true }
      )

    // Each post row carries its deliveries as one JSON array.
    const one = (workspaceId: string, id: string) =>
      lean<ViewRow>`SELECT p.*, COALESCE((SELECT json_agg(d ORDER BY d.created_at, d.id) FROM post_deliveries d WHERE d.post_id = p.id), '[]'::json) AS deliveries FROM posts p
                    WHERE p.workspace_id = ${workspaceId} AND p.id = ${id}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toView)),
        Effect.orDie
      )

    return {
      insert: (p, deliveries) =>
        Effect.gen(function* () {
          yield* lean`INSERT INTO posts (id, workspace_id, account_id, text, platforms, media, status, scheduled_for,
                                         from_slot, number_thread, visibility, content_warning, posted_at, error,
                                         created_at, updated_at)
                      VALUES (${p.id}, ${p.workspaceId}, ${p.accountId}, ${p.text}, ${JSON.stringify(p.platforms)}::jsonb,
                              ${JSON.stringify(p.media)}::jsonb, ${p.status}, ${p.scheduledFor}, ${p.fromSlot},
                              ${p.numberThread}, ${p.visibility}, ${p.contentWarning}, ${p.postedAt}, ${p.error},
                              ${p.createdAt}, ${p.updatedAt})`
          yield* insertDeliveries(deliveries)
        }).pipe(Effect.orDie),
      find: one,
      lock: (workspaceId, id) =>
        lean`SELECT id FROM posts WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.orDie,
          Effect.zipRight(one(workspaceId, id))
        ),
      save: (p, deliveries) =>
        Effect.gen(function* () {
          yield* lean`UPDATE posts SET text = ${p.text}, platforms = ${JSON.stringify(p.platforms)}::jsonb,
                        media = ${JSON.stringify(p.media)}::jsonb, status = ${p.status},
                        scheduled_for = ${p.scheduledFor}, from_slot = ${p.fromSlot},
                        number_thread = ${p.numberThread}, visibility = ${p.visibility},
                        content_warning = ${p.contentWarning}, posted_at = ${p.postedAt}, error = ${p.error},
                        updated_at = ${p.updatedAt}
                      WHERE id = ${p.id}`
          yield* lean`DELETE FROM post_deliveries WHERE post_id = ${p.id}`
          yield* insertDeliveries(deliveries)
        }).pipe(Effect.orDie),
      listPage: (workspaceId, filter, page) => {
        // A JSON array of the statuses kept, or null for any: one fixed statement either way.
        const statuses = filter.statuses?.length ? JSON.stringify(filter.statuses) : null
        return lean<ViewRow>`
          SELECT p.*, COALESCE((SELECT json_agg(d ORDER BY d.created_at, d.id) FROM post_deliveries d WHERE d.post_id = p.id), '[]'::json) AS deliveries FROM posts p
          WHERE p.workspace_id = ${workspaceId}
            AND (${statuses}::jsonb IS NULL OR jsonb_exists(${statuses}::jsonb, p.status))
            AND (${filter.platform ?? null}::text IS NULL OR p.platforms @> ${JSON.stringify([filter.platform ?? ""])}::jsonb)
            AND (${filter.from ?? null}::timestamptz IS NULL OR p.scheduled_for >= ${filter.from ?? null}::timestamptz)
            AND (${filter.to ?? null}::timestamptz IS NULL OR p.scheduled_for < ${filter.to ?? null}::timestamptz)
            AND (${page.after === undefined} OR (p.created_at, p.id) < (${page.after?.createdAt ?? null}::timestamptz, ${page.after?.id ?? null}::text))
          ORDER BY p.created_at DESC, p.id DESC
          LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toView), page.limit)),
          Effect.orDie
        )
      },
      countOpen: (workspaceId) =>
        lean<{ readonly n: number }>`SELECT count(*)::int AS n FROM posts
                                     WHERE workspace_id = ${workspaceId} AND status IN ('draft', 'scheduled')`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      takenTimes: (workspaceId, from, to) =>
        lean<{ readonly scheduled_for: Date }>`
          SELECT scheduled_for FROM posts
          WHERE workspace_id = ${workspaceId} AND status IN ('draft', 'scheduled')
            AND scheduled_for >= ${from} AND scheduled_for < ${to}`.pipe(
          Effect.map((rows) => rows.map((row) => row.scheduled_for)),
          Effect.orDie
        ),
      claimDue: (claim, limit) =>
        lean<DeliveryRow>`
          WITH claimed AS (
            UPDATE post_deliveries AS d
            SET claim_token = ${claim.claimToken}, lease_until = ${claim.leaseUntil}, attempts = d.attempts + 1
            FROM (
              SELECT id FROM post_deliveries
              WHERE status = 'pending' AND next_attempt_at <= ${claim.now}
                AND (lease_until IS NULL OR lease_until <= ${claim.now})
              ORDER BY next_attempt_at
              LIMIT ${limit}::int
              FOR UPDATE SKIP LOCKED
            ) AS due
            WHERE d.id = due.id
            RETURNING d.*
          ), started AS (
            UPDATE posts SET status = 'publishing', updated_at = ${claim.now}
            WHERE id IN (SELECT post_id FROM claimed) AND status = 'scheduled'
          )
          SELECT * FROM claimed`.pipe(
          Effect.map((rows) => rows.map(toClaimed)),
          Effect.orDie,
          withSpan("PostsRepo.claimDue", { captureStackTrace: false })
        ),
      holds: (id, claimToken, now) =>
        lean<{ readonly id: string }>`SELECT id FROM post_deliveries
                                      WHERE id = ${id} AND claim_token = ${claimToken} AND lease_until > ${now}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      recordDelivery: (id, claimToken, r) =>
        lean<{ readonly id: string }>`
          UPDATE post_deliveries SET status = ${r.status}, attempts = ${r.attempts},
            next_attempt_at = ${r.nextAttemptAt}, remote_id = ${r.remoteId}, url = ${r.url}, error = ${r.error},
            posted_at = ${r.postedAt}, claim_token = NULL, lease_until = NULL
          WHERE id = ${id} AND claim_token = ${claimToken}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      finish: (postId, outcome, at) =>
        lean`UPDATE posts SET status = ${outcome.status}, posted_at = ${outcome.postedAt}, error = ${outcome.error},
                              updated_at = ${at}
             WHERE id = ${postId}`.pipe(Effect.asVoid, Effect.orDie),
      feedPage: (workspaceId, page) =>
        lean<ViewRow & { readonly feed_at: Date }>`
          SELECT p.*, f.posted_at AS feed_at, COALESCE((SELECT json_agg(d ORDER BY d.created_at, d.id) FROM post_deliveries d WHERE d.post_id = p.id), '[]'::json) AS deliveries
          FROM post_deliveries f JOIN posts p ON p.id = f.post_id
          WHERE f.workspace_id = ${workspaceId} AND f.platform = 'feed' AND f.status = 'posted'
            AND (${page.after === undefined} OR (f.posted_at, f.post_id) < (${page.after?.createdAt ?? null}::timestamptz, ${page.after?.id ?? null}::text))
          ORDER BY f.posted_at DESC, f.post_id DESC
          LIMIT ${page.limit + 1}`.pipe(
          // Keyed by when each went out on the feed, not when it was made.
          Effect.map((rows) =>
            pageOf(
              rows.map((row) => ({ view: toView(row), createdAt: row.feed_at, id: row.id })),
              page.limit
            )
          ),
          Effect.map((paged) => ({ rows: paged.rows.map((row) => row.view), next: paged.next })),
          Effect.orDie
        ),
      feedHasMedia: (workspaceId, mediaId) =>
        lean<{ readonly one: number }>`
          SELECT 1 AS one FROM post_deliveries f JOIN posts p ON p.id = f.post_id
          WHERE f.workspace_id = ${workspaceId} AND f.platform = 'feed' AND f.status = 'posted'
            AND p.media @> ${JSON.stringify([{ id: mediaId }])}::jsonb
          LIMIT 1`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      feedPost: (workspaceId, id) =>
        lean<ViewRow>`
          SELECT p.*, COALESCE((SELECT json_agg(d ORDER BY d.created_at, d.id) FROM post_deliveries d WHERE d.post_id = p.id), '[]'::json) AS deliveries
          FROM post_deliveries f JOIN posts p ON p.id = f.post_id
          WHERE f.workspace_id = ${workspaceId} AND f.post_id = ${id} AND f.platform = 'feed' AND f.status = 'posted'`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toView)),
          Effect.orDie
        )
    }
  })
)
