import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A routine asks its Custom AI (null: the workspace's default assistant at run time); deleting that Custom AI
  // deletes its routines and their runs, as it deletes its chats. `cron` or `every_minutes`, never both.
  `CREATE TABLE routines (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    custom_ai_id text REFERENCES custom_ais (id) ON DELETE CASCADE,
    name text NOT NULL,
    message text NOT NULL,
    mode text NOT NULL CHECK (mode IN ('standard', 'max')),
    cron text,
    every_minutes integer CHECK (every_minutes > 0),
    time_zone text NOT NULL,
    destination_kind text NOT NULL CHECK (destination_kind IN ('note', 'board', 'chat')),
    destination_id text,
    chat_id text REFERENCES chats (id) ON DELETE SET NULL,
    enabled boolean NOT NULL,
    next_run_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CHECK ((cron IS NULL) <> (every_minutes IS NULL))
  )`,
  "CREATE INDEX routines_workspace_newest ON routines (workspace_id, created_at DESC, id DESC)",
  "CREATE INDEX routines_due ON routines (next_run_at) WHERE enabled",
  "CREATE INDEX routines_custom_ai ON routines (custom_ai_id) WHERE custom_ai_id IS NOT NULL",
  "CREATE INDEX routines_chat ON routines (chat_id) WHERE chat_id IS NOT NULL",
  // One run per routine and due time: the key that keeps two workers from running one due time twice. A run is
  // also the durable work item: `run_after` is when a worker may claim it (its retry or poll time while waiting,
  // its lease's end while held, null once it ended), so one index finds every due run.
  `CREATE TABLE routine_runs (
    id text PRIMARY KEY,
    routine_id text NOT NULL REFERENCES routines (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    due_at timestamptz NOT NULL,
    status text NOT NULL CHECK (status IN ('running', 'answered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    custom_ai_id text,
    message_id text,
    chat_id text,
    answer text,
    sources jsonb NOT NULL DEFAULT '[]'::jsonb,
    charged_tenths integer NOT NULL DEFAULT 0 CHECK (charged_tenths >= 0),
    error text,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    run_after timestamptz,
    claim_token text,
    lease_until timestamptz,
    UNIQUE (routine_id, due_at)
  )`,
  "CREATE INDEX routine_runs_due ON routine_runs (run_after) WHERE run_after IS NOT NULL",
  "CREATE INDEX routine_runs_workspace_finished ON routine_runs (workspace_id, finished_at DESC) WHERE finished_at IS NOT NULL"
]

/** Routines (a Custom AI asked on a schedule) and their runs. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
