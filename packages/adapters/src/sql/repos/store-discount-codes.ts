import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import { type DiscountCode, DiscountCodesRepo, type DiscountKind, discountCodeKey } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface DiscountCodeRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly code: string
  readonly code_key: string
  readonly kind: DiscountKind
  readonly percent_off: number | null
  readonly amount_off_cents: number | null
  readonly max_uses: number | null
  readonly uses: number
  readonly expires_at: Date | null
  readonly disabled_at: Date | null
  readonly created_at: Date
}

const toDiscountCode = (row: DiscountCodeRow): DiscountCode => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  code: row.code,
  kind: row.kind,
  percentOff: row.percent_off,
  amountOffCents: row.amount_off_cents,
  maxUses: row.max_uses,
  uses: row.uses,
  expiresAt: row.expires_at,
  disabledAt: row.disabled_at,
  createdAt: row.created_at
})

const one = (rows: ReadonlyArray<DiscountCodeRow>) => Option.map(Option.fromNullable(rows[0]), toDiscountCode)

/**
 * `DiscountCodesRepo` over SQL: codes are unique per store by their upper-case key, and a use is counted by one
 * guarded `UPDATE`, so concurrent checkouts never take a code past `max_uses` (the row lock orders them, and each
 * re-checks the guard on the row the one before it left).
 */
export const DiscountCodesRepoSql = Layer.effect(
  DiscountCodesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      insert: (c) =>
        lean`INSERT INTO store_discount_codes (id, workspace_id, product_id, code, code_key, kind, percent_off,
              amount_off_cents, max_uses, uses, expires_at, disabled_at, created_at)
            VALUES (${c.id}, ${c.workspaceId}, ${c.productId}, ${c.code}, ${discountCodeKey(c.code)}, ${c.kind},
              ${c.percentOff}, ${c.amountOffCents}, ${c.maxUses}, ${c.uses}, ${c.expiresAt}, ${c.disabledAt},
              ${c.createdAt})
            ON CONFLICT (workspace_id, code_key) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      find: (workspaceId, id) =>
        lean<DiscountCodeRow>`SELECT * FROM store_discount_codes WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      findByCode: (workspaceId, code) =>
        lean<DiscountCodeRow>`SELECT * FROM store_discount_codes
            WHERE workspace_id = ${workspaceId} AND code_key = ${discountCodeKey(code)}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      listPage: (workspaceId, filter, page) => {
        const product = filter.productId ? sql`AND product_id = ${filter.productId}` : sql``
        const createdAfter = filter.after ? sql`AND created_at > ${filter.after}` : sql``
        const createdBefore = filter.before ? sql`AND created_at < ${filter.before}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<DiscountCodeRow>`SELECT * FROM store_discount_codes WHERE workspace_id = ${workspaceId}
                                    ${product} ${createdAfter} ${createdBefore} ${after}
                                    ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toDiscountCode), page.limit)),
          Effect.orDie
        )
      },
      // The first time a code was turned off stays its time: a second disable changes nothing.
      disable: (workspaceId, id, at) =>
        lean<DiscountCodeRow>`UPDATE store_discount_codes SET disabled_at = COALESCE(disabled_at, ${at})
            WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING *`.pipe(Effect.map(one), Effect.orDie),
      use: (workspaceId, id, at) =>
        lean`UPDATE store_discount_codes SET uses = uses + 1
            WHERE workspace_id = ${workspaceId} AND id = ${id} AND disabled_at IS NULL
              AND (expires_at IS NULL OR expires_at > ${at}) AND (max_uses IS NULL OR uses < max_uses)
            RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      giveBack: (workspaceId, id) =>
        lean`UPDATE store_discount_codes SET uses = uses - 1
            WHERE workspace_id = ${workspaceId} AND id = ${id} AND uses > 0`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)
