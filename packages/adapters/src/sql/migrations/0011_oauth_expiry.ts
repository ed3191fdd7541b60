import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  "CREATE INDEX oauth_sessions_expiry ON oauth_sessions (expires_at)",
  "CREATE INDEX oauth_pending_expiry ON oauth_pending (expires_at)",
  "CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at)",
  "CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at)"
]

/** Indexes that let the hourly OAuth purge find expired rows without reading whole tables. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
