import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Layer } from "effect"

/**
 * Ends now every lease still running in the database (each table with a `lease_until` column: webhook deliveries,
 * instant hooks, mail, sequences, asks, callbacks, routines, and whatever claims work later), so the workers claim
 * at once what they held. It returns how many it took back.
 *
 * Only for a database one process owns, the embedded one under its directory lock: the process that opens it is the
 * only one that can hold a lease, and it has not claimed anything yet, so every running lease belongs to a process
 * that died (`kill -9`, a crash, a power cut). Waiting for those leases to expire delayed their work by a minute. On
 * PostgreSQL, shared by instances, a running lease may be a live instance's, and expiry stays the only takeover.
 */
export const takeBackLeases = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* sql<{ readonly table_name: string }>`
    SELECT table_name FROM information_schema.columns
    WHERE column_name = 'lease_until' AND table_schema = current_schema()
    ORDER BY table_name`
  let taken = 0
  for (const { table_name } of tables) {
    const rows = yield* sql`UPDATE ${sql(table_name)} SET lease_until = now() WHERE lease_until > now() RETURNING 1`
    taken += rows.length
  }
  if (taken > 0) yield* Effect.logInfo(`took back ${taken} leases held by the process that had this database before`)
  return taken
})

/** {@link takeBackLeases} when built: after the migrations, on a database this process alone opens. */
export const LeaseTakeoverLive = Layer.effectDiscard(takeBackLeases)
