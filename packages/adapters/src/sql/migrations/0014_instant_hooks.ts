import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // One row per subscription of the automation tool. `after_at`/`after_id` is the hook's place in its feed (the
  // event log's keyset order): only rows after it are pushed. Workers claim due rows with FOR UPDATE SKIP LOCKED,
  // setting a lease and a claim token; only the token's holder moves the hook on.
  `CREATE TABLE instant_hooks (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    event text NOT NULL,
    target_url text NOT NULL,
    after_at timestamptz NOT NULL,
    after_id text NOT NULL,
    failing_since timestamptz,
    next_push_at timestamptz NOT NULL,
    lease_until timestamptz,
    claim_token text,
    created_at timestamptz NOT NULL,
    UNIQUE (workspace_id, event, target_url)
  )`,
  "CREATE INDEX instant_hooks_due ON instant_hooks (next_push_at)"
]

/** The automation tool's instant hooks. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
