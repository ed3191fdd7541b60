import * as SqlClient from "@effect/sql/SqlClient"
import { BundlesRepo } from "@svc/core/store"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"

interface ItemRow {
  readonly bundle_id: string
  readonly product_id: string
}

/** `BundlesRepo` over SQL: `store_bundle_items` rows, and `store_access.via_bundle_id`. */
export const BundlesRepoSql = Layer.effect(
  BundlesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      items: (workspaceId, bundleId) =>
        lean<ItemRow>`SELECT bundle_id, product_id FROM store_bundle_items
                     WHERE workspace_id = ${workspaceId} AND bundle_id = ${bundleId} ORDER BY position`.pipe(
          Effect.map((rows) => rows.map((r) => r.product_id)),
          Effect.orDie
        ),
      itemsOf: (workspaceId, bundleIds) =>
        sql<ItemRow>`SELECT bundle_id, product_id FROM store_bundle_items
                     WHERE workspace_id = ${workspaceId} AND ${sql.in("bundle_id", bundleIds)}
                     ORDER BY bundle_id, position`.pipe(
          Effect.map((rows) => {
            const byBundle = new Map<string, Array<string>>()
            for (const row of rows) {
              const list = byBundle.get(row.bundle_id) ?? []
              list.push(row.product_id)
              byBundle.set(row.bundle_id, list)
            }
            return byBundle as ReadonlyMap<string, ReadonlyArray<string>>
          }),
          Effect.orDie
        ),
      setItems: (workspaceId, bundleId, productIds) =>
        Effect.gen(function* () {
          yield* lean`DELETE FROM store_bundle_items WHERE workspace_id = ${workspaceId} AND bundle_id = ${bundleId}`
          yield* Effect.forEach(
            productIds,
            (productId, position) =>
              lean`INSERT INTO store_bundle_items (workspace_id, bundle_id, product_id, position)
                  VALUES (${workspaceId}, ${bundleId}, ${productId}, ${position})`,
            { discard: true }
          )
        }).pipe(Effect.orDie),
      bundlesWith: (workspaceId, productId) =>
        lean<ItemRow>`SELECT bundle_id, product_id FROM store_bundle_items
                     WHERE workspace_id = ${workspaceId} AND product_id = ${productId} ORDER BY bundle_id`.pipe(
          Effect.map((rows) => rows.map((r) => r.bundle_id)),
          Effect.orDie
        ),
      givenBy: (workspaceId, bundleId, email) =>
        lean<{ readonly product_id: string }>`SELECT product_id FROM store_access
                     WHERE workspace_id = ${workspaceId} AND via_bundle_id = ${bundleId} AND email = ${email}
                     ORDER BY product_id`.pipe(
          Effect.map((rows) => rows.map((r) => r.product_id)),
          Effect.orDie
        )
    }
  })
)
