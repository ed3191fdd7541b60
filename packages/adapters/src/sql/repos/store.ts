import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import {
  type Product,
  type ProductFields,
  type ProductKind,
  ProductsRepo,
  type ProductStatus,
  StoreFeedRepo,
  type StoreSettings,
  StoreSettingsRepo
} from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"
import { type EventRow, toEventRecord } from "./event-rows.js"
import { feedRowsFilter } from "./feed-filter.js"

interface ProductRow {
  readonly id: string
  readonly workspace_id: string
  readonly kind: ProductKind
  readonly custom_ai_id: string | null
  readonly status: ProductStatus
  readonly fields: unknown
  readonly created_at: Date
  readonly updated_at: Date
  readonly published_at: Date | null
}

const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  workspaceId: row.workspace_id,
  kind: row.kind,
  customAiId: row.custom_ai_id,
  status: row.status,
  // Products stored before paid questions have no `answer_within_days`: theirs is null.
  fields: { answer_within_days: null, ...(jsonColumn(row.fields) as Partial<ProductFields>) } as ProductFields,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  publishedAt: row.published_at
})

/** `ProductsRepo` over SQL: fields as one jsonb document, state and times as columns. */
export const ProductsRepoSql = Layer.effect(
  ProductsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      insert: (p) =>
        lean`INSERT INTO store_products (id, workspace_id, kind, custom_ai_id, status, fields, created_at, updated_at, published_at)
            VALUES (${p.id}, ${p.workspaceId}, ${p.kind}, ${p.customAiId}, ${p.status}, ${JSON.stringify(p.fields)}::jsonb,
                    ${p.createdAt}, ${p.updatedAt}, ${p.publishedAt})
            ON CONFLICT (custom_ai_id) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      find: (workspaceId, id) =>
        lean<ProductRow>`SELECT * FROM store_products WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toProduct)),
          Effect.orDie
        ),
      findById: (id) =>
        lean<ProductRow>`SELECT * FROM store_products WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toProduct)),
          Effect.orDie
        ),
      findMany: (workspaceId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<ProductRow>`SELECT * FROM store_products
                            WHERE workspace_id = ${workspaceId} AND ${sql.in("id", ids)}`.pipe(
              Effect.map((rows) => rows.map(toProduct)),
              Effect.orDie
            ),
      findByCustomAi: (workspaceId, customAiId) =>
        lean<ProductRow>`SELECT * FROM store_products
                          WHERE workspace_id = ${workspaceId} AND custom_ai_id = ${customAiId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toProduct)),
          Effect.orDie
        ),
      update: (p) =>
        lean`UPDATE store_products SET status = ${p.status}, fields = ${JSON.stringify(p.fields)}::jsonb,
              updated_at = ${p.updatedAt}, published_at = ${p.publishedAt}
            WHERE workspace_id = ${p.workspaceId} AND id = ${p.id}`.pipe(Effect.asVoid, Effect.orDie),
      listAll: (workspaceId) =>
        lean<ProductRow>`SELECT * FROM store_products WHERE workspace_id = ${workspaceId}
                        ORDER BY created_at DESC, id DESC`.pipe(
          Effect.map((rows) => rows.map(toProduct)),
          Effect.orDie
        ),
      listPage: (workspaceId, filter, page) => {
        const status = filter.status ? sql`AND status = ${filter.status}` : sql``
        const createdAfter = filter.after ? sql`AND created_at > ${filter.after}` : sql``
        const createdBefore = filter.before ? sql`AND created_at < ${filter.before}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<ProductRow>`SELECT * FROM store_products WHERE workspace_id = ${workspaceId}
                               ${status} ${createdAfter} ${createdBefore} ${after}
                               ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toProduct), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)

interface SettingsRow {
  readonly workspace_id: string
  readonly support_email: string | null
  readonly card_processor: "connected" | "none"
  readonly email_list_add_buyers: boolean
  readonly email_double_opt_in: boolean
}

/** `StoreSettingsRepo` over SQL. */
export const StoreSettingsRepoSql = Layer.effect(
  StoreSettingsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      find: (workspaceId) =>
        lean<SettingsRow>`SELECT * FROM store_settings WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) =>
            Option.map(
              Option.fromNullable(rows[0]),
              (row): StoreSettings => ({
                workspaceId: row.workspace_id,
                supportEmail: row.support_email,
                cardProcessor: row.card_processor,
                emailListAddBuyers: row.email_list_add_buyers,
                emailDoubleOptIn: row.email_double_opt_in
              })
            )
          ),
          Effect.orDie
        ),
      save: (s) =>
        lean`INSERT INTO store_settings (workspace_id, support_email, card_processor, email_list_add_buyers,
                                         email_double_opt_in)
            VALUES (${s.workspaceId}, ${s.supportEmail}, ${s.cardProcessor}, ${s.emailListAddBuyers},
                    ${s.emailDoubleOptIn})
            ON CONFLICT (workspace_id) DO UPDATE SET support_email = EXCLUDED.support_email,
              card_processor = EXCLUDED.card_processor, email_list_add_buyers = EXCLUDED.email_list_add_buyers,
              email_double_opt_in = EXCLUDED.email_double_opt_in`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)

/** `StoreFeedRepo`: the polling feeds read the shared event log. */
export const StoreFeedRepoSql = Layer.effect(
  StoreFeedRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      recent: (workspaceId, query) => {
        const product = query.productId === undefined ? sql`` : sql`AND data->>'product_id' = ${query.productId}`
        // Tag names never change, so the name an event carries is the tag's name now.
        const tag =
          query.tag === undefined
            ? sql``
            : sql`AND (data->>'tag_id' = ${query.tag} OR lower(data->>'tag_name') = ${query.tag.toLowerCase()})`
        const quiz = query.quizId === undefined ? sql`` : sql`AND data->>'quiz_id' = ${query.quizId}`
        return sql<EventRow>`SELECT id, workspace_id, type, created_at, data FROM events
                             WHERE ${feedRowsFilter(sql, workspaceId, query)}
                               AND created_at > ${query.since} ${product} ${tag} ${quiz}
                             ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`.pipe(
          Effect.map((rows) => rows.map(toEventRecord)),
          Effect.orDie
        )
      }
    }
  })
)
