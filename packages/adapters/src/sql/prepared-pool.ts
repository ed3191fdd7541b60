/**
 * A `pg` pool whose connections keep server-side prepared statements for the SQL text they run repeatedly.
 *
 * `@effect/sql-pg` sends every statement unnamed, so PostgreSQL parses, analyses and plans the same text on every
 * call. A named statement is parsed once per connection and afterwards only bound and executed; `pg` remembers per
 * connection which names it has parsed and skips the Parse message for them.
 */
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import { SqlError } from "@effect/sql/SqlError"
import type { Connection } from "@effect/sql/SqlConnection"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type * as Scope from "effect/Scope"
import type { Autocommit } from "./lean.js"
import type { ReservedConnection, TransactionConnections } from "./transactor.js"

// ---------------------------------------------------------------------------------------------------------------
// Which texts a connection prepares.

/** Default of {@link PreparedPoolOptions.maxPreparedStatements}. */
export const DEFAULT_MAX_PREPARED_STATEMENTS = 256

/** The name a SQL text is prepared under: a digest of the text, so one name never stands for two texts. */
export const statementName = (text: string): string =>
  `svc_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`

// Texts run once that a connection remembers, per place for a prepared one. Well above the number of distinct
// texts an application runs, so each of those gets its second run remembered; bounded since text can be generated.
const SEEN_ONCE_PER_PLACE = 4

/**
 * The statements one connection has prepared. A text is prepared on its second run, not its first: SQL that runs
 * once (a one-off query, a dynamic `IN ($1, …, $n)` of a length not seen before) then costs no server memory and
 * takes no place. At most `capacity` texts are prepared; past that, new texts run unnamed.
 */
export class PreparedStatements {
  // text → the name it is prepared under, or null once retired: still prepared on the server but never used again.
  readonly #prepared = new Map<string, string | null>()
  // name → text, so a digest collision runs unnamed instead of reusing a name for another text.
  readonly #owners = new Map<string, string>()
  // Names of the texts run once, oldest first: names, not texts, as a generated text can be long.
  readonly #seenOnce = new Set<string>()

  constructor(readonly capacity: number) {}

  /** The name to run `text` under, or `undefined` to run it unnamed. */
  nameFor(text: string): string | undefined {
    const known = this.#prepared.get(text)
    if (known !== undefined) return known ?? undefined
    if (this.#prepared.size >= this.capacity) return undefined
    const name = statementName(text)
    if (!this.#seenOnce.delete(name)) {
      if (this.#seenOnce.size >= this.capacity * SEEN_ONCE_PER_PLACE) {
        for (const oldest of this.#seenOnce) {
          this.#seenOnce.delete(oldest)
          break
        }
      }
      this.#seenOnce.add(name)
      return undefined
    }
    if (this.#owners.has(name)) {
      this.#prepared.set(text, null)
      return undefined
    }
    this.#prepared.set(text, name)
    this.#owners.set(name, text)
    return name
  }

  /** Drops `text`, deallocated on the server: its place is free and its next runs start over. */
  forget(text: string): void {
    const name = this.#prepared.get(text)
    this.#prepared.delete(text)
    if (name !== undefined && name !== null) this.#owners.delete(name)
  }

  /** Stops naming `text` on this connection; it is still prepared on the server, so it keeps its place and name. */
  retire(text: string): void {
    if (this.#prepared.has(text)) this.#prepared.set(text, null)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The `pg` driver, as far as this module uses it (`pg` ships no types and is not a direct dependency).

/** Result parsers by type oid, as `pg`'s `types` option takes them. */
export interface PgTypeParsers {
  readonly getTypeParser: (oid: number, format?: "text" | "binary") => (text: string) => unknown
}

interface PgPoolConfig {
  readonly connectionString: string
  readonly application_name: string
  readonly types?: PgTypeParsers | undefined
  readonly max?: number | undefined
  readonly Client: PgClientClass
}

type QueryCallback = (error: unknown, result?: unknown) => void

interface PgClientBase {
  /** pg's record of the named statements parsed on this connection: it sends a Parse only for names missing here. */
  readonly connection: { readonly parsedStatements: Record<string, string> }
  /** As of the last ReadyForQuery: `I` idle, `T` in a transaction block, `E` in a failed one. */
  getTransactionStatus(): string | null
  query(config: unknown, values?: unknown, callback?: unknown): unknown
  on(event: "error", listener: (error: unknown) => void): unknown
  off(event: "error", listener: (error: unknown) => void): unknown
}

type PgClientClass = new (config: PgPoolConfig) => PgClientBase

/** The part of `pg.Pool` used here; `@effect/sql-pg` uses the rest. */
export interface PgPool {
  query(text: string): Promise<unknown>
  query(text: string, values: ReadonlyArray<unknown>, callback: QueryCallback): void
  /** Takes a client out of the pool; `release(error)` hands it back, or destroys it when `error` is truthy. */
  connect(
    callback: (error: unknown, client: PgClientBase | undefined, release: (error?: unknown) => void) => void
  ): void
  end(): Promise<void>
  on(event: "error", listener: (error: Error) => void): unknown
}

interface PgDriver {
  readonly Pool: new (config: PgPoolConfig) => PgPool
  readonly Client: PgClientClass
}

const isPgDriver = (module: unknown): module is PgDriver =>
  typeof module === "object" &&
  module !== null &&
  "Pool" in module &&
  typeof module.Pool === "function" &&
  "Client" in module &&
  typeof module.Client === "function"

// The very `pg` that `@effect/sql-pg` loads, so the pool is the one it was built against.
const loadPgDriver = (): PgDriver => {
  const fromHere = createRequire(import.meta.url)
  const pg: unknown = createRequire(fromHere.resolve("@effect/sql-pg/PgClient"))("pg")
  if (!isPgDriver(pg)) throw new Error("the `pg` driver of @effect/sql-pg exposes no Pool and Client")
  return pg
}

// ---------------------------------------------------------------------------------------------------------------
// A client that names repeated parameterised statements.

/** A query config `pg` runs as given: its text, its values and options such as `rowMode`. */
interface PlainQuery {
  readonly [option: string]: unknown
  readonly text: string
  readonly values: ReadonlyArray<unknown>
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => {
  if (typeof value !== "object" || value === null) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

const isCallback = (value: unknown): value is QueryCallback => typeof value === "function"

/**
 * A `query(text, values, callback)` or `query({ text, values }, callback)` call with parameters, or `undefined` for
 * the calls to leave alone: pg-cursor and other submittables, configs that name themselves or pick a protocol, and
 * calls without parameters. The latter are BEGIN, COMMIT, SAVEPOINT, SET, migrations: single or multiple statements
 * on the simple protocol, which a name would move to the extended one, refusing the multi-statement ones.
 */
const parameterisedCall = (
  config: unknown,
  values: unknown,
  callback: unknown
): { readonly query: PlainQuery; readonly callback: QueryCallback | undefined } | undefined => {
  const fields = typeof config === "string" ? { text: config } : isRecord(config) ? config : undefined
  if (fields === undefined || typeof fields.text !== "string") return undefined
  if ("name" in fields || "queryMode" in fields || "callback" in fields || "submit" in fields) return undefined
  // As pg reads its arguments: values may be given apart from the config, and the callback in their place.
  const params = values && !isCallback(values) ? values : fields.values
  if (!Array.isArray(params) || params.length === 0) return undefined
  return {
    query: { ...fields, text: fields.text, values: params },
    callback: isCallback(values) ? values : isCallback(callback) ? callback : undefined
  }
}

// Raised when binding a prepared statement, before it runs: `0A000` when a schema change altered its result
// columns ("cached plan must not change result type"), `26000` when the server no longer has it (DISCARD ALL or
// DEALLOCATE ALL ran on the connection).
const STALE_STATEMENT = new Set(["0A000", "26000"])

const isStaleStatement = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  "code" in error &&
  typeof error.code === "string" &&
  STALE_STATEMENT.has(error.code)

const preparingClient = (Base: PgClientClass, capacity: number): PgClientClass =>
  class PreparingClient extends Base {
    readonly #statements = new PreparedStatements(capacity)

    override query(config: unknown, values?: unknown, callback?: unknown): unknown {
      const call = parameterisedCall(config, values, callback)
      // Only outside a transaction block: there a failed statement aborts the block, so the retry of a stale
      // statement (see `#runNamed`) would fail too and the caller would see the error.
      const name =
        call !== undefined && this.getTransactionStatus() === "I"
          ? this.#statements.nameFor(call.query.text)
          : undefined
      if (call === undefined || name === undefined) return super.query(config, values, callback)
      const done = call.callback
      if (done !== undefined) {
        this.#runNamed(call.query, name, done)
        return undefined
      }
      return new Promise((resolve, reject) =>
        this.#runNamed(call.query, name, (error, result) => (error ? reject(error) : resolve(result)))
      )
    }

    #runNamed(query: PlainQuery, name: string, done: QueryCallback): void {
      super.query({ ...query, name }, (error: unknown, result: unknown) => {
        if (!error || !isStaleStatement(error)) return done(error, result)
        // The status is still the one the statement ran in: its own ReadyForQuery has not arrived yet.
        if (this.getTransactionStatus() !== "I") {
          this.#statements.retire(query.text)
          return done(error)
        }
        // Outside a transaction block the failed statement changed nothing, so it can run again. Deallocating lets
        // the text be prepared afresh, with its new result columns, under its same name.
        this.#statements.forget(query.text)
        Reflect.deleteProperty(this.connection.parsedStatements, name)
        super.query(`DEALLOCATE ${name}`, () => super.query(query, done))
      })
    }
  }

// ---------------------------------------------------------------------------------------------------------------
// The pool.

/** Options of {@link preparedPool}. */
export interface PreparedPoolOptions {
  readonly url: string
  readonly applicationName: string
  readonly types?: PgTypeParsers | undefined
  /** Connections in the pool; pg's default (10) when unset, as `PgClient.make` leaves it. */
  readonly maxConnections?: number | undefined
  /** Distinct texts each connection keeps prepared (default {@link DEFAULT_MAX_PREPARED_STATEMENTS}). */
  readonly maxPreparedStatements?: number | undefined
}

// PgClient.make's defaults, kept since `PgClient.fromPool` leaves connecting to whoever made the pool.
const CONNECT_TIMEOUT = Duration.seconds(5)
const END_TIMEOUT = Duration.seconds(1)

/**
 * A pool whose connections prepare the parameterised statements they run repeatedly, for `PgClient.layerFromPool`.
 * Like `PgClient.make` it fails unless the server answers within 5 seconds, and ends the pool when the scope closes.
 */
export const preparedPool = (options: PreparedPoolOptions): Effect.Effect<PgPool, SqlError, Scope.Scope> =>
  Effect.gen(function* () {
    const pg = yield* Effect.try({
      try: loadPgDriver,
      catch: (cause) => new SqlError({ cause, message: "PgClient: could not load the pg driver" })
    })
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const pool = new pg.Pool({
          connectionString: options.url,
          application_name: options.applicationName,
          types: options.types,
          max: options.maxConnections,
          Client: preparingClient(pg.Client, options.maxPreparedStatements ?? DEFAULT_MAX_PREPARED_STATEMENTS)
        })
        // An idle connection that breaks is dropped by the pool; unheard, the event would end the process.
        pool.on("error", () => {})
        return pool
      }),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(END_TIMEOUT))
    )
    yield* Effect.tryPromise({
      try: () => pool.query("SELECT 1"),
      catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
    }).pipe(
      Effect.timeoutFail({
        duration: CONNECT_TIMEOUT,
        onTimeout: () =>
          new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
      })
    )
    return pool
  })

/** A `pg` query with a callback, as an effect: the driver's result, or its error as a `SqlError`. */
const queried = (query: (done: QueryCallback) => void) =>
  Effect.async<unknown, SqlError>((resume) => {
    query((error, result) =>
      resume(
        error
          ? Effect.fail(new SqlError({ cause: error, message: "Failed to execute statement" }))
          : Effect.succeed(result)
      )
    )
  })

const rowsOf = (result: unknown): ReadonlyArray<object> =>
  typeof result === "object" && result !== null && "rows" in result && Array.isArray(result.rows) ? result.rows : []

/**
 * Statements outside a transaction on the pool, one pooled connection each (as `@effect/sql-pg` runs them), for
 * `LeanSql`. An interrupted statement is left to finish: lean statements are short, and its answer is dropped.
 */
export const poolAutocommit = (pool: PgPool): Autocommit => ({
  execute: (text, params) =>
    Effect.map(
      queried((done) => pool.query(text, params, done)),
      rowsOf
    )
})

// As `@effect/sql-pg` answers: the rows, or for several statements in one query the rows of each.
const rowsOrSets = (result: unknown): ReadonlyArray<unknown> =>
  Array.isArray(result) ? result.map(rowsOf) : rowsOf(result)

type RowsTransform = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

/**
 * A `Connection` over one client held for a transaction. Its statements run unnamed (the client names none inside
 * a transaction block); an interrupted one is left to finish, and the ROLLBACK that follows waits for it. A
 * stream reads all its rows first, as the PGlite client's does: nothing here streams large results.
 */
const clientConnection = (client: PgClientBase): Connection => {
  const run = (config: unknown, params: ReadonlyArray<unknown> | undefined) =>
    queried((done) => client.query(config, params, done))
  const execute = (text: string, params: ReadonlyArray<unknown>, transformRows: RowsTransform) =>
    Effect.map(run(text, params), (result) => {
      const rows = rowsOrSets(result) as ReadonlyArray<object>
      return transformRows ? transformRows(rows) : rows
    })
  return {
    execute,
    executeUnprepared: execute,
    executeRaw: (text, params) => run(text, params),
    executeValues: (text, params) =>
      Effect.map(
        run({ text, values: params, rowMode: "array" }, undefined),
        (result) => rowsOf(result) as ReadonlyArray<ReadonlyArray<unknown>>
      ),
    executeStream: (text, params, transformRows) => Stream.fromIterableEffect(execute(text, params, transformRows))
  }
}

/**
 * Clients of the pool held for one transaction each, for the lean `Transactor`. While held, a client that errors
 * (its socket closed) is remembered and destroyed on its way back instead of going back to the pool; an unheard
 * error event would end the process.
 */
export const poolTransactions = (pool: PgPool): TransactionConnections["Type"] => ({
  reserve: Effect.async<ReservedConnection, SqlError>((resume) => {
    // Waiting for a client can be interrupted: one that arrives after that goes straight back.
    let interrupted = false
    pool.connect((error, client, release) => {
      if (interrupted) {
        if (client !== undefined) release()
        return
      }
      if (error || client === undefined) {
        resume(
          Effect.fail(
            new SqlError({
              cause: error ?? new Error("the pool gave no client"),
              message: "Failed to acquire connection for transaction"
            })
          )
        )
        return
      }
      let failure: unknown
      const onError = (cause: unknown) => {
        failure = cause
      }
      client.on("error", onError)
      resume(
        Effect.succeed({
          connection: clientConnection(client),
          release: (broken) =>
            Effect.sync(() => {
              client.off("error", onError)
              release(failure ?? (broken ? new Error("COMMIT or ROLLBACK failed") : undefined))
            })
        })
      )
    })
    return Effect.sync(() => {
      interrupted = true
    })
  })
})
