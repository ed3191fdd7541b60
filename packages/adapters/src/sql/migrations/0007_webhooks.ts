import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // The envelope bytes of each event, made once when it is written and sent unchanged on every attempt.
  "ALTER TABLE events ADD COLUMN body text",
  "CREATE INDEX events_created ON events (created_at)",
  // Keys the server generates for itself when the operator gives none (e.g. the webhook secret sealing key).
  `CREATE TABLE server_secrets (
    name text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE TABLE webhooks (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    url text NOT NULL,
    events jsonb NOT NULL,
    description text,
    enabled boolean NOT NULL,
    disabled_reason text CHECK (disabled_reason IN ('owner', 'failing', 'gone')),
    secret_sealed text NOT NULL,
    previous_secret_sealed text,
    previous_secret_until timestamptz,
    failing_since timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX webhooks_workspace_recent ON webhooks (workspace_id, created_at DESC, id DESC)",
  // One row per event and webhook (the unique pair makes a repeated fan-out harmless). Workers claim
  // due rows with FOR UPDATE SKIP LOCKED, set a lease and a claim token; only the token's holder may
  // record the outcome.
  `CREATE TABLE webhook_deliveries (
    id text PRIMARY KEY,
    webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    event_id text NOT NULL,
    event_type text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'sending', 'done', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    trigger text NOT NULL DEFAULT 'scheduled' CHECK (trigger IN ('scheduled', 'resend')),
    next_attempt_at timestamptz NOT NULL,
    lease_until timestamptz,
    claim_token text,
    created_at timestamptz NOT NULL,
    finished_at timestamptz,
    UNIQUE (webhook_id, event_id)
  )`,
  "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'sending')",
  "CREATE INDEX webhook_deliveries_webhook_recent ON webhook_deliveries (webhook_id, created_at DESC, id DESC)",
  "CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at)",
  // Each try of a delivery: what was answered, how long it took, and why it failed.
  `CREATE TABLE webhook_attempts (
    id text PRIMARY KEY,
    delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    webhook_id text NOT NULL,
    attempt integer NOT NULL,
    trigger text NOT NULL CHECK (trigger IN ('scheduled', 'resend')),
    outcome text NOT NULL,
    response_code integer,
    latency_ms integer NOT NULL,
    response text,
    location text,
    error text,
    attempted_at timestamptz NOT NULL
  )`,
  "CREATE INDEX webhook_attempts_webhook_recent ON webhook_attempts (webhook_id, attempted_at DESC, id DESC)",
  "CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id)"
]

/** Webhooks, their deliveries and attempts, event bodies, and server-generated keys. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
