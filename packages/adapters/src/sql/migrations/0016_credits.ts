import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // One row per account that has spent or been given credits: the allowance used in `period` (YYYY-MM, UTC) and
  // the extra credits left. Charges lock it, so parallel calls spend one after another; the checks are the last
  // guard against a negative balance.
  `CREATE TABLE credit_balances (
    account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    period text NOT NULL,
    allowance_used_tenths integer NOT NULL CHECK (allowance_used_tenths >= 0),
    extra_tenths integer NOT NULL CHECK (extra_tenths >= 0),
    updated_at timestamptz NOT NULL
  )`,
  // The ledger: one entry per charged call (key: the call id) or grant (key: the grant's idempotency key).
  `CREATE TABLE credit_entries (
    id text NOT NULL UNIQUE,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('charge', 'grant')),
    key text NOT NULL,
    tenths integer NOT NULL CHECK (tenths > 0),
    allowance_tenths integer NOT NULL CHECK (allowance_tenths >= 0),
    extra_tenths integer NOT NULL CHECK (extra_tenths >= 0),
    period text NOT NULL,
    reason text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (account_id, kind, key)
  )`,
  "CREATE INDEX credit_entries_newest ON credit_entries (account_id, created_at DESC, id DESC)",
  // Credits bought by an email with no account yet; taken when that account first reads or spends credits.
  `CREATE TABLE credit_pending_grants (
    key text PRIMARY KEY,
    email text NOT NULL,
    tenths integer NOT NULL CHECK (tenths > 0),
    reason text NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX credit_pending_grants_email ON credit_pending_grants (email)"
]

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
