import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import {
  type Attribution,
  type Billing,
  type Sale,
  type SaleRowStatus,
  type SaleSource,
  SalesRepo
} from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

/** The landing link's attribution columns, as the sales and the hosted checkouts both keep them. */
export interface AttributionColumns {
  readonly utm_source: string | null
  readonly utm_medium: string | null
  readonly utm_campaign: string | null
  readonly utm_content: string | null
  readonly utm_term: string | null
  readonly fbclid: string | null
  readonly referrer: string | null
  readonly affiliate: string | null
}

interface SaleRow extends AttributionColumns {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly product_title: string
  readonly buyer_email: string
  readonly buyer_name: string | null
  readonly amount_cents: number
  readonly currency: string
  readonly billing: Billing
  readonly source: SaleSource
  readonly order_id: string | null
  readonly subscription_id: string | null
  readonly status: SaleRowStatus
  readonly discount_code: string | null
  readonly test: boolean
  readonly created_at: Date
}

/** The landing link's attribution columns of a row (a sale's, or a checkout's on its way to Stripe). */
export const attributionOfRow = (row: AttributionColumns): Attribution => ({
  utmSource: row.utm_source,
  utmMedium: row.utm_medium,
  utmCampaign: row.utm_campaign,
  utmContent: row.utm_content,
  utmTerm: row.utm_term,
  fbclid: row.fbclid,
  referrer: row.referrer,
  affiliate: row.affiliate
})

const toSale = (row: SaleRow): Sale => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  productTitle: row.product_title,
  buyerEmail: row.buyer_email,
  buyerName: row.buyer_name,
  amountCents: Number(row.amount_cents),
  currency: row.currency,
  billing: row.billing,
  source: row.source,
  orderId: row.order_id,
  subscriptionId: row.subscription_id,
  status: row.status,
  discountCode: row.discount_code,
  test: row.test,
  attribution: attributionOfRow(row),
  createdAt: row.created_at
})

/** `SalesRepo` over SQL: idempotency keys by primary key, sale rows newest first by (created_at, id). */
export const SalesRepoSql = Layer.effect(
  SalesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    const one = (rows: ReadonlyArray<SaleRow>) => Option.map(Option.fromNullable(rows[0]), toSale)
    return {
      claim: (workspaceId, key, at) =>
        lean`INSERT INTO store_order_keys (workspace_id, key, created_at) VALUES (${workspaceId}, ${key}, ${at})
            ON CONFLICT (workspace_id, key) DO NOTHING RETURNING key`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      insert: (s) =>
        lean`INSERT INTO store_sales (id, workspace_id, product_id, product_title, buyer_email, buyer_name, amount_cents,
              currency, billing, source, order_id, subscription_id, status, discount_code, test, utm_source, utm_medium,
              utm_campaign, utm_content, utm_term, fbclid, referrer, affiliate, created_at)
            VALUES (${s.id}, ${s.workspaceId}, ${s.productId}, ${s.productTitle}, ${s.buyerEmail}, ${s.buyerName},
              ${s.amountCents}, ${s.currency}, ${s.billing}, ${s.source}, ${s.orderId}, ${s.subscriptionId}, ${s.status},
              ${s.discountCode}, ${s.test}, ${s.attribution.utmSource}, ${s.attribution.utmMedium},
              ${s.attribution.utmCampaign}, ${s.attribution.utmContent}, ${s.attribution.utmTerm},
              ${s.attribution.fbclid}, ${s.attribution.referrer}, ${s.attribution.affiliate}, ${s.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      markRefunded: (workspaceId, id) =>
        lean`UPDATE store_sales SET status = 'refunded' WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      find: (workspaceId, id) =>
        lean<SaleRow>`SELECT * FROM store_sales WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      findByOrder: (workspaceId, orderId) =>
        lean<SaleRow>`SELECT * FROM store_sales WHERE workspace_id = ${workspaceId} AND order_id = ${orderId}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      listPage: (workspaceId, filter, page) => {
        const product = filter.productId ? sql`AND product_id = ${filter.productId}` : sql``
        const email = filter.email ? sql`AND buyer_email = ${filter.email}` : sql``
        const status = filter.status ? sql`AND status = ${filter.status}` : sql``
        const createdAfter = filter.after ? sql`AND created_at > ${filter.after}` : sql``
        const createdBefore = filter.before ? sql`AND created_at < ${filter.before}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<SaleRow>`SELECT * FROM store_sales WHERE workspace_id = ${workspaceId}
                            ${product} ${email} ${status} ${createdAfter} ${createdBefore} ${after}
                            ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toSale), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
