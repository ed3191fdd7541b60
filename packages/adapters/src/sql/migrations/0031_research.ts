import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A workspace's named list of creators or brands. `name_key` is the name lower-cased by the repository (as
  // store_tags does), so both engines agree on what "the same name" is whatever their collation.
  `CREATE TABLE research_lists (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('creators', 'brands')),
    name text NOT NULL,
    name_key text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    UNIQUE (workspace_id, kind, name_key)
  )`,
  "CREATE INDEX research_lists_workspace_newest ON research_lists (workspace_id, created_at DESC, id DESC)",
  // A creator (platform and the network's id) or a brand (platform NULL, the ad library's page id), as saved.
  // `position` orders members as they were added: the list's highest plus one, written under the list's row lock.
  `CREATE TABLE research_list_members (
    list_id text NOT NULL REFERENCES research_lists (id) ON DELETE CASCADE,
    platform text,
    key text NOT NULL,
    handle text NOT NULL,
    name text NOT NULL,
    url text,
    added_at timestamptz NOT NULL,
    position bigint NOT NULL
  )`,
  // Identity of a member; its leading list_id also serves the member count and the member listing.
  "CREATE UNIQUE INDEX research_list_members_identity ON research_list_members (list_id, (COALESCE(platform, '')), key)",
  // Source answers shared by every instance; an entry past `expires_at` is never answered, and is purged later.
  `CREATE TABLE research_cache (
    key text PRIMARY KEY,
    value jsonb NOT NULL,
    fetched_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  )`,
  "CREATE INDEX research_cache_expiry ON research_cache (expires_at)"
]

/** Research: the workspace's lists of creators and brands, and the cache of source answers. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
