import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
// Every secret (client secret, session cookie, form token, code, token) is stored as its SHA-256 only.
const statements = [
  `CREATE TABLE oauth_clients (
    id text PRIMARY KEY,
    secret_hash text,
    auth_method text NOT NULL CHECK (auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
    name text,
    redirect_uris jsonb NOT NULL,
    grant_types jsonb NOT NULL,
    scope text,
    client_uri text,
    metadata jsonb NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE TABLE oauth_sessions (
    id_hash text PRIMARY KEY,
    account_id text REFERENCES accounts (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  )`,
  `CREATE TABLE oauth_form_tokens (
    token_hash text PRIMARY KEY,
    session_hash text NOT NULL,
    purpose text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`,
  "CREATE INDEX oauth_form_tokens_expiry ON oauth_form_tokens (expires_at)",
  `CREATE TABLE oauth_pending (
    id text PRIMARY KEY,
    session_hash text NOT NULL,
    client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    redirect_uri text NOT NULL,
    state text,
    scopes text NOT NULL,
    code_challenge text NOT NULL,
    resource text NOT NULL,
    audience text NOT NULL CHECK (audience IN ('tools', 'store')),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    completed_at timestamptz
  )`,
  "CREATE INDEX oauth_pending_session ON oauth_pending (session_hash)",
  `CREATE TABLE oauth_grants (
    id text PRIMARY KEY,
    client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    scopes text NOT NULL,
    resource text NOT NULL,
    audience text NOT NULL CHECK (audience IN ('tools', 'store')),
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`,
  "CREATE INDEX oauth_grants_account ON oauth_grants (account_id, created_at DESC) WHERE revoked_at IS NULL",
  `CREATE TABLE oauth_codes (
    code_hash text PRIMARY KEY,
    client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    scopes text NOT NULL,
    resource text NOT NULL,
    audience text NOT NULL CHECK (audience IN ('tools', 'store')),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    grant_id text
  )`,
  `CREATE TABLE oauth_tokens (
    token_hash text PRIMARY KEY,
    id text NOT NULL UNIQUE,
    grant_id text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
    scopes text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz,
    rotated_at timestamptz
  )`,
  "CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id)"
]

/** The OAuth authorization server: clients, browser sessions, form tokens, pending requests, codes, grants, tokens. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
