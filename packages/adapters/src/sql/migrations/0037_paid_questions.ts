import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A product may now sell the seller's answer to a question the buyer asks at checkout.
  "ALTER TABLE store_products DROP CONSTRAINT store_products_kind_check",
  "ALTER TABLE store_products ADD CONSTRAINT store_products_kind_check CHECK (kind IN ('custom_ai', 'bundle', 'question'))",
  // The question a buyer asked on the way to the live processor's page, kept until its payment completes.
  "ALTER TABLE store_hosted_checkouts ADD COLUMN question text",
  // Each question a buyer paid for: one per sale, written in the sale's transaction.
  `CREATE TABLE store_paid_questions (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    product_title text NOT NULL,
    sale_id text NOT NULL,
    buyer_email text NOT NULL,
    buyer_name text,
    text text NOT NULL,
    amount_cents integer NOT NULL CHECK (amount_cents >= 0),
    currency text NOT NULL,
    test boolean NOT NULL,
    key text NOT NULL,
    answer_due_at timestamptz NOT NULL,
    answer text,
    answered_at timestamptz,
    created_at timestamptz NOT NULL,
    UNIQUE (workspace_id, sale_id)
  )`,
  "CREATE INDEX store_paid_questions_recent ON store_paid_questions (workspace_id, created_at DESC, id DESC)"
]

/** Paid questions: a product kind, the question carried through the live processor's page, and the questions. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
