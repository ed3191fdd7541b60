import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // The questions and the decision tags live on the form (jsonb): they are read and written with it, never
  // queried one by one, and a response keeps each question as it was asked.
  `CREATE TABLE store_forms (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    title text NOT NULL,
    description text NOT NULL,
    questions jsonb NOT NULL,
    review boolean NOT NULL,
    accept_tag_ids jsonb NOT NULL,
    decline_tag_ids jsonb NOT NULL,
    accept_product_id text,
    decision_emails boolean NOT NULL,
    accept_note text,
    decline_note text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX store_forms_recent ON store_forms (workspace_id, created_at DESC, id DESC)",
  // `status` is null on a form without review; an application is pending, accepted or declined.
  `CREATE TABLE store_form_responses (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    form_id text NOT NULL REFERENCES store_forms (id) ON DELETE CASCADE,
    email text NOT NULL,
    name text,
    answers jsonb NOT NULL,
    status text CHECK (status IN ('pending', 'accepted', 'declined')),
    decided_at timestamptz,
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX store_form_responses_recent ON store_form_responses (form_id, created_at DESC, id DESC)",
  "CREATE INDEX store_form_responses_email ON store_form_responses (form_id, email, created_at DESC)"
]

/** The store's forms and their responses (applications on a review form). */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
