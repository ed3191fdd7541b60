import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // A product sells a Custom AI, or is a bundle of other products (and then has no Custom AI of its own).
  "ALTER TABLE store_products ADD COLUMN kind text NOT NULL DEFAULT 'custom_ai' CHECK (kind IN ('custom_ai', 'bundle'))",
  "ALTER TABLE store_products ALTER COLUMN custom_ai_id DROP NOT NULL",
  `ALTER TABLE store_products ADD CONSTRAINT store_products_kind_source
     CHECK ((kind = 'custom_ai') = (custom_ai_id IS NOT NULL))`,
  // The products a bundle sells together, in the order the seller gave them.
  `CREATE TABLE store_bundle_items (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    bundle_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    position integer NOT NULL,
    PRIMARY KEY (bundle_id, product_id)
  )`,
  "CREATE INDEX store_bundle_items_product ON store_bundle_items (workspace_id, product_id)",
  // Access a bundle gave (null: the person's own, from a sale or a grant of the product itself). A refund or end
  // of the bundle takes away only the access it gave.
  "ALTER TABLE store_access ADD COLUMN via_bundle_id text",
  "CREATE INDEX store_access_via_bundle ON store_access (workspace_id, via_bundle_id, email) WHERE via_bundle_id IS NOT NULL",
  // The links a product delivers to the people who have it, in the seller's order.
  `CREATE TABLE store_content_links (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    title text NOT NULL,
    url text NOT NULL,
    position integer NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX store_content_links_product ON store_content_links (workspace_id, product_id, position)"
]

/** Bundles (a product kind that sells other products), access given by a bundle, and products' content links. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
