import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // One row per person on the store's email list, keyed by the normalised email as customers are; their tags live in
  // `store_person_tags`, shared with the customers. `unsubscribed_at` is when they stopped being subscribed.
  `CREATE TABLE store_email_contacts (
    id text NOT NULL UNIQUE,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email text NOT NULL,
    name text,
    status text NOT NULL CHECK (status IN ('subscribed', 'unsubscribed', 'bounced', 'complained')),
    source text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    unsubscribed_at timestamptz,
    PRIMARY KEY (workspace_id, email)
  )`,
  "CREATE INDEX store_email_contacts_recent ON store_email_contacts (workspace_id, created_at DESC, id DESC)",
  // `GET /email-tags` pages the store's tags newest first.
  "CREATE INDEX store_tags_recent ON store_tags (workspace_id, created_at DESC, id DESC)",
  // Buyers join the email list when they buy unless the seller turns it off.
  "ALTER TABLE store_settings ADD COLUMN email_list_add_buyers boolean NOT NULL DEFAULT true"
]

/** The store's email list (contacts sharing the store's tags) and the setting that adds buyers to it. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
