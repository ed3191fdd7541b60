import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A callback of the automation tool's ask step, one per ask. No foreign key to the message: a Custom AI deleted
  // meanwhile takes its chats with it, and the callback must outlive them to report that. `next_attempt_at` is when
  // it may be claimed: its next look or send while pending, its lease's end while held, so one index finds every due
  // callback.
  `CREATE TABLE ask_callbacks (
    id text PRIMARY KEY,
    message_id text NOT NULL,
    chat_id text NOT NULL,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    custom_ai_id text NOT NULL,
    callback_url text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed', 'gone')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    last_error text,
    claim_token text,
    lease_until timestamptz,
    created_at timestamptz NOT NULL,
    ended_at timestamptz
  )`,
  "CREATE INDEX ask_callbacks_due ON ask_callbacks (next_attempt_at) WHERE status IN ('pending', 'sending')",
  "CREATE INDEX ask_callbacks_ended ON ask_callbacks (ended_at) WHERE ended_at IS NOT NULL"
]

/** The durable callbacks of the automation tool's "Ask a Custom AI" step. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
