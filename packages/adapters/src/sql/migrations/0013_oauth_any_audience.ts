import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call. The constraint names are PostgreSQL's
// defaults for the inline CHECKs of 0006 (`<table>_<column>_check`).
const statements = ["oauth_pending", "oauth_grants", "oauth_codes"].flatMap((table) => [
  `ALTER TABLE ${table} DROP CONSTRAINT ${table}_audience_check`,
  `ALTER TABLE ${table} ADD CONSTRAINT ${table}_audience_check CHECK (audience IN ('tools', 'store', 'any'))`
])

/**
 * Audience `any`: an authorization request that names no RFC 8707 `resource` is for every face its scopes reach
 * (the automation tool's `store` and `read write` connections), its `resource` stored as ''.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
