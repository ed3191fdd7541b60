/**
 * `@effect/sql-pg`'s `PgClient` over a `pg` pool, except that an interrupted statement is never cancelled.
 *
 * When the fiber running a statement is interrupted (its client went away), `@effect/sql-pg` cancels the statement
 * with `SELECT pg_cancel_backend(<pid>)` on another pooled connection. That cancel names a server process, not a
 * statement, and nothing holds the connection until it has landed: when the statement answers first,
 * `@effect/sql-pg` hands the connection back to the pool at once, another request's statement starts on it, and
 * the late cancel fails that one (`57014`, "canceling statement due to user request"). In a storm where half the
 * clients abort, about 1 innocent call in 1,500 failed that way.
 *
 * Here an interrupted statement runs to its end and its answer is dropped: the fiber goes on at once, the
 * connection returns to the pool only after the statement answered (inside a transaction, after the ROLLBACK
 * `pg` queues behind it), and no cancel is ever sent, so none can reach anyone else. A statement still waiting for
 * a connection is not sent at all. Our statements take milliseconds, less than the cancel's own round trip on a
 * second connection; a runaway statement is for PostgreSQL's `statement_timeout` to end, inside its own session.
 *
 * Statements compile with `@effect/sql-pg`'s compiler; LISTEN/NOTIFY, `json` and `config` are those of
 * `@effect/sql-pg`'s own client over the same pool, so SQL written for `PgClient` runs here unchanged.
 */
import type * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type pg from "pg"

type RowsTransform = <A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>

/** A query's result: one per statement when the text held several. */
type Outcome = pg.QueryResult | Array<pg.QueryResult>

type Answer = (error: Error | undefined, result: Outcome | undefined) => void

/**
 * Sends one query and calls `answer` once it settled; answers a function that drops the query if it has not been
 * sent yet (its `answer` is then never called).
 */
type Send = (query: pg.QueryConfig, answer: Answer) => () => void

const noDrop = () => {}

/**
 * Listens for a checked-out client's connection failing, which `pg` reports as an `error` event (unheard, the
 * event would end the process); the returned function stops listening and answers the failure, if any, so the
 * pool drops that connection rather than reuse it.
 */
const watchFailure = (client: pg.PoolClient): (() => Error | undefined) => {
  let failure: Error | undefined
  const onError = (error: Error) => {
    failure = error
  }
  client.on("error", onError)
  return () => {
    client.off("error", onError)
    return failure
  }
}

/** Each query on a connection of its own from `pool`, handed back once the query settled. */
const sendOnPooledConnection =
  (pool: pg.Pool): Send =>
  (query, answer) => {
    let dropped = false
    pool.connect((error, client, release) => {
      if (error !== undefined || client === undefined) {
        if (!dropped) answer(error ?? new Error("No client returned"), undefined)
        return
      }
      if (dropped) return release()
      const stopWatching = watchFailure(client)
      client.query(query, (error: Error | undefined, result: Outcome) => {
        release(stopWatching())
        answer(error ?? undefined, result)
      })
    })
    return () => {
      dropped = true
    }
  }

/** Queries on one reserved connection; `pg` runs them in order, so a query given to it is always sent. */
const sendOn =
  (client: pg.PoolClient): Send =>
  (query, answer) => {
    client.query(query, (error: Error | undefined, result: Outcome) => answer(error ?? undefined, result))
    return noDrop
  }

// One list of rows per statement when the text held several, as `@effect/sql-pg` answers.
const rowsOf = (result: Outcome): ReadonlyArray<object> =>
  Array.isArray(result) ? result.map((each) => each.rows) : result.rows

const valuesOf = (result: Outcome): ReadonlyArray<ReadonlyArray<unknown>> =>
  Array.isArray(result) ? result.map((each) => each.rows) : result.rows

/** An `@effect/sql` connection whose statements, once sent, always run to their end. */
class PgConnection implements Connection {
  constructor(private readonly send: Send) {}

  private run(sql: string, params: ReadonlyArray<unknown>, rowMode?: "array"): Effect.Effect<Outcome, SqlError> {
    const values = [...params]
    const arrays: pg.QueryArrayConfig | undefined = rowMode === undefined ? undefined : { text: sql, values, rowMode }
    const query: pg.QueryConfig = arrays ?? { text: sql, values }
    return Effect.async<Outcome, SqlError>((resume) => {
      const drop = this.send(query, (error, result) =>
        resume(
          error !== undefined || result === undefined
            ? Effect.fail(new SqlError({ cause: error, message: "Failed to execute statement" }))
            : Effect.succeed(result)
        )
      )
      // Interrupted: nothing is cancelled (see the module's comment); a query not sent yet never will be.
      return Effect.sync(drop)
    })
  }

  execute(sql: string, params: ReadonlyArray<unknown>, transformRows: RowsTransform | undefined) {
    const rows = Effect.map(this.run(sql, params), rowsOf)
    return transformRows ? Effect.map(rows, transformRows) : rows
  }
  executeRaw(sql: string, params: ReadonlyArray<unknown>) {
    return this.run(sql, params)
  }
  executeValues(sql: string, params: ReadonlyArray<unknown>) {
    return Effect.map(this.run(sql, params, "array"), valuesOf)
  }
  executeUnprepared(sql: string, params: ReadonlyArray<unknown>, transformRows: RowsTransform | undefined) {
    return this.execute(sql, params, transformRows)
  }
  executeStream(sql: string, params: ReadonlyArray<unknown>, transformRows: RowsTransform | undefined) {
    // Read in full, then emitted: no statement here streams large results.
    return Stream.fromIterableEffect(this.execute(sql, params, transformRows))
  }
}

/** A connection of `pool` held for a transaction until the scope closes. */
const reserve = (pool: pg.Pool): Effect.Effect<Connection, SqlError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ readonly client: pg.PoolClient; readonly release: () => void }, SqlError>((resume) => {
      pool.connect((error, client, release) => {
        if (error !== undefined || client === undefined) {
          const cause = error ?? new Error("No client returned")
          resume(Effect.fail(new SqlError({ cause, message: "Failed to acquire connection for transaction" })))
          return
        }
        const stopWatching = watchFailure(client)
        resume(Effect.succeed({ client, release: () => release(stopWatching()) }))
      })
    }),
    ({ release }) => Effect.sync(release)
  ).pipe(Effect.map(({ client }) => new PgConnection(sendOn(client))))

/** A `PgClient` over `pool` whose statements are never cancelled; the pool stays its maker's to end. */
export const fromPool = (
  pool: pg.Pool
): Effect.Effect<PgClient.PgClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function* () {
    // @effect/sql-pg's client only for what runs no statement of ours: LISTEN (on a connection of its own), NOTIFY
    // and the settings it read from the pool.
    const listening = yield* PgClient.fromPool({ acquire: Effect.succeed(pool) })
    const { config } = listening
    const client = yield* SqlClient.make({
      acquirer: Effect.succeed(new PgConnection(sendOnPooledConnection(pool))),
      transactionAcquirer: reserve(pool),
      compiler: PgClient.makeCompiler(),
      spanAttributes: [
        ["db.system.name", "postgresql"],
        ["db.namespace", config.database ?? config.username ?? "postgres"],
        ["server.address", config.host ?? "localhost"],
        ["server.port", config.port ?? 5432]
      ]
    })
    return Object.assign(client, {
      [PgClient.TypeId]: PgClient.TypeId,
      config,
      json: listening.json,
      listen: listening.listen,
      notify: listening.notify
    })
  })
