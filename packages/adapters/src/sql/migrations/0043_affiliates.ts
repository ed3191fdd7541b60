import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // The affiliate code of the link a buyer came through (`?via=`), kept with the sale as the rest of its attribution,
  // and on a checkout on its way to Stripe until it becomes one.
  "ALTER TABLE store_sales ADD COLUMN affiliate text",
  "ALTER TABLE store_hosted_checkouts ADD COLUMN affiliate text",
  // One program per product: what a sale earns its affiliate, the cookie's days, and whether applicants wait.
  `CREATE TABLE store_affiliate_programs (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    commission_kind text NOT NULL CHECK (commission_kind IN ('percent', 'fixed')),
    commission_value integer NOT NULL CHECK (commission_value > 0),
    cookie_days integer NOT NULL,
    approval boolean NOT NULL,
    active boolean NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, product_id)
  )`,
  // Affiliates of a product: one per person and product; a code is the store's, once.
  `CREATE TABLE store_affiliates (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    email text NOT NULL,
    name text,
    code text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'active', 'declined', 'removed')),
    note text,
    created_at timestamptz NOT NULL,
    decided_at timestamptz,
    UNIQUE (workspace_id, code),
    UNIQUE (workspace_id, product_id, email)
  )`,
  "CREATE INDEX store_affiliates_listed ON store_affiliates (workspace_id, created_at DESC, id DESC)",
  // What each sale or renewal earned; `key` keeps one per sale and one per renewal payment.
  `CREATE TABLE store_affiliate_commissions (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    affiliate_id text NOT NULL REFERENCES store_affiliates (id) ON DELETE CASCADE,
    product_id text NOT NULL,
    sale_id text NOT NULL,
    subscription_id text,
    payment text NOT NULL CHECK (payment IN ('first', 'renewal')),
    amount_cents integer NOT NULL,
    commission_cents integer NOT NULL,
    currency text NOT NULL,
    test boolean NOT NULL,
    key text NOT NULL,
    created_at timestamptz NOT NULL,
    reversed_at timestamptz,
    UNIQUE (workspace_id, key)
  )`,
  "CREATE INDEX store_affiliate_commissions_sale ON store_affiliate_commissions (workspace_id, sale_id)",
  `CREATE INDEX store_affiliate_commissions_subscription ON store_affiliate_commissions
     (workspace_id, product_id, subscription_id) WHERE payment = 'first'`,
  "CREATE INDEX store_affiliate_commissions_affiliate ON store_affiliate_commissions (affiliate_id, created_at)"
]

/** Affiliates: programs per product, affiliates with their codes, commissions, and the code a sale came with. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
