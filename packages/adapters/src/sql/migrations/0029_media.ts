import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A row only for a file whose bytes passed every check: the asset a post may name. Its bytes live in the blob
  // store under `<workspace_id>/<id>` (and its preview under `<workspace_id>/<id>.thumb`).
  `CREATE TABLE media_assets (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('image', 'gif', 'video', 'pdf')),
    mime_type text NOT NULL,
    bytes integer NOT NULL CHECK (bytes > 0),
    width integer,
    height integer,
    file_name text,
    sha256 text NOT NULL,
    thumbnail jsonb,
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX media_assets_workspace_newest ON media_assets (workspace_id, created_at DESC, id DESC)",
  // An upload in progress: the bytes go to `storage_key` (through a URL a client was given) and become the asset
  // `media_id` once checked. Rows outlive their expiry by the purge's grace, then go with what they left behind.
  `CREATE TABLE media_uploads (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    media_id text NOT NULL UNIQUE,
    method text NOT NULL CHECK (method IN ('single', 'multipart')),
    state text NOT NULL CHECK (state IN ('pending', 'receiving', 'complete', 'failed')),
    file_name text,
    storage_key text NOT NULL,
    store_upload_id text,
    declared_bytes integer,
    part_count integer,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX media_uploads_expiry ON media_uploads (expires_at)",
  "CREATE INDEX media_uploads_workspace_media ON media_uploads (workspace_id, media_id)"
]

/** Media files (assets) of a workspace and the uploads that become them. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
