import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A store's live card processor account: the keys sealed with the server key, never stored in the clear.
  `CREATE TABLE store_processor_accounts (
    workspace_id text PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    processor text NOT NULL CHECK (processor IN ('stripe')),
    account_id text NOT NULL,
    livemode boolean NOT NULL,
    secret_key_sealed text NOT NULL,
    webhook_secret_sealed text NOT NULL,
    connected_at timestamptz NOT NULL
  )`,
  // Each buyer's trip to the live processor's payment page, written before the page opens: what the processor's
  // completion event sells, and the discount code's use it holds until then.
  `CREATE TABLE store_hosted_checkouts (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    attempt text NOT NULL,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    choice text NOT NULL CHECK (choice IN ('one-time', 'plan', 'monthly', 'yearly')),
    billing text NOT NULL CHECK (billing IN ('one-time', 'monthly', 'yearly')),
    amount_cents integer NOT NULL CHECK (amount_cents >= 0),
    recurring_cents integer CHECK (recurring_cents >= 0),
    period_months integer CHECK (period_months > 0),
    trial_days integer CHECK (trial_days > 0),
    parts integer CHECK (parts > 1),
    email text NOT NULL,
    name text,
    discount_code_id text,
    discount_code text,
    utm_source text,
    utm_medium text,
    utm_campaign text,
    utm_content text,
    utm_term text,
    fbclid text,
    referrer text,
    state text NOT NULL CHECK (state IN ('opening', 'open', 'completed', 'expired', 'failed')),
    session_id text,
    url text,
    subscription_id text,
    payment_id text,
    sale_id text,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, attempt)
  )`,
  "CREATE UNIQUE INDEX store_hosted_checkouts_session ON store_hosted_checkouts (workspace_id, session_id)",
  "CREATE INDEX store_hosted_checkouts_subscription ON store_hosted_checkouts (workspace_id, subscription_id)",
  "CREATE INDEX store_hosted_checkouts_payment ON store_hosted_checkouts (workspace_id, payment_id)",
  // The places held by buyers on the payment page (the stock counts them).
  `CREATE INDEX store_hosted_checkouts_holding ON store_hosted_checkouts (workspace_id, product_id, expires_at)
    WHERE state IN ('opening', 'open')`
]

/** The store's live card processor (Stripe): its account, and the buyers' trips to its payment page. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
