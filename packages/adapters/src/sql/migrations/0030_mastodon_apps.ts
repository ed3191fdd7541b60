import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // The OAuth app this server registered on a Mastodon instance, one per instance and redirect address: a server that
  // moves to another public address registers again, since the instance only sends codes to the address it was told.
  // The client secret is sealed with the server key, as account credentials are.
  `CREATE TABLE mastodon_apps (
    instance text NOT NULL,
    redirect_uri text NOT NULL,
    client_id text NOT NULL,
    client_secret_sealed text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (instance, redirect_uri)
  )`
]

/** The OAuth apps registered on Mastodon instances, for the connect page's sign-in. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
