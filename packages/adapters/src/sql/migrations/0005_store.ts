import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // The minimal Custom AI record the store sells; the Custom AI tools extend it.
  `CREATE TABLE custom_ais (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('assistant', 'course')),
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX custom_ais_workspace_recent ON custom_ais (workspace_id, created_at DESC, id DESC)",
  `CREATE TABLE store_settings (
    workspace_id text PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    support_email text,
    card_processor text NOT NULL CHECK (card_processor IN ('connected', 'none'))
  )`,
  // One product per Custom AI: the unique constraint answers a second create with 409.
  `CREATE TABLE store_products (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    custom_ai_id text NOT NULL UNIQUE REFERENCES custom_ais (id) ON DELETE CASCADE,
    status text NOT NULL CHECK (status IN ('draft', 'live', 'off')),
    fields jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    published_at timestamptz
  )`,
  "CREATE INDEX store_products_recent ON store_products (workspace_id, created_at DESC, id DESC)",
  // Idempotency keys of sale events (`order:<id>`, `refund:<id>`): the primary key makes a repeat count once.
  `CREATE TABLE store_order_keys (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    key text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, key)
  )`,
  `CREATE TABLE store_sales (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL,
    product_title text NOT NULL,
    buyer_email text NOT NULL,
    buyer_name text,
    amount_cents integer NOT NULL,
    currency text NOT NULL,
    billing text NOT NULL,
    source text NOT NULL,
    order_id text,
    subscription_id text,
    status text NOT NULL CHECK (status IN ('paid', 'refunded', 'free')),
    discount_code text,
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX store_sales_recent ON store_sales (workspace_id, created_at DESC, id DESC)",
  "CREATE UNIQUE INDEX store_sales_order ON store_sales (workspace_id, order_id) WHERE order_id IS NOT NULL",
  `CREATE TABLE store_customers (
    id text NOT NULL UNIQUE,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email text NOT NULL,
    name text,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, email)
  )`,
  "CREATE INDEX store_customers_recent ON store_customers (workspace_id, created_at DESC, id DESC)",
  // One row per person and product; `none` rows exist only to be locked (see AccessRepo.lock).
  `CREATE TABLE store_access (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL,
    email text NOT NULL,
    name text,
    state text NOT NULL CHECK (state IN ('none', 'active', 'cancelled', 'ended', 'refunded', 'removed')),
    how text,
    order_id text,
    subscription_id text,
    paid_until timestamptz,
    ends_at timestamptz,
    granted_at timestamptz,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, product_id, email)
  )`,
  "CREATE INDEX store_access_person ON store_access (workspace_id, email)",
  // Every email the service sends, recorded in the sender's transaction (the outbox SMTP will drain).
  `CREATE TABLE mail_outbox (
    id text PRIMARY KEY,
    workspace_id text NOT NULL,
    kind text NOT NULL,
    recipient text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    created_at timestamptz NOT NULL,
    sent_at timestamptz
  )`,
  "CREATE INDEX mail_outbox_recent ON mail_outbox (workspace_id, created_at DESC)"
]

/** Custom AIs (minimal), store settings, products, sales, customers and access, and the mail outbox. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
