/**
 * The core's `Transactor` over SQL: `sql.withTransaction` of the `SqlClient` in use, on every engine and whether
 * traces are exported or not. Nested calls become savepoints, and a failure of the database itself (no connection,
 * a failed BEGIN or COMMIT) is a defect, so services see only the errors they declare.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Transactor } from "@svc/core/shared"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** `Transactor` over the SQL client. */
export const TransactorSql = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))
  }))
)
