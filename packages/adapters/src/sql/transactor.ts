import { SqlClient } from "@effect/sql"
import { Transactor } from "@svc/core"
import { Effect, Layer } from "effect"

/** `Transactor` over the SQL client: nested calls become savepoints. */
export const TransactorSql = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))
  }))
)
