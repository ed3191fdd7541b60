import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  `CREATE TABLE accounts (
    id text PRIMARY KEY,
    email text NOT NULL UNIQUE,
    name text NOT NULL,
    password_hash text NOT NULL,
    plan text NOT NULL CHECK (plan IN ('free', 'starter', 'pro')),
    created_at timestamptz NOT NULL
  )`,
  `CREATE TABLE workspaces (
    id text PRIMARY KEY,
    owner_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name text NOT NULL,
    is_default boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL
  )`,
  "CREATE UNIQUE INDEX workspaces_one_default ON workspaces (owner_id) WHERE is_default",
  "CREATE INDEX workspaces_owner_recent ON workspaces (owner_id, created_at DESC, id DESC)",
  `CREATE TABLE stores (
    id text PRIMARY KEY,
    workspace_id text NOT NULL UNIQUE REFERENCES workspaces (id) ON DELETE CASCADE,
    handle text NOT NULL UNIQUE,
    name text NOT NULL
  )`,
  `CREATE TABLE api_keys (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name text NOT NULL,
    prefix text NOT NULL,
    token_hash text NOT NULL UNIQUE,
    access jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    last_used_at timestamptz,
    expires_at timestamptz,
    revoked_at timestamptz
  )`,
  "CREATE INDEX api_keys_account_recent ON api_keys (account_id, created_at DESC, id DESC)",
  `CREATE TABLE items (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    type text NOT NULL,
    title text NOT NULL,
    url text,
    body text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    trashed_at timestamptz
  )`,
  "CREATE INDEX items_workspace_recent ON items (workspace_id, created_at DESC, id DESC) WHERE trashed_at IS NULL",
  "CREATE INDEX items_workspace_type_recent ON items (workspace_id, type, created_at DESC, id DESC) WHERE trashed_at IS NULL",
  // The event log. `seq` gives one total order for outbox readers (feeds, hooks, webhook fan-out).
  `CREATE TABLE events (
    seq bigserial UNIQUE,
    id text PRIMARY KEY,
    workspace_id text NOT NULL,
    type text NOT NULL,
    created_at timestamptz NOT NULL,
    data jsonb NOT NULL
  )`,
  "CREATE INDEX events_workspace_recent ON events (workspace_id, created_at DESC, id DESC)",
  "CREATE INDEX events_workspace_type_recent ON events (workspace_id, type, created_at DESC, id DESC)",
  // Sliding-window rate limits: per key, the times (ms) of the last `limit` admitted calls.
  `CREATE TABLE rate_limits (
    key text PRIMARY KEY,
    stamps bigint[] NOT NULL
  )`,
  // One round trip and one row lock per decision, so several server instances share the count exactly.
  `CREATE FUNCTION svc_rate_limit_take(p_key text, p_now bigint, p_limit integer, p_window bigint)
  RETURNS bigint LANGUAGE plpgsql AS $$
  DECLARE
    kept bigint[];
  BEGIN
    INSERT INTO rate_limits (key, stamps) VALUES (p_key, '{}') ON CONFLICT (key) DO NOTHING;
    SELECT ARRAY(SELECT s FROM unnest(r.stamps) AS s WHERE s > p_now - p_window ORDER BY s)
      INTO kept FROM rate_limits r WHERE r.key = p_key FOR UPDATE;
    IF coalesce(array_length(kept, 1), 0) >= p_limit THEN
      UPDATE rate_limits SET stamps = kept WHERE key = p_key;
      RETURN kept[array_length(kept, 1) - p_limit + 1] + p_window - p_now;
    END IF;
    UPDATE rate_limits SET stamps = kept || p_now WHERE key = p_key;
    RETURN 0;
  END
  $$`
]

/** Accounts, workspaces, stores, API keys, workspace items, the event log and rate limits. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
