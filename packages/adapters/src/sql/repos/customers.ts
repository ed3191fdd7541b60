import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import { AccessRepo, type AccessHow, type AccessState, type Customer, type ProductAccess } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"
import { personListFilters } from "./person-list.js"

interface AccessRow {
  readonly workspace_id: string
  readonly product_id: string
  readonly email: string
  readonly name: string | null
  readonly state: AccessState
  readonly how: AccessHow | null
  readonly order_id: string | null
  readonly subscription_id: string | null
  readonly paid_until: Date | null
  readonly ends_at: Date | null
  readonly via_bundle_id: string | null
  readonly granted_at: Date | null
  readonly updated_at: Date
}

interface CustomerRow {
  readonly id: string
  readonly workspace_id: string
  readonly email: string
  readonly name: string | null
  readonly created_at: Date
}

const toAccess = (row: AccessRow): ProductAccess => ({
  workspaceId: row.workspace_id,
  productId: row.product_id,
  email: row.email,
  name: row.name,
  state: row.state,
  how: row.how,
  orderId: row.order_id,
  subscriptionId: row.subscription_id,
  paidUntil: row.paid_until,
  endsAt: row.ends_at,
  viaBundleId: row.via_bundle_id,
  grantedAt: row.granted_at,
  updatedAt: row.updated_at
})

const toCustomer = (row: CustomerRow): Customer => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  name: row.name,
  createdAt: row.created_at
})

/** `AccessRepo` over SQL: customers, and one access row per person and product. */
export const AccessRepoSql = Layer.effect(
  AccessRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      lock: (workspaceId, productId, email, at) =>
        Effect.zipRight(
          lean`INSERT INTO store_access (workspace_id, product_id, email, state, updated_at)
              VALUES (${workspaceId}, ${productId}, ${email}, 'none', ${at})
              ON CONFLICT (workspace_id, product_id, email) DO NOTHING`,
          lean<AccessRow>`SELECT * FROM store_access
                         WHERE workspace_id = ${workspaceId} AND product_id = ${productId} AND email = ${email}
                         FOR UPDATE`
        ).pipe(
          Effect.flatMap((rows) =>
            rows[0] === undefined
              ? Effect.dieMessage("the access row vanished under its lock")
              : Effect.succeed(toAccess(rows[0]))
          ),
          Effect.orDie
        ),
      save: (a) =>
        lean`UPDATE store_access SET name = ${a.name}, state = ${a.state}, how = ${a.how}, order_id = ${a.orderId},
              subscription_id = ${a.subscriptionId}, paid_until = ${a.paidUntil}, ends_at = ${a.endsAt},
              via_bundle_id = ${a.viaBundleId}, granted_at = ${a.grantedAt}, updated_at = ${a.updatedAt}
            WHERE workspace_id = ${a.workspaceId} AND product_id = ${a.productId} AND email = ${a.email}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      ensureCustomer: (c) =>
        lean`INSERT INTO store_customers (id, workspace_id, email, name, created_at)
            VALUES (${c.id}, ${c.workspaceId}, ${c.email}, ${c.name}, ${c.createdAt})
            ON CONFLICT (workspace_id, email) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      findCustomer: (workspaceId, email) =>
        lean<CustomerRow>`SELECT * FROM store_customers WHERE workspace_id = ${workspaceId} AND email = ${email}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCustomer)),
          Effect.orDie
        ),
      accessOf: (workspaceId, email, productId) => {
        const product = productId === undefined ? sql`` : sql`AND product_id = ${productId}`
        return sql<AccessRow>`SELECT * FROM store_access
                              WHERE workspace_id = ${workspaceId} AND email = ${email} AND state <> 'none' ${product}
                              ORDER BY granted_at DESC NULLS LAST, product_id`.pipe(
          Effect.map((rows) => rows.map(toAccess)),
          Effect.orDie
        )
      },
      listCustomers: (workspaceId, filter, page) => {
        // "Has access" as in `hasAccess`: active, or cancelled with time left.
        const live = sql`(a.state = 'active' OR (a.state = 'cancelled' AND (a.ends_at IS NULL OR a.ends_at > ${filter.now})))`
        const scope = filter.productId === undefined ? sql`` : sql`AND a.product_id = ${filter.productId}`
        const access =
          filter.hasAccess === undefined
            ? filter.productId === undefined
              ? sql``
              : sql`AND EXISTS (SELECT 1 FROM store_access a WHERE a.workspace_id = c.workspace_id AND a.email = c.email
                                AND a.state <> 'none' ${scope})`
            : filter.hasAccess
              ? sql`AND EXISTS (SELECT 1 FROM store_access a WHERE a.workspace_id = c.workspace_id AND a.email = c.email
                                ${scope} AND ${live})`
              : sql`AND NOT EXISTS (SELECT 1 FROM store_access a WHERE a.workspace_id = c.workspace_id
                                    AND a.email = c.email ${scope} AND ${live})`
        const listed = personListFilters(sql, filter, page)
        return sql<CustomerRow>`SELECT c.* FROM store_customers c WHERE c.workspace_id = ${workspaceId}
                                ${access} ${listed}
                                ORDER BY c.created_at DESC, c.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toCustomer), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
