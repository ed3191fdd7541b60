/**
 * The core's `Transactor` over SQL.
 *
 * `sql.withTransaction` of `@effect/sql` opens a span with three events, a scope to hold the connection, and
 * copies the fiber's context twice: measured in-process on PostgreSQL, an empty transaction cost about 190 µs of
 * CPU where its BEGIN and COMMIT alone cost about 100. The engines this package builds offer their connections
 * for transactions directly ({@link TransactionConnections}); over them a transaction is BEGIN, the effect with
 * the connection in its context, then COMMIT or ROLLBACK, and nothing else. Nested transactions (savepoints), a
 * `SqlClient` this package did not build, and runs that export traces (for the `sql.transaction` span) keep
 * `sql.withTransaction`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import { spansExported, Transactor } from "@svc/core"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { transactionOf } from "./lean.js"

/** A connection held for one transaction, and how to hand it back. */
export interface ReservedConnection {
  readonly connection: Connection
  /**
   * Hands the connection back. `broken`: COMMIT or ROLLBACK failed, so the session's state is unknown and the
   * engine must not give it out again.
   */
  readonly release: (broken: boolean) => Effect.Effect<void>
}

/**
 * How an engine gives out a connection for one transaction (provided by `databaseLayer`). `reserve` may be
 * interrupted while it waits (a full pool, PGlite's session held by another transaction), and then holds nothing.
 */
export class TransactionConnections extends Context.Tag("svc/sql/TransactionConnections")<
  TransactionConnections,
  { readonly reserve: Effect.Effect<ReservedConnection, SqlError> }
>() {}

// A BEGIN, COMMIT or ROLLBACK that failed leaves the session in a state nobody knows: it is dropped, and the
// failure is a defect.
const abandon = (reserved: ReservedConnection, cause: Cause.Cause<SqlError>) =>
  Effect.zipRight(
    reserved.release(true),
    Effect.dieSync(() => Cause.squash(cause))
  )

// COMMIT or ROLLBACK, then the connection goes back, then the effect's own exit.
const finish = <A, E>(reserved: ReservedConnection, exit: Exit.Exit<A, E>): Effect.Effect<A, E> =>
  reserved.connection.executeUnprepared(Exit.isSuccess(exit) ? "COMMIT" : "ROLLBACK", [], undefined).pipe(
    Effect.matchCauseEffect({
      onFailure: (cause) => abandon(reserved, cause),
      onSuccess: () => Effect.zipRight(reserved.release(false), exit)
    })
  )

/**
 * `withTransaction` over `connections`, with `sql.withTransaction` for nested calls. As `sql.withTransaction`: the
 * effect stays interruptible (an interrupted one is rolled back), the connection is handed back uninterruptibly,
 * and a failed BEGIN, COMMIT or ROLLBACK is a defect. Unlike it, the wait for a connection can be interrupted too
 * (a timeout around a transaction stuck behind a full pool ends it).
 */
export const leanWithTransaction =
  (
    connections: TransactionConnections["Type"],
    nested: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  ) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.contextWithEffect((context: Context.Context<R>) =>
      Option.isSome(transactionOf(context as Context.Context<never>))
        ? nested(effect)
        : Effect.uninterruptibleMask((restore) =>
            Effect.flatMap(Effect.orDie(restore(connections.reserve)), (reserved) => {
              const body = Effect.locally(
                restore(effect),
                FiberRef.currentContext,
                Context.add(context, SqlClient.TransactionConnection, [
                  reserved.connection,
                  0
                ] as const) as Context.Context<never>
              )
              return reserved.connection.executeUnprepared("BEGIN", [], undefined).pipe(
                Effect.matchCauseEffect({
                  onFailure: (cause) => abandon(reserved, cause),
                  onSuccess: () => Effect.flatMap(Effect.exit(body), (exit) => finish(reserved, exit))
                })
              )
            })
          )
    )

/** The `Transactor` of `sql`: lean over `connections` when given and no traces are exported. */
export const makeTransactor = (
  sql: SqlClient.SqlClient,
  connections: Option.Option<TransactionConnections["Type"]>,
  traced: boolean
): Transactor["Type"] => {
  const library = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))
  return {
    withTransaction: Option.isSome(connections) && !traced ? leanWithTransaction(connections.value, library) : library
  }
}

/** `Transactor` over the SQL client (nested calls become savepoints), lean on the engines `databaseLayer` builds. */
export const TransactorSql = Layer.effect(
  Transactor,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const connections = yield* Effect.serviceOption(TransactionConnections)
    return makeTransactor(sql, connections, yield* spansExported)
  })
)
