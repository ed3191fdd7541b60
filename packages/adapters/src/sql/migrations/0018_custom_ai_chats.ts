import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A chat goes with its Custom AI. Nothing wrote chats before this, so no row is lost; any orphan goes first.
  "DELETE FROM chats WHERE custom_ai_id IS NOT NULL AND custom_ai_id NOT IN (SELECT id FROM custom_ais)",
  `ALTER TABLE chats ADD CONSTRAINT chats_custom_ai_fk
     FOREIGN KEY (custom_ai_id) REFERENCES custom_ais (id) ON DELETE CASCADE`,
  "CREATE INDEX chats_custom_ai ON chats (custom_ai_id) WHERE custom_ai_id IS NOT NULL",
  // Messages in the order written (`seq`: several may share a timestamp). A user message is stored `answered`; an
  // assistant message is `running` until its job ends it `answered` or `failed`.
  `CREATE TABLE chat_messages (
    id text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    chat_id text NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('user', 'assistant')),
    status text NOT NULL CHECK (status IN ('answered', 'running', 'failed')),
    text text NOT NULL,
    sources jsonb NOT NULL DEFAULT '[]'::jsonb,
    model text,
    charged_tenths integer NOT NULL DEFAULT 0 CHECK (charged_tenths >= 0),
    error text,
    created_at timestamptz NOT NULL,
    answered_at timestamptz
  )`,
  "CREATE INDEX chat_messages_chat_order ON chat_messages (chat_id, seq)",
  // Questions waiting for (or held by) a runner; a row goes when its answer ends. `run_after` is when it may be
  // claimed: its retry time while pending, its lease's end while running, so one index finds every due job.
  `CREATE TABLE custom_ai_ask_jobs (
    message_id text PRIMARY KEY REFERENCES chat_messages (id) ON DELETE CASCADE,
    chat_id text NOT NULL,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    custom_ai_id text NOT NULL,
    mode text NOT NULL CHECK (mode IN ('standard', 'max')),
    status text NOT NULL CHECK (status IN ('pending', 'running')),
    attempts integer NOT NULL DEFAULT 0,
    run_after timestamptz NOT NULL,
    lease_until timestamptz,
    claim_token text,
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX custom_ai_ask_jobs_due ON custom_ai_ask_jobs (run_after)"
]

/** Custom AI chats: messages, and the durable jobs that answer them. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
