import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A store's Stripe account is connected with its own keys, or through the server's platform (Stripe Connect),
  // whose keys the server's settings hold: such a row has no keys of its own.
  "ALTER TABLE store_processor_accounts ADD COLUMN via text NOT NULL DEFAULT 'key' CHECK (via IN ('key', 'connect'))",
  "ALTER TABLE store_processor_accounts ALTER COLUMN secret_key_sealed DROP NOT NULL",
  "ALTER TABLE store_processor_accounts ALTER COLUMN webhook_secret_sealed DROP NOT NULL",
  `ALTER TABLE store_processor_accounts ADD CONSTRAINT store_processor_accounts_keys
     CHECK ((via = 'key') = (secret_key_sealed IS NOT NULL AND webhook_secret_sealed IS NOT NULL))`,
  // The platform's events name the connected account: each belongs to one store.
  `CREATE UNIQUE INDEX store_processor_accounts_connected ON store_processor_accounts (account_id)
     WHERE via = 'connect'`
]

/** Stripe Connect: a store's Stripe account connected through the server's platform account. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
