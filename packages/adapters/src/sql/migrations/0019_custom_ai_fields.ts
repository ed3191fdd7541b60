import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // The Custom AI tools' fields on the record the store sells.
  "ALTER TABLE custom_ais ADD COLUMN description text NOT NULL DEFAULT ''",
  "ALTER TABLE custom_ais ADD COLUMN instructions text NOT NULL DEFAULT ''",
  "ALTER TABLE custom_ais ADD COLUMN is_default boolean NOT NULL DEFAULT false",
  "ALTER TABLE custom_ais ADD COLUMN updated_at timestamptz",
  "UPDATE custom_ais SET updated_at = created_at",
  "ALTER TABLE custom_ais ALTER COLUMN updated_at SET NOT NULL",
  // The newest Custom AI of each workspace that has some becomes its default assistant.
  `UPDATE custom_ais SET is_default = true WHERE id IN (
     SELECT DISTINCT ON (workspace_id) id FROM custom_ais ORDER BY workspace_id, created_at DESC, id DESC)`,
  // One default assistant per workspace.
  "CREATE UNIQUE INDEX custom_ais_one_default ON custom_ais (workspace_id) WHERE is_default"
]

/** Custom AIs get a description, instructions, a default per workspace and an update time. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
