import { withSpan } from "@svc/core/shared"
import { type HeldSubscription, type Subscription, SubscriptionsRepo } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface SubscriptionRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly email: string
  readonly name: string | null
  readonly billing: Subscription["billing"]
  readonly amount_cents: number
  readonly period_months: number
  readonly test: boolean
  readonly state: Subscription["state"]
  readonly stop_reason: string | null
  readonly renews_at: Date
  readonly renewals: number
  readonly claim_token: string | null
  readonly created_at: Date
}

const toHeld = (row: SubscriptionRow): HeldSubscription => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  email: row.email,
  name: row.name,
  billing: row.billing,
  amountCents: Number(row.amount_cents),
  periodMonths: Number(row.period_months),
  test: row.test,
  state: row.state,
  stopReason: row.stop_reason,
  renewsAt: row.renews_at,
  renewals: Number(row.renewals),
  claimToken: row.claim_token ?? "",
  createdAt: row.created_at
})

/**
 * `SubscriptionsRepo` over SQL. A claim moves `run_after` to the lease's end, so a held subscription is not due again
 * until its holder lets go of it (a move sets `run_after` to the next renewal) or the lease runs out.
 */
export const SubscriptionsRepoSql = Layer.effect(
  SubscriptionsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insert: (s) =>
        lean`INSERT INTO store_subscriptions (id, workspace_id, product_id, email, name, billing, amount_cents,
              period_months, test, state, stop_reason, renews_at, renewals, run_after, created_at, updated_at)
            VALUES (${s.id}, ${s.workspaceId}, ${s.productId}, ${s.email}, ${s.name}, ${s.billing}, ${s.amountCents},
              ${s.periodMonths}, ${s.test}, ${s.state}, ${s.stopReason}, ${s.renewsAt}, ${s.renewals}, ${s.renewsAt},
              ${s.createdAt}, ${s.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      claimDue: (claim, limit) =>
        lean<SubscriptionRow>`
          UPDATE store_subscriptions AS s
          SET claim_token = ${claim.claimToken}, lease_until = ${claim.leaseUntil}, run_after = ${claim.leaseUntil}
          FROM (
            SELECT id FROM store_subscriptions
            WHERE state = 'active' AND run_after <= ${claim.now}
            ORDER BY run_after
            LIMIT ${limit}::int
            FOR UPDATE SKIP LOCKED
          ) AS due
          WHERE s.id = due.id
          RETURNING s.*`.pipe(
          Effect.map((rows) => rows.map(toHeld)),
          Effect.orDie,
          withSpan("SubscriptionsRepo.claimDue", { captureStackTrace: false })
        ),
      lockClaimed: (id, claimToken) =>
        lean<SubscriptionRow>`SELECT * FROM store_subscriptions
                              WHERE id = ${id} AND claim_token = ${claimToken} AND state = 'active' FOR UPDATE`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toHeld)),
          Effect.orDie
        ),
      move: (id, claimToken, change) =>
        lean`UPDATE store_subscriptions
             SET state = ${change.state}, stop_reason = ${change.stopReason}, renews_at = ${change.renewsAt},
                 renewals = ${change.renewals}, run_after = ${change.renewsAt}, claim_token = NULL, lease_until = NULL,
                 updated_at = ${change.at}
             WHERE id = ${id} AND claim_token = ${claimToken}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)
