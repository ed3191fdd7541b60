import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // A skill's SKILL.md exactly as imported (a leading byte order mark flagged apart, as PGlite would drop it from
  // `text`); name and description are read from it for lists and lookups.
  `CREATE TABLE skills (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name text NOT NULL,
    description text NOT NULL,
    text text NOT NULL,
    leading_bom boolean NOT NULL DEFAULT false,
    size integer NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  // One skill per name in a workspace: importing that name again replaces it or is a conflict.
  "CREATE UNIQUE INDEX skills_workspace_name ON skills (workspace_id, name)",
  "CREATE INDEX skills_workspace_newest ON skills (workspace_id, created_at DESC, id DESC)"
]

/** Agent Skills, stored per workspace. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
