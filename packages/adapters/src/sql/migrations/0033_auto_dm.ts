import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A rule answers replies and mentions of one connected account (on one post, or all) that carry a keyword. It goes
  // with its account (disconnecting removes it) and with its post.
  `CREATE TABLE auto_dm_rules (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    account_id text NOT NULL REFERENCES social_accounts (id) ON DELETE CASCADE,
    platform text NOT NULL,
    post_id text REFERENCES posts (id) ON DELETE CASCADE,
    post_remote_id text,
    keywords jsonb NOT NULL,
    template text NOT NULL,
    link text,
    delivery text NOT NULL CHECK (delivery IN ('dm', 'reply', 'dmOrReply')),
    enabled boolean NOT NULL,
    sent_count integer NOT NULL DEFAULT 0,
    failed_count integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX auto_dm_rules_workspace_newest ON auto_dm_rules (workspace_id, created_at DESC, id DESC)",
  "CREATE INDEX auto_dm_rules_account ON auto_dm_rules (account_id) WHERE enabled",
  // Each account's inbox: the platform's cursor where reading left off, read under a lease by one worker at a time.
  `CREATE TABLE auto_dm_inboxes (
    account_id text PRIMARY KEY REFERENCES social_accounts (id) ON DELETE CASCADE,
    cursor text,
    next_poll_at timestamptz NOT NULL,
    claim_token text,
    lease_until timestamptz,
    error text,
    polled_at timestamptz
  )`,
  "CREATE INDEX auto_dm_inboxes_due ON auto_dm_inboxes (next_poll_at)",
  // The message a rule owes one person, made before anything is sent: the unique key is what makes it one message
  // per (rule, person) across instances and restarts. Claimed with a token and a lease like the other queues.
  `CREATE TABLE auto_dm_sends (
    id text PRIMARY KEY,
    rule_id text NOT NULL REFERENCES auto_dm_rules (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    account_id text NOT NULL,
    person_id text NOT NULL,
    person_handle text NOT NULL,
    trigger jsonb NOT NULL,
    text text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    claim_token text,
    lease_until timestamptz,
    tried_channels jsonb NOT NULL DEFAULT '[]',
    channel text CHECK (channel IN ('dm', 'reply')),
    remote_id text,
    error text,
    sent_at timestamptz,
    created_at timestamptz NOT NULL,
    UNIQUE (rule_id, person_id)
  )`,
  "CREATE INDEX auto_dm_sends_due ON auto_dm_sends (next_attempt_at) WHERE status = 'pending'"
]

/** Auto-DM: rules, each account's inbox cursor, and the sends rules owe. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
