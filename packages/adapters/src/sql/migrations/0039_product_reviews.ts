import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // Reviews of a product: a buyer's, or testimonials the seller imported from elsewhere.
  `CREATE TABLE store_reviews (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    origin text NOT NULL CHECK (origin IN ('buyer', 'imported')),
    rating integer CHECK (rating BETWEEN 1 AND 5),
    text text NOT NULL,
    name text,
    email text,
    source text,
    approved boolean NOT NULL,
    given_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  // The same words by the same name are one review of a product: an import run twice adds nothing.
  `CREATE UNIQUE INDEX store_reviews_once ON store_reviews
     (workspace_id, product_id, md5(text), coalesce(lower(name), ''))`,
  "CREATE INDEX store_reviews_shown ON store_reviews (workspace_id, product_id, given_at DESC) WHERE approved"
]

/** Product reviews and imported testimonials. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
