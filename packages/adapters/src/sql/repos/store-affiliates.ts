import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import {
  type Affiliate,
  type AffiliateProgram,
  AffiliatesRepo,
  type AffiliateStatus,
  type Commission,
  type CommissionKind
} from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface ProgramRow {
  readonly workspace_id: string
  readonly product_id: string
  readonly commission_kind: CommissionKind
  readonly commission_value: number
  readonly cookie_days: number
  readonly approval: boolean
  readonly active: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

const toProgram = (row: ProgramRow): AffiliateProgram => ({
  workspaceId: row.workspace_id,
  productId: row.product_id,
  commissionKind: row.commission_kind,
  commissionValue: Number(row.commission_value),
  cookieDays: Number(row.cookie_days),
  approval: row.approval,
  active: row.active,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

interface AffiliateRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly email: string
  readonly name: string | null
  readonly code: string
  readonly status: AffiliateStatus
  readonly note: string | null
  readonly created_at: Date
  readonly decided_at: Date | null
}

const toAffiliate = (row: AffiliateRow): Affiliate => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  email: row.email,
  name: row.name,
  code: row.code,
  status: row.status,
  note: row.note,
  createdAt: row.created_at,
  decidedAt: row.decided_at
})

interface CommissionRow {
  readonly id: string
  readonly workspace_id: string
  readonly affiliate_id: string
  readonly product_id: string
  readonly sale_id: string
  readonly subscription_id: string | null
  readonly payment: "first" | "renewal"
  readonly amount_cents: number
  readonly commission_cents: number
  readonly currency: string
  readonly test: boolean
  readonly created_at: Date
  readonly reversed_at: Date | null
}

const toCommission = (row: CommissionRow): Commission => ({
  id: row.id,
  workspaceId: row.workspace_id,
  affiliateId: row.affiliate_id,
  productId: row.product_id,
  saleId: row.sale_id,
  subscriptionId: row.subscription_id,
  payment: row.payment,
  amountCents: Number(row.amount_cents),
  commissionCents: Number(row.commission_cents),
  currency: row.currency,
  test: row.test,
  createdAt: row.created_at,
  reversedAt: row.reversed_at
})

const oneAffiliate = (rows: ReadonlyArray<AffiliateRow>) => Option.map(Option.fromNullable(rows[0]), toAffiliate)

/** `AffiliatesRepo` over SQL: a code once per store, one affiliate per person and product, one commission per key. */
export const AffiliatesRepoSql = Layer.effect(
  AffiliatesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      findProgram: (workspaceId, productId) =>
        lean<ProgramRow>`SELECT * FROM store_affiliate_programs
                         WHERE workspace_id = ${workspaceId} AND product_id = ${productId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toProgram)),
          Effect.orDie
        ),
      saveProgram: (p) =>
        lean`INSERT INTO store_affiliate_programs (workspace_id, product_id, commission_kind, commission_value,
               cookie_days, approval, active, created_at, updated_at)
             VALUES (${p.workspaceId}, ${p.productId}, ${p.commissionKind}, ${p.commissionValue}, ${p.cookieDays},
               ${p.approval}, ${p.active}, ${p.createdAt}, ${p.updatedAt})
             ON CONFLICT (workspace_id, product_id) DO UPDATE SET commission_kind = excluded.commission_kind,
               commission_value = excluded.commission_value, cookie_days = excluded.cookie_days,
               approval = excluded.approval, active = excluded.active, updated_at = excluded.updated_at`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      insertAffiliate: (a) =>
        lean`INSERT INTO store_affiliates (id, workspace_id, product_id, email, name, code, status, note, created_at,
               decided_at)
             VALUES (${a.id}, ${a.workspaceId}, ${a.productId}, ${a.email}, ${a.name}, ${a.code}, ${a.status},
               ${a.note}, ${a.createdAt}, ${a.decidedAt})
             ON CONFLICT DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      findAffiliate: (workspaceId, id) =>
        lean<AffiliateRow>`SELECT * FROM store_affiliates WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map(oneAffiliate),
          Effect.orDie
        ),
      findByCode: (workspaceId, code) =>
        lean<AffiliateRow>`SELECT * FROM store_affiliates WHERE workspace_id = ${workspaceId} AND code = ${code}`.pipe(
          Effect.map(oneAffiliate),
          Effect.orDie
        ),
      findByEmail: (workspaceId, productId, email) =>
        lean<AffiliateRow>`SELECT * FROM store_affiliates
                           WHERE workspace_id = ${workspaceId} AND product_id = ${productId} AND email = ${email}`.pipe(
          Effect.map(oneAffiliate),
          Effect.orDie
        ),
      setStatus: (workspaceId, id, status, at) =>
        lean`UPDATE store_affiliates SET status = ${status}, decided_at = ${at}
             WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      listAffiliates: (workspaceId, filter, page) => {
        const product = filter.productId ? sql`AND product_id = ${filter.productId}` : sql``
        const status = filter.status ? sql`AND status = ${filter.status}` : sql``
        const createdAfter = filter.after ? sql`AND created_at > ${filter.after}` : sql``
        const createdBefore = filter.before ? sql`AND created_at < ${filter.before}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<AffiliateRow>`SELECT * FROM store_affiliates WHERE workspace_id = ${workspaceId}
                                 ${product} ${status} ${createdAfter} ${createdBefore} ${after}
                                 ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toAffiliate), page.limit)),
          Effect.orDie
        )
      },
      insertCommission: (c, key) =>
        lean`INSERT INTO store_affiliate_commissions (id, workspace_id, affiliate_id, product_id, sale_id,
               subscription_id, payment, amount_cents, commission_cents, currency, test, key, created_at, reversed_at)
             VALUES (${c.id}, ${c.workspaceId}, ${c.affiliateId}, ${c.productId}, ${c.saleId}, ${c.subscriptionId},
               ${c.payment}, ${c.amountCents}, ${c.commissionCents}, ${c.currency}, ${c.test}, ${key}, ${c.createdAt},
               ${c.reversedAt})
             ON CONFLICT (workspace_id, key) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      firstOfSubscription: (workspaceId, productId, subscriptionId) =>
        lean<CommissionRow>`SELECT * FROM store_affiliate_commissions
                            WHERE workspace_id = ${workspaceId} AND product_id = ${productId}
                              AND subscription_id = ${subscriptionId} AND payment = 'first' AND reversed_at IS NULL
                            ORDER BY created_at LIMIT 1`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCommission)),
          Effect.orDie
        ),
      reverseSale: (workspaceId, saleId, at) =>
        lean`UPDATE store_affiliate_commissions SET reversed_at = ${at}
             WHERE workspace_id = ${workspaceId} AND sale_id = ${saleId} AND reversed_at IS NULL
             RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      payoutTotals: (workspaceId, affiliateId, from, to) =>
        lean<{ sales: number; amount: number; commission: number; reversed: number; test: number }>`
          SELECT count(*) FILTER (WHERE reversed_at IS NULL AND NOT test)::int AS sales,
                 coalesce(sum(amount_cents) FILTER (WHERE reversed_at IS NULL AND NOT test), 0)::bigint AS amount,
                 coalesce(sum(commission_cents) FILTER (WHERE reversed_at IS NULL AND NOT test), 0)::bigint AS commission,
                 coalesce(sum(commission_cents) FILTER (WHERE reversed_at IS NOT NULL AND NOT test), 0)::bigint AS reversed,
                 coalesce(sum(commission_cents) FILTER (WHERE reversed_at IS NULL AND test), 0)::bigint AS test
          FROM store_affiliate_commissions
          WHERE workspace_id = ${workspaceId} AND affiliate_id = ${affiliateId}
            AND created_at >= ${from} AND created_at < ${to}`.pipe(
          Effect.map((rows) => ({
            sales: Number(rows[0]?.sales ?? 0),
            amountCents: Number(rows[0]?.amount ?? 0),
            commissionCents: Number(rows[0]?.commission ?? 0),
            reversedCents: Number(rows[0]?.reversed ?? 0),
            testCommissionCents: Number(rows[0]?.test ?? 0)
          })),
          Effect.orDie
        )
    }
  })
)
