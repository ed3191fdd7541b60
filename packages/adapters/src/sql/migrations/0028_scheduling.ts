import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // One account per platform and workspace; connecting another replaces it. The credentials are sealed with the
  // server key and never leave the server.
  `CREATE TABLE social_accounts (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    platform text NOT NULL,
    handle text NOT NULL,
    display_name text,
    service_url text NOT NULL,
    credentials_sealed text NOT NULL,
    status text NOT NULL CHECK (status IN ('connected', 'needs_reconnect')),
    status_reason text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    UNIQUE (workspace_id, platform)
  )`,
  // A workspace without a row posts in UTC and has no slots.
  `CREATE TABLE posting_schedules (
    workspace_id text PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    time_zone text NOT NULL,
    slots jsonb NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE TABLE posts (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    text text NOT NULL,
    platforms jsonb NOT NULL,
    media jsonb NOT NULL,
    status text NOT NULL
      CHECK (status IN ('draft', 'scheduled', 'publishing', 'posted', 'partial', 'failed', 'cancelled')),
    scheduled_for timestamptz,
    from_slot boolean NOT NULL,
    number_thread boolean NOT NULL,
    visibility text NOT NULL CHECK (visibility IN ('public', 'unlisted', 'private')),
    content_warning text,
    posted_at timestamptz,
    error text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX posts_workspace_newest ON posts (workspace_id, created_at DESC, id DESC)",
  // The times open posts hold, for finding a free slot.
  "CREATE INDEX posts_workspace_open_time ON posts (workspace_id, scheduled_for) WHERE status IN ('draft', 'scheduled')",
  // One delivery per post and platform: the durable work item, claimed with a token and a lease. `remote_id` is the
  // network's id of what went out, written before the claim is released.
  `CREATE TABLE post_deliveries (
    id text PRIMARY KEY,
    post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    platform text NOT NULL,
    social_account_id text REFERENCES social_accounts (id) ON DELETE SET NULL,
    status text NOT NULL CHECK (status IN ('pending', 'posted', 'failed', 'cancelled')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    claim_token text,
    lease_until timestamptz,
    remote_id text,
    url text,
    error text,
    posted_at timestamptz,
    created_at timestamptz NOT NULL,
    UNIQUE (post_id, platform)
  )`,
  "CREATE INDEX post_deliveries_due ON post_deliveries (next_attempt_at) WHERE status = 'pending'",
  // The own feed: what went out there, newest first.
  "CREATE INDEX post_deliveries_feed ON post_deliveries (workspace_id, posted_at DESC, post_id DESC) WHERE platform = 'feed' AND status = 'posted'"
]

/** Scheduling: connected social accounts, posting schedules, posts and their deliveries. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
