import { type HostedCheckout, HostedCheckoutsRepo, type ProcessorAccount, ProcessorAccountsRepo } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"
import { type AttributionColumns, attributionOfRow } from "./sales.js"

interface AccountRow {
  readonly workspace_id: string
  readonly processor: "stripe"
  readonly via: "key" | "connect"
  readonly account_id: string
  readonly livemode: boolean
  readonly secret_key_sealed: string | null
  readonly webhook_secret_sealed: string | null
  readonly connected_at: Date
}

const toAccount = (row: AccountRow): ProcessorAccount => ({
  workspaceId: row.workspace_id,
  processor: row.processor,
  via: row.via,
  accountId: row.account_id,
  livemode: row.livemode,
  secretKeySealed: row.secret_key_sealed,
  webhookSecretSealed: row.webhook_secret_sealed,
  connectedAt: row.connected_at
})

const oneAccount = (rows: ReadonlyArray<AccountRow>) => Option.map(Option.fromNullable(rows[0]), toAccount)

/** `ProcessorAccountsRepo` over SQL: one row per store, its keys as the sealer made them. */
export const ProcessorAccountsRepoSql = Layer.effect(
  ProcessorAccountsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      find: (workspaceId) =>
        lean<AccountRow>`SELECT * FROM store_processor_accounts WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map(oneAccount),
          Effect.orDie
        ),
      findConnected: (accountId) =>
        lean<AccountRow>`SELECT * FROM store_processor_accounts WHERE via = 'connect' AND account_id = ${accountId}`.pipe(
          Effect.map(oneAccount),
          Effect.orDie
        ),
      save: (a) =>
        lean`INSERT INTO store_processor_accounts (workspace_id, processor, via, account_id, livemode, secret_key_sealed,
              webhook_secret_sealed, connected_at)
            VALUES (${a.workspaceId}, ${a.processor}, ${a.via}, ${a.accountId}, ${a.livemode}, ${a.secretKeySealed},
              ${a.webhookSecretSealed}, ${a.connectedAt})
            ON CONFLICT (workspace_id) DO UPDATE SET processor = EXCLUDED.processor, via = EXCLUDED.via,
              account_id = EXCLUDED.account_id, livemode = EXCLUDED.livemode,
              secret_key_sealed = EXCLUDED.secret_key_sealed, webhook_secret_sealed = EXCLUDED.webhook_secret_sealed,
              connected_at = EXCLUDED.connected_at`.pipe(Effect.asVoid, Effect.orDie),
      remove: (workspaceId) =>
        lean`DELETE FROM store_processor_accounts WHERE workspace_id = ${workspaceId} RETURNING workspace_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    }
  })
)

interface HostedCheckoutRow extends AttributionColumns {
  readonly workspace_id: string
  readonly attempt: string
  readonly product_id: string
  readonly choice: HostedCheckout["choice"]
  readonly billing: HostedCheckout["billing"]
  readonly amount_cents: number
  readonly recurring_cents: number | null
  readonly period_months: number | null
  readonly trial_days: number | null
  readonly parts: number | null
  readonly email: string
  readonly name: string | null
  readonly discount_code_id: string | null
  readonly discount_code: string | null
  readonly question: string | null
  readonly state: HostedCheckout["state"]
  readonly session_id: string | null
  readonly url: string | null
  readonly subscription_id: string | null
  readonly payment_id: string | null
  readonly sale_id: string | null
  readonly created_at: Date
  readonly expires_at: Date
}

const numberOrNull = (value: number | null) => (value === null ? null : Number(value))

const toHostedCheckout = (row: HostedCheckoutRow): HostedCheckout => ({
  attempt: row.attempt,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  choice: row.choice,
  billing: row.billing,
  amountCents: Number(row.amount_cents),
  recurringCents: numberOrNull(row.recurring_cents),
  periodMonths: numberOrNull(row.period_months),
  trialDays: numberOrNull(row.trial_days),
  parts: numberOrNull(row.parts),
  email: row.email,
  name: row.name,
  discountCodeId: row.discount_code_id,
  discountCode: row.discount_code,
  attribution: attributionOfRow(row),
  question: row.question,
  state: row.state,
  sessionId: row.session_id,
  url: row.url,
  subscriptionId: row.subscription_id,
  paymentId: row.payment_id,
  saleId: row.sale_id,
  createdAt: row.created_at,
  expiresAt: row.expires_at
})

const first = (rows: ReadonlyArray<HostedCheckoutRow>) => Option.map(Option.fromNullable(rows[0]), toHostedCheckout)

/** `HostedCheckoutsRepo` over SQL: one row per checkout attempt of a store. */
export const HostedCheckoutsRepoSql = Layer.effect(
  HostedCheckoutsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insert: (c) => {
        const a = c.attribution
        return lean`INSERT INTO store_hosted_checkouts (workspace_id, attempt, product_id, choice, billing, amount_cents,
              recurring_cents, period_months, trial_days, parts, email, name, discount_code_id, discount_code, utm_source,
              utm_medium, utm_campaign, utm_content, utm_term, fbclid, referrer, affiliate, question, state, session_id, url,
              subscription_id, payment_id, sale_id, created_at, expires_at)
            VALUES (${c.workspaceId}, ${c.attempt}, ${c.productId}, ${c.choice}, ${c.billing}, ${c.amountCents},
              ${c.recurringCents}, ${c.periodMonths}, ${c.trialDays}, ${c.parts}, ${c.email}, ${c.name}, ${c.discountCodeId},
              ${c.discountCode}, ${a.utmSource}, ${a.utmMedium}, ${a.utmCampaign}, ${a.utmContent}, ${a.utmTerm},
              ${a.fbclid}, ${a.referrer}, ${a.affiliate}, ${c.question}, ${c.state}, ${c.sessionId}, ${c.url}, ${c.subscriptionId}, ${c.paymentId},
              ${c.saleId}, ${c.createdAt}, ${c.expiresAt})
            ON CONFLICT (workspace_id, attempt) DO NOTHING RETURNING attempt`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
      },
      findByAttempt: (workspaceId, attempt) =>
        lean<HostedCheckoutRow>`SELECT * FROM store_hosted_checkouts
                                WHERE workspace_id = ${workspaceId} AND attempt = ${attempt}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      lockByAttempt: (workspaceId, attempt) =>
        lean<HostedCheckoutRow>`SELECT * FROM store_hosted_checkouts
                                WHERE workspace_id = ${workspaceId} AND attempt = ${attempt} FOR UPDATE`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      lockBySession: (workspaceId, sessionId) =>
        lean<HostedCheckoutRow>`SELECT * FROM store_hosted_checkouts
                                WHERE workspace_id = ${workspaceId} AND session_id = ${sessionId} FOR UPDATE`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      findBySubscription: (workspaceId, subscriptionId) =>
        lean<HostedCheckoutRow>`SELECT * FROM store_hosted_checkouts
                                WHERE workspace_id = ${workspaceId} AND subscription_id = ${subscriptionId}
                                LIMIT 1`.pipe(Effect.map(first), Effect.orDie),
      findByPayment: (workspaceId, paymentId) =>
        lean<HostedCheckoutRow>`SELECT * FROM store_hosted_checkouts
                                WHERE workspace_id = ${workspaceId} AND payment_id = ${paymentId} LIMIT 1`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      update: (c) =>
        lean`UPDATE store_hosted_checkouts
             SET state = ${c.state}, session_id = ${c.sessionId}, url = ${c.url}, subscription_id = ${c.subscriptionId},
                 payment_id = ${c.paymentId}, sale_id = ${c.saleId}
             WHERE workspace_id = ${c.workspaceId} AND attempt = ${c.attempt}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)
