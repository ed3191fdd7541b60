import {
  type CreditBalanceRow,
  type CreditEntry,
  type CreditEntryKind,
  CreditsRepo,
  type PendingCreditGrant
} from "@svc/core/credits"
import { pageOf } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface BalanceRow {
  readonly account_id: string
  readonly period: string
  readonly allowance_used_tenths: number
  readonly extra_tenths: number
}

interface EntryRow {
  readonly id: string
  readonly account_id: string
  readonly kind: CreditEntryKind
  readonly key: string
  readonly tenths: number
  readonly allowance_tenths: number
  readonly extra_tenths: number
  readonly period: string
  readonly reason: string
  readonly created_at: Date
}

interface PendingRow {
  readonly key: string
  readonly email: string
  readonly tenths: number
  readonly reason: string
  readonly created_at: Date
}

const toBalance = (row: BalanceRow): CreditBalanceRow => ({
  accountId: row.account_id,
  period: row.period,
  allowanceUsedTenths: row.allowance_used_tenths,
  extraTenths: row.extra_tenths
})

const toEntry = (row: EntryRow): CreditEntry => ({
  id: row.id,
  accountId: row.account_id,
  kind: row.kind,
  key: row.key,
  tenths: row.tenths,
  allowanceTenths: row.allowance_tenths,
  extraTenths: row.extra_tenths,
  period: row.period,
  reason: row.reason,
  createdAt: row.created_at
})

const toPending = (row: PendingRow): PendingCreditGrant => ({
  key: row.key,
  email: row.email,
  tenths: row.tenths,
  reason: row.reason,
  createdAt: row.created_at
})

/** `CreditsRepo` over SQL: a balance row per account locked with `FOR UPDATE`, the ledger, and pending grants. */
export const CreditsRepoSql = Layer.effect(
  CreditsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      lockBalance: (accountId, period, at) =>
        Effect.gen(function* () {
          // Two first charges at once: one insert wins, the other waits for it and then does nothing.
          yield* lean`INSERT INTO credit_balances (account_id, period, allowance_used_tenths, extra_tenths, updated_at)
                     VALUES (${accountId}, ${period}, 0, 0, ${at}) ON CONFLICT (account_id) DO NOTHING`
          const rows = yield* lean<BalanceRow>`SELECT account_id, period, allowance_used_tenths, extra_tenths
                                               FROM credit_balances WHERE account_id = ${accountId} FOR UPDATE`
          const row = rows[0]
          return row === undefined ? yield* Effect.dieMessage(`no credit balance row for ${accountId}`) : toBalance(row)
        }).pipe(Effect.orDie),
      findBalance: (accountId) =>
        lean<BalanceRow>`SELECT account_id, period, allowance_used_tenths, extra_tenths
                         FROM credit_balances WHERE account_id = ${accountId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toBalance)),
          Effect.orDie
        ),
      saveBalance: (row, at) =>
        lean`UPDATE credit_balances SET period = ${row.period}, allowance_used_tenths = ${row.allowanceUsedTenths},
               extra_tenths = ${row.extraTenths}, updated_at = ${at}
             WHERE account_id = ${row.accountId}`.pipe(Effect.asVoid, Effect.orDie),
      findEntry: (accountId, kind, key) =>
        lean<EntryRow>`SELECT * FROM credit_entries
                       WHERE account_id = ${accountId} AND kind = ${kind} AND key = ${key}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEntry)),
          Effect.orDie
        ),
      insertEntry: (e) =>
        lean`INSERT INTO credit_entries (id, account_id, kind, key, tenths, allowance_tenths, extra_tenths, period,
                                         reason, created_at)
             VALUES (${e.id}, ${e.accountId}, ${e.kind}, ${e.key}, ${e.tenths}, ${e.allowanceTenths},
                     ${e.extraTenths}, ${e.period}, ${e.reason}, ${e.createdAt})
             ON CONFLICT (account_id, kind, key) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      removeEntry: (accountId, kind, key) =>
        lean<EntryRow>`DELETE FROM credit_entries WHERE account_id = ${accountId} AND kind = ${kind} AND key = ${key}
                       RETURNING *`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEntry)),
          Effect.orDie
        ),
      listEntries: (accountId, page) =>
        (page.after
          ? lean<EntryRow>`SELECT * FROM credit_entries WHERE account_id = ${accountId}
              AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})
              ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`
          : lean<EntryRow>`SELECT * FROM credit_entries WHERE account_id = ${accountId}
              ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`
        ).pipe(
          Effect.map((rows) => pageOf(rows.map(toEntry), page.limit)),
          Effect.orDie
        ),
      addPending: (g) =>
        lean`INSERT INTO credit_pending_grants (key, email, tenths, reason, created_at)
             VALUES (${g.key}, ${g.email}, ${g.tenths}, ${g.reason}, ${g.createdAt})
             ON CONFLICT (key) DO NOTHING RETURNING key`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      hasPending: (email) =>
        lean<{ readonly kept: boolean }>`SELECT EXISTS (SELECT 1 FROM credit_pending_grants WHERE email = ${email})
                                          AS kept`.pipe(
          Effect.map((rows) => rows[0]?.kept === true),
          Effect.orDie
        ),
      takePending: (email) =>
        lean<PendingRow>`DELETE FROM credit_pending_grants WHERE email = ${email} RETURNING *`.pipe(
          Effect.map((rows) => rows.map(toPending).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())),
          Effect.orDie
        )
    }
  })
)
