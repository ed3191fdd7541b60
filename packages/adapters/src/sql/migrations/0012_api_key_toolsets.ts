import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * The toolsets an API key is served when a request names none: a JSON array of toolset names, or NULL for every
 * group (every key made before this migration).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe("ALTER TABLE api_keys ADD COLUMN toolsets jsonb")
})
