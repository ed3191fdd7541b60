import { withSpan } from "@svc/core/shared"
import { type HeldReviewRequest, type ReviewRequest, ReviewRequestsRepo } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface ReviewRequestRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly email: string
  readonly name: string | null
  readonly key: string
  readonly state: ReviewRequest["state"]
  readonly due_at: Date
  readonly drop_reason: string | null
  readonly review_id: string | null
  readonly claim_token: string | null
  readonly created_at: Date
}

const toHeld = (row: ReviewRequestRow): HeldReviewRequest => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  email: row.email,
  name: row.name,
  key: row.key,
  state: row.state,
  dueAt: row.due_at,
  dropReason: row.drop_reason,
  reviewId: row.review_id,
  claimToken: row.claim_token ?? "",
  createdAt: row.created_at
})

const one = (rows: ReadonlyArray<ReviewRequestRow>) => Option.map(Option.fromNullable(rows[0]), toHeld)

/**
 * `ReviewRequestsRepo` over SQL, one request per buyer and product (its unique key). A claim moves `due_at` to the
 * lease's end, so a held request is not due again until the lease runs out (a crashed worker's) or it is settled.
 */
export const ReviewRequestsRepoSql = Layer.effect(
  ReviewRequestsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insertOnce: (r) =>
        lean`INSERT INTO store_review_requests (id, workspace_id, product_id, email, name, key, state, due_at,
              created_at)
            VALUES (${r.id}, ${r.workspaceId}, ${r.productId}, ${r.email}, ${r.name}, ${r.key}, ${r.state},
              ${r.dueAt}, ${r.createdAt})
            ON CONFLICT (workspace_id, product_id, email) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      claimDue: (claim, limit) =>
        lean<ReviewRequestRow>`
          UPDATE store_review_requests AS r
          SET claim_token = ${claim.claimToken}, lease_until = ${claim.leaseUntil}, due_at = ${claim.leaseUntil}
          FROM (
            SELECT id FROM store_review_requests
            WHERE state = 'waiting' AND due_at <= ${claim.now}
            ORDER BY due_at
            LIMIT ${limit}::int
            FOR UPDATE SKIP LOCKED
          ) AS due
          WHERE r.id = due.id
          RETURNING r.*`.pipe(
          Effect.map((rows) => rows.map(toHeld)),
          Effect.orDie,
          withSpan("ReviewRequestsRepo.claimDue", { captureStackTrace: false })
        ),
      lockClaimed: (id, claimToken) =>
        lean<ReviewRequestRow>`SELECT * FROM store_review_requests
                               WHERE id = ${id} AND claim_token = ${claimToken} AND state = 'waiting'
                               FOR UPDATE`.pipe(Effect.map(one), Effect.orDie),
      settle: (id, claimToken, outcome, at) =>
        lean`UPDATE store_review_requests
             SET state = ${outcome.state}, drop_reason = ${outcome.state === "dropped" ? outcome.reason : null},
                 sent_at = ${outcome.state === "sent" ? at : null}, claim_token = NULL, lease_until = NULL
             WHERE id = ${id} AND claim_token = ${claimToken}`.pipe(Effect.asVoid, Effect.orDie),
      findById: (id, lock) =>
        (lock
          ? lean<ReviewRequestRow>`SELECT * FROM store_review_requests WHERE id = ${id} FOR UPDATE`
          : lean<ReviewRequestRow>`SELECT * FROM store_review_requests WHERE id = ${id}`
        ).pipe(Effect.map(one), Effect.orDie),
      markAnswered: (id, reviewId, at) =>
        lean`UPDATE store_review_requests
             SET state = 'answered', review_id = ${reviewId}, answered_at = ${at}, claim_token = NULL,
                 lease_until = NULL
             WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)
