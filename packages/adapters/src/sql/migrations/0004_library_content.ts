import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// Saved content: links, posts, ads and media are deduplicated per workspace by a source key (the normalised URL,
// or `<platform>:<id>` for a post or ad known by its id), and highlights and captures are not saved twice from the
// same item with the same text. Unique indexes make those saves idempotent under concurrency (`ON CONFLICT`).
const statements = [
  "ALTER TABLE items ADD COLUMN source_key text",
  // Trashed items stay in the index: saving a trashed URL again brings its item back (and restoring one from the
  // trash can never clash with a newer copy).
  "CREATE UNIQUE INDEX items_workspace_source ON items (workspace_id, type, source_key) WHERE source_key IS NOT NULL",
  "CREATE UNIQUE INDEX highlights_item_text ON highlights (item_id, md5(text))",
  "CREATE UNIQUE INDEX captures_item_text ON captures (item_id, md5(text)) WHERE item_id IS NOT NULL",
  "CREATE INDEX highlights_item_recent ON highlights (item_id, created_at DESC, id DESC)",
  "CREATE INDEX captures_item_recent ON captures (item_id, created_at DESC, id DESC) WHERE item_id IS NOT NULL"
]

/** Source keys for saved links, posts, ads and media; one highlight or capture per item and text. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
