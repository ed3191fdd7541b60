import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import { type ProductReview, ReviewsRepo } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface ReviewRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly origin: ProductReview["origin"]
  readonly rating: number | null
  readonly text: string
  readonly name: string | null
  readonly email: string | null
  readonly source: string | null
  readonly quotable: boolean
  readonly approved: boolean
  readonly given_at: Date
  readonly created_at: Date
}

const toReview = (row: ReviewRow): ProductReview => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  origin: row.origin,
  rating: row.rating === null ? null : Number(row.rating),
  text: row.text,
  name: row.name,
  email: row.email,
  source: row.source,
  quotable: row.quotable,
  approved: row.approved,
  givenAt: row.given_at,
  createdAt: row.created_at
})

/** `ReviewsRepo` over SQL: an imported review once per product by its words and name (`store_reviews_once`). */
export const ReviewsRepoSql = Layer.effect(
  ReviewsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    const insertOne = (r: ProductReview) =>
      lean<{ id: string }>`INSERT INTO store_reviews (id, workspace_id, product_id, origin, rating, text, name, email,
            source, quotable, approved, given_at, created_at)
          VALUES (${r.id}, ${r.workspaceId}, ${r.productId}, ${r.origin}, ${r.rating}, ${r.text}, ${r.name},
            ${r.email}, ${r.source}, ${r.quotable}, ${r.approved}, ${r.givenAt}, ${r.createdAt})
          ON CONFLICT DO NOTHING RETURNING id`
    return {
      insertNew: (reviews) =>
        Effect.map(
          Effect.forEach(reviews, (review) =>
            Effect.map(insertOne(review), (rows) => (rows.length === 1 ? [review] : []))
          ),
          (added) => added.flat()
        ).pipe(Effect.orDie),
      shown: (workspaceId, productId, limit) =>
        lean<ReviewRow>`SELECT * FROM store_reviews
            WHERE workspace_id = ${workspaceId} AND product_id = ${productId} AND approved
            ORDER BY given_at DESC, id DESC LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toReview)),
          Effect.orDie
        ),
      rating: (workspaceId, productId) =>
        lean<{ count: number | string; average: number | string | null }>`SELECT count(rating) AS count,
              round(avg(rating)::numeric, 1) AS average
            FROM store_reviews WHERE workspace_id = ${workspaceId} AND product_id = ${productId}
              AND (approved OR origin = 'buyer')`.pipe(
          Effect.map((rows) => ({
            count: Number(rows[0]?.count ?? 0),
            average: rows[0]?.average == null ? null : Number(rows[0].average)
          })),
          Effect.orDie
        ),
      find: (workspaceId, id) =>
        lean<ReviewRow>`SELECT * FROM store_reviews WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toReview)),
          Effect.orDie
        ),
      setApproved: (workspaceId, id, approved) =>
        lean`UPDATE store_reviews SET approved = ${approved} WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      listPage: (workspaceId, filter, page) => {
        const product = filter.productId ? sql`AND product_id = ${filter.productId}` : sql``
        const origin = filter.origin ? sql`AND origin = ${filter.origin}` : sql``
        const createdAfter = filter.after ? sql`AND created_at > ${filter.after}` : sql``
        const createdBefore = filter.before ? sql`AND created_at < ${filter.before}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<ReviewRow>`SELECT * FROM store_reviews WHERE workspace_id = ${workspaceId}
                              ${product} ${origin} ${createdAfter} ${createdBefore} ${after}
                              ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toReview), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
