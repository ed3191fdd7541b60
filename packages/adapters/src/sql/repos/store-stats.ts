import * as SqlClient from "@effect/sql/SqlClient"
import { StoreStatsRepo } from "@svc/core/store"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"
import { type EventRow, toEventRecord } from "./event-rows.js"

// count(*) and SUM of integers are bigints: PostgreSQL's driver answers them as text, PGlite as numbers.
type Big = number | string | null
const num = (value: Big | undefined): number => Number(value ?? 0)

interface FigureRow {
  readonly revenue_cents: Big
  readonly sales: Big
  readonly refunds: Big
  readonly refunded_cents: Big
  readonly new_customers: Big
  readonly active_memberships: Big
}

interface TopRow {
  readonly product_id: string
  readonly product_title: string
  readonly sales: Big
  readonly revenue_cents: Big
}

/** `StoreStatsRepo` over SQL: every figure is one aggregate over the sales, customers, access and event rows. */
export const StoreStatsRepoSql = Layer.effect(
  StoreStatsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      productCounts: (workspaceId) =>
        lean<{ readonly products: Big; readonly live: Big; readonly own_checkout: Big }>`SELECT
            count(*) AS products,
            count(*) FILTER (WHERE status = 'live') AS live,
            count(*) FILTER (WHERE fields->>'checkout_mode' = 'external'
                               AND coalesce(fields->>'checkout_url', '') <> '') AS own_checkout
          FROM store_products WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => ({
            products: num(rows[0]?.products),
            live: num(rows[0]?.live),
            ownCheckout: num(rows[0]?.own_checkout)
          })),
          Effect.orDie
        ),
      // Test sales (the built-in test processor's) moved no money: they count in no figure.
      // Membership access at `to`: granted before it, and active, or ended only after it (a cancelled one with no
      // end day yet still has access, as `hasAccess` says).
      figures: (workspaceId, from, to) =>
        lean<FigureRow>`SELECT
            (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'paid'), 0) FROM store_sales
              WHERE workspace_id = ${workspaceId} AND NOT test AND created_at >= ${from} AND created_at < ${to}
            ) AS revenue_cents,
            (SELECT count(*) FROM store_sales
              WHERE workspace_id = ${workspaceId} AND NOT test AND created_at >= ${from} AND created_at < ${to}) AS sales,
            (SELECT count(*) FROM events
              WHERE workspace_id = ${workspaceId} AND type = 'purchase.refunded' AND data->>'test' IS DISTINCT FROM 'true'
                AND created_at >= ${from} AND created_at < ${to}) AS refunds,
            (SELECT coalesce(sum((data->>'amount_cents')::bigint), 0) FROM events
              WHERE workspace_id = ${workspaceId} AND type = 'purchase.refunded' AND data->>'test' IS DISTINCT FROM 'true'
                AND created_at >= ${from} AND created_at < ${to}) AS refunded_cents,
            (SELECT count(*) FROM store_customers
              WHERE workspace_id = ${workspaceId} AND created_at >= ${from} AND created_at < ${to}) AS new_customers,
            (SELECT count(*) FROM store_access a
              JOIN store_products p ON p.workspace_id = a.workspace_id AND p.id = a.product_id
              WHERE a.workspace_id = ${workspaceId} AND p.fields->>'billing' IN ('monthly', 'yearly')
                AND a.granted_at < ${to}
                AND (a.state = 'active'
                  OR (a.state = 'cancelled' AND a.ends_at IS NULL)
                  OR (a.state IN ('cancelled', 'ended', 'refunded', 'removed') AND a.ends_at > ${to}))
            ) AS active_memberships`.pipe(
          Effect.map((rows) => ({
            revenueCents: num(rows[0]?.revenue_cents),
            sales: num(rows[0]?.sales),
            refunds: num(rows[0]?.refunds),
            refundedCents: num(rows[0]?.refunded_cents),
            newCustomers: num(rows[0]?.new_customers),
            activeMemberships: num(rows[0]?.active_memberships)
          })),
          Effect.orDie
        ),
      topProducts: (workspaceId, from, to, limit) =>
        lean<TopRow>`SELECT product_id, max(product_title) AS product_title, count(*) AS sales,
              coalesce(sum(amount_cents) FILTER (WHERE status = 'paid'), 0) AS revenue_cents
            FROM store_sales
            WHERE workspace_id = ${workspaceId} AND NOT test AND created_at >= ${from} AND created_at < ${to}
            GROUP BY product_id
            ORDER BY revenue_cents DESC, sales DESC, product_id
            LIMIT ${limit}`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              productId: row.product_id,
              productTitle: row.product_title,
              sales: num(row.sales),
              revenueCents: num(row.revenue_cents)
            }))
          ),
          Effect.orDie
        ),
      latestEvents: (workspaceId, types, limit) =>
        types.length === 0
          ? Effect.succeed([])
          : sql<EventRow>`SELECT id, workspace_id, type, created_at, data FROM events
                          WHERE workspace_id = ${workspaceId} AND type IN ${sql.in(types)}
                          ORDER BY created_at DESC, seq DESC LIMIT ${limit}`.pipe(
              Effect.map((rows) => rows.map(toEventRecord)),
              Effect.orDie
            )
    }
  })
)
