import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // The store's public page as its creator shapes it: one row per workspace, made on the first save.
  `CREATE TABLE store_creator_pages (
    workspace_id text PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    headline text,
    bio text,
    avatar_media_id text,
    links jsonb NOT NULL DEFAULT '[]',
    featured_product_ids jsonb NOT NULL DEFAULT '[]',
    signup_shown boolean NOT NULL DEFAULT true,
    signup_heading text NOT NULL,
    signup_text text,
    updated_at timestamptz NOT NULL
  )`
]

/** Creator pages. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
