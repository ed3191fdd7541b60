import * as SqlClient from "@effect/sql/SqlClient"
import { type ContentLink, ContentLinksRepo } from "@svc/core/store"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"

interface LinkRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly title: string
  readonly url: string
  readonly position: number
  readonly created_at: Date
  readonly updated_at: Date
}

const toLink = (row: LinkRow): ContentLink => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  title: row.title,
  url: row.url,
  position: row.position,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

/** `ContentLinksRepo` over SQL: one row per link, ordered by `position` within its product. */
export const ContentLinksRepoSql = Layer.effect(
  ContentLinksRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      listForProduct: (workspaceId, productId) =>
        lean<LinkRow>`SELECT * FROM store_content_links WHERE workspace_id = ${workspaceId} AND product_id = ${productId}
                     ORDER BY position, id`.pipe(
          Effect.map((rows) => rows.map(toLink)),
          Effect.orDie
        ),
      listForProducts: (workspaceId, productIds) =>
        productIds.length === 0
          ? Effect.succeed(new Map())
          : sql<LinkRow>`SELECT * FROM store_content_links
                         WHERE workspace_id = ${workspaceId} AND product_id IN ${sql.in(productIds)}
                         ORDER BY product_id, position, id`.pipe(
              Effect.map((rows) => {
                const byProduct = new Map<string, Array<ContentLink>>()
                for (const row of rows) {
                  const list = byProduct.get(row.product_id) ?? []
                  list.push(toLink(row))
                  byProduct.set(row.product_id, list)
                }
                return byProduct as ReadonlyMap<string, ReadonlyArray<ContentLink>>
              }),
              Effect.orDie
            ),
      insert: (l) =>
        lean`INSERT INTO store_content_links (id, workspace_id, product_id, title, url, position, created_at, updated_at)
            VALUES (${l.id}, ${l.workspaceId}, ${l.productId}, ${l.title}, ${l.url}, ${l.position}, ${l.createdAt},
                    ${l.updatedAt})`.pipe(Effect.asVoid, Effect.orDie),
      setOrder: (workspaceId, productId, ids, at) =>
        Effect.forEach(
          ids,
          (id, position) =>
            lean`UPDATE store_content_links SET position = ${position}, updated_at = ${at}
                WHERE workspace_id = ${workspaceId} AND product_id = ${productId} AND id = ${id}
                  AND position <> ${position}`,
          { discard: true }
        ).pipe(Effect.orDie),
      remove: (workspaceId, productId, id) =>
        lean`DELETE FROM store_content_links
            WHERE workspace_id = ${workspaceId} AND product_id = ${productId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
)
