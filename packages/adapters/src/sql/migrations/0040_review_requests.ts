import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // The follow-ups asking buyers for a review: one per buyer and product, emailed when due, answered once.
  `CREATE TABLE store_review_requests (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    email text NOT NULL,
    name text,
    key text NOT NULL,
    state text NOT NULL CHECK (state IN ('waiting', 'sent', 'answered', 'dropped')),
    due_at timestamptz NOT NULL,
    drop_reason text,
    review_id text,
    claim_token text,
    lease_until timestamptz,
    sent_at timestamptz,
    answered_at timestamptz,
    created_at timestamptz NOT NULL,
    UNIQUE (workspace_id, product_id, email)
  )`,
  // The worker's look: waiting requests by when they are due (a claim moves `due_at` to the lease's end).
  "CREATE INDEX store_review_requests_due ON store_review_requests (due_at) WHERE state = 'waiting'",
  // Buyers' reviews may share words and a name ("Great!" by two Annas): only an import is kept once by them.
  // Whether the giver lets the seller quote it: a buyer's choice on the review page; an import is the seller's own.
  "ALTER TABLE store_reviews ADD COLUMN quotable boolean NOT NULL DEFAULT true",
  "DROP INDEX store_reviews_once",
  `CREATE UNIQUE INDEX store_reviews_once ON store_reviews
     (workspace_id, product_id, md5(text), coalesce(lower(name), '')) WHERE origin = 'imported'`,
  "CREATE INDEX store_reviews_listed ON store_reviews (workspace_id, created_at DESC, id DESC)"
]

/** Buyers' review requests; imported testimonials alone are kept once by their words and name. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
