import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // A sequence's steps are edited as one list and read whole by the worker, so they live in the row (jsonb).
  `CREATE TABLE store_email_sequences (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name text NOT NULL,
    state text NOT NULL CHECK (state IN ('active', 'paused')),
    steps jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX store_email_sequences_recent ON store_email_sequences (workspace_id, created_at DESC, id DESC)",
  // What starts a sequence: a tag id or a product id. Looked up by (workspace, kind, ref) each time a tag lands
  // on a person or a buyer joins, so that lookup has its own index.
  `CREATE TABLE store_email_sequence_starts (
    sequence_id text NOT NULL REFERENCES store_email_sequences (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('tag', 'product')),
    ref text NOT NULL,
    position integer NOT NULL,
    PRIMARY KEY (sequence_id, kind, ref)
  )`,
  "CREATE INDEX store_email_sequence_starts_lookup ON store_email_sequence_starts (workspace_id, kind, ref)",
  // One enrolment per sequence and email, ever: getting a start tag again never restarts a sequence.
  // `run_after` is when the worker looks next: the step's due time, or the lease's end while a worker holds it.
  `CREATE TABLE store_email_sequence_enrolments (
    id text PRIMARY KEY,
    workspace_id text NOT NULL,
    sequence_id text NOT NULL REFERENCES store_email_sequences (id) ON DELETE CASCADE,
    email text NOT NULL,
    state text NOT NULL CHECK (state IN ('active', 'completed', 'stopped')),
    next_step integer NOT NULL,
    next_due_at timestamptz,
    run_after timestamptz,
    claim_token text,
    lease_until timestamptz,
    stop_reason text,
    started_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    ended_at timestamptz,
    UNIQUE (sequence_id, email)
  )`,
  "CREATE INDEX store_email_sequence_enrolments_due ON store_email_sequence_enrolments (run_after) WHERE state = 'active'",
  "CREATE INDEX store_email_sequence_enrolments_person ON store_email_sequence_enrolments (workspace_id, email) WHERE state = 'active'",
  // The send key: a step of an enrolment is mailed at most once, whatever two workers do.
  `CREATE TABLE store_email_sequence_sends (
    enrolment_id text NOT NULL REFERENCES store_email_sequence_enrolments (id) ON DELETE CASCADE,
    step integer NOT NULL,
    sent_at timestamptz NOT NULL,
    PRIMARY KEY (enrolment_id, step)
  )`,
  // Kept for the public sign-up page: a sign-up is subscribed only after confirming by email.
  "ALTER TABLE store_settings ADD COLUMN email_double_opt_in boolean NOT NULL DEFAULT false"
]

/** Email sequences: their steps and start triggers, each contact's enrolment, and the once-per-step send key. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
