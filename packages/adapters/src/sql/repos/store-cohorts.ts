import * as SqlClient from "@effect/sql/SqlClient"
import { type CohortMember, CohortsRepo, type CohortWithMembers, WaitlistRepo } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface CohortRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly name: string
  readonly capacity: number | null
  readonly starts_on: string | null
  readonly created_at: Date
  readonly members: number | string
}

interface MemberRow {
  readonly workspace_id: string
  readonly product_id: string
  readonly email: string
  readonly cohort_id: string
  readonly name: string | null
  readonly over_cap: boolean
  readonly joined_at: Date
}

// count(*) is a bigint: PostgreSQL's driver answers it as text, PGlite as a number.
const toCohort = (row: CohortRow): CohortWithMembers => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  name: row.name,
  capacity: row.capacity,
  startsOn: row.starts_on,
  createdAt: row.created_at,
  members: Number(row.members)
})

/** `CohortsRepo` over SQL: member counts are counted, never stored, so they cannot drift. */
export const CohortsRepoSql = Layer.effect(
  CohortsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    const members = sql`(SELECT count(*) FROM store_cohort_members m WHERE m.cohort_id = c.id)`
    return {
      insert: (c) =>
        lean`INSERT INTO store_cohorts (id, workspace_id, product_id, name, capacity, starts_on, created_at)
            VALUES (${c.id}, ${c.workspaceId}, ${c.productId}, ${c.name}, ${c.capacity}, ${c.startsOn}, ${c.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      update: (c) =>
        lean`UPDATE store_cohorts SET name = ${c.name}, capacity = ${c.capacity}, starts_on = ${c.startsOn}
            WHERE workspace_id = ${c.workspaceId} AND id = ${c.id}`.pipe(Effect.asVoid, Effect.orDie),
      listForProduct: (workspaceId, productId) =>
        sql<CohortRow>`SELECT c.*, ${members} AS members FROM store_cohorts c
                       WHERE c.workspace_id = ${workspaceId} AND c.product_id = ${productId}
                       ORDER BY c.starts_on ASC NULLS LAST, c.created_at, c.id`.pipe(
          Effect.map((rows) => rows.map(toCohort)),
          Effect.orDie
        ),
      // Two statements on purpose: under READ COMMITTED the count runs after the lock is held, so it
      // sees every member the previous holder of the lock committed.
      lock: (workspaceId, cohortId) =>
        lean`SELECT id FROM store_cohorts WHERE workspace_id = ${workspaceId} AND id = ${cohortId} FOR UPDATE`.pipe(
          Effect.zipRight(
            sql<CohortRow>`SELECT c.*, ${members} AS members FROM store_cohorts c
                           WHERE c.workspace_id = ${workspaceId} AND c.id = ${cohortId}`
          ),
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCohort)),
          Effect.orDie
        ),
      membershipOf: (workspaceId, productId, email) =>
        lean<MemberRow>`SELECT * FROM store_cohort_members
                       WHERE workspace_id = ${workspaceId} AND product_id = ${productId} AND email = ${email}`.pipe(
          Effect.map((rows) =>
            Option.map(
              Option.fromNullable(rows[0]),
              (row): CohortMember => ({
                workspaceId: row.workspace_id,
                productId: row.product_id,
                cohortId: row.cohort_id,
                email: row.email,
                name: row.name,
                overCap: row.over_cap,
                joinedAt: row.joined_at
              })
            )
          ),
          Effect.orDie
        ),
      place: (m) =>
        lean`INSERT INTO store_cohort_members (workspace_id, product_id, email, cohort_id, name, over_cap, joined_at)
            VALUES (${m.workspaceId}, ${m.productId}, ${m.email}, ${m.cohortId}, ${m.name}, ${m.overCap}, ${m.joinedAt})
            ON CONFLICT (workspace_id, product_id, email) DO UPDATE SET cohort_id = EXCLUDED.cohort_id,
              name = EXCLUDED.name, over_cap = EXCLUDED.over_cap, joined_at = EXCLUDED.joined_at`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
)

/** `WaitlistRepo` over SQL: places are counted from the access rows, the waitlist is its own table. */
export const WaitlistRepoSql = Layer.effect(
  WaitlistRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      lockProduct: (workspaceId, productId) =>
        lean`SELECT id FROM store_products WHERE workspace_id = ${workspaceId} AND id = ${productId} FOR UPDATE`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      // "Has access" as in `hasAccess`: active, or cancelled with time left.
      holders: (workspaceId, productId, now, exceptEmail) =>
        // A buyer on a live processor's payment page holds a place until the page expires (see HostedCheckout); the
        // buyer asking now does not stand in their own way (back from Stripe's page, trying again).
        lean<{ readonly n: number | string }>`SELECT
            (SELECT count(*) FROM store_access
              WHERE workspace_id = ${workspaceId} AND product_id = ${productId}
                AND (state = 'active' OR (state = 'cancelled' AND (ends_at IS NULL OR ends_at > ${now}))))
            + (SELECT count(*) FROM store_hosted_checkouts
                WHERE workspace_id = ${workspaceId} AND product_id = ${productId}
                  AND state IN ('opening', 'open') AND expires_at > ${now}
                  AND email <> ${exceptEmail ?? ""}) AS n`.pipe(
          Effect.map((rows) => Number(rows[0]?.n ?? 0)),
          Effect.orDie
        ),
      join: (e) =>
        lean`INSERT INTO store_waitlist (workspace_id, product_id, email, name, reason, created_at)
            VALUES (${e.workspaceId}, ${e.productId}, ${e.email}, ${e.name}, ${e.reason}, ${e.createdAt})
            ON CONFLICT (workspace_id, product_id, email) DO NOTHING RETURNING email`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      leave: (workspaceId, productId, email) =>
        lean`DELETE FROM store_waitlist
            WHERE workspace_id = ${workspaceId} AND product_id = ${productId} AND email = ${email}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      waiting: (workspaceId, productId) =>
        lean<{ readonly n: number | string }>`SELECT count(*) AS n FROM store_waitlist
          WHERE workspace_id = ${workspaceId} AND product_id = ${productId}`.pipe(
          Effect.map((rows) => Number(rows[0]?.n ?? 0)),
          Effect.orDie
        )
    }
  })
)
