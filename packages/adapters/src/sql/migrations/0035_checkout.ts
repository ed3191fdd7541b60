import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // What the service's own checkout knows of a sale that an outside checkout never tells: whether the test processor
  // took it, and the landing link's attribution.
  "ALTER TABLE store_sales ADD COLUMN test boolean NOT NULL DEFAULT false",
  "ALTER TABLE store_sales ADD COLUMN utm_source text",
  "ALTER TABLE store_sales ADD COLUMN utm_medium text",
  "ALTER TABLE store_sales ADD COLUMN utm_campaign text",
  "ALTER TABLE store_sales ADD COLUMN utm_content text",
  "ALTER TABLE store_sales ADD COLUMN utm_term text",
  "ALTER TABLE store_sales ADD COLUMN fbclid text",
  "ALTER TABLE store_sales ADD COLUMN referrer text",
  // Discount codes of the service's checkout. `code_key` is the code in upper case: codes are typed by hand, so one
  // store never has two that differ only in case. `uses` never passes `max_uses`: the use is one guarded UPDATE.
  `CREATE TABLE store_discount_codes (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    code text NOT NULL,
    code_key text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('percent', 'amount')),
    percent_off integer CHECK (percent_off BETWEEN 1 AND 100),
    amount_off_cents integer CHECK (amount_off_cents > 0),
    max_uses integer CHECK (max_uses > 0),
    uses integer NOT NULL DEFAULT 0 CHECK (uses >= 0),
    expires_at timestamptz,
    disabled_at timestamptz,
    created_at timestamptz NOT NULL,
    CHECK ((kind = 'percent') = (percent_off IS NOT NULL)),
    CHECK ((kind = 'amount') = (amount_off_cents IS NOT NULL)),
    CHECK (max_uses IS NULL OR uses <= max_uses)
  )`,
  "CREATE UNIQUE INDEX store_discount_codes_code ON store_discount_codes (workspace_id, code_key)",
  "CREATE INDEX store_discount_codes_recent ON store_discount_codes (workspace_id, created_at DESC, id DESC)",
  // Memberships the service's checkout bills itself (the test processor's): each is charged again at `renews_at`.
  // `run_after` is when a worker may next take it: `renews_at`, or a claim's lease end while one holds it.
  `CREATE TABLE store_subscriptions (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    email text NOT NULL,
    name text,
    billing text NOT NULL CHECK (billing IN ('monthly', 'yearly')),
    amount_cents integer NOT NULL CHECK (amount_cents >= 0),
    period_months integer NOT NULL CHECK (period_months > 0),
    test boolean NOT NULL,
    state text NOT NULL CHECK (state IN ('active', 'stopped')),
    stop_reason text,
    renews_at timestamptz NOT NULL,
    renewals integer NOT NULL DEFAULT 0,
    run_after timestamptz NOT NULL,
    claim_token text,
    lease_until timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX store_subscriptions_due ON store_subscriptions (run_after) WHERE state = 'active'"
]

/** The store's own checkout: discount codes, the memberships it bills, and test and attribution columns on sales. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
