/**
 * The PostgreSQL server engine: a `pg` pool read the way PGlite reads results, with a `PgClient` that never cancels
 * a statement (`pg-client.ts`) and a `LeanSql` over it.
 *
 * Lean statements outside a transaction run as named statements (pg's public `{ name, text, values }` query):
 * PostgreSQL parses and plans a named statement once per connection, then only binds and executes it. Their texts
 * are fixed per call site, so the names are few and never need evicting. Statements of `sql` templates and
 * everything inside a transaction run unnamed, as `@effect/sql-pg` sends them.
 */
import { createHash } from "node:crypto"
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import pg from "pg"
import { type Autocommit, LeanSql, makeLeanSql } from "./lean.js"
import * as PgSql from "./pg-client.js"
import * as Pglite from "./pglite.js"
import { DatabasePool, pgPoolReader } from "./pool-stats.js"

// ---------------------------------------------------------------------------------------------------------------
// Result parsing, aligned with PGlite's (see `Pglite.resultParsers`).

const mapNested = (value: unknown, f: (text: string) => unknown): unknown =>
  Array.isArray(value) ? value.map((item) => mapNested(item, f)) : typeof value === "string" ? f(value) : value

// @types/pg types an OID as the enum of pg-types' built-in types, which leaves out the array types; every number is
// one of that enum's values to the compiler.
type PgTypeOid = Parameters<typeof pg.types.getTypeParser>[0]
const pgTypeOid = (oid: number): PgTypeOid => oid

/**
 * pg's own parsers, with the overrides that make a row decode the same as on PGlite (`bigint` as a number, `date` as
 * its `YYYY-MM-DD` text, in arrays too). A `pg.Pool` an app makes for svc's storage must be given these as `types`.
 */
export const postgresResultTypes = (): pg.CustomTypesConfig => {
  const types = new pg.TypeOverrides(pg.types)
  for (const [oid, parse] of Object.entries(Pglite.resultParsers)) {
    types.setTypeParser(Number(oid), "text", (text: string) => parse(text))
  }
  const textArray: (text: string) => unknown = pg.types.getTypeParser(pgTypeOid(Pglite.TypeOid.textArray), "text")
  types.setTypeParser(Pglite.TypeOid.int8Array, "text", (text: string) => mapNested(textArray(text), Number))
  types.setTypeParser(Pglite.TypeOid.dateArray, "text", textArray)
  return types
}

// ---------------------------------------------------------------------------------------------------------------
// The pool.

// PgClient.make's defaults, kept since a client from a pool leaves connecting to whoever made the pool.
const CONNECT_TIMEOUT = Duration.seconds(5)
const END_TIMEOUT = Duration.seconds(1)

/** A pool on `url` that fails unless the server answers within 5 seconds, and ends when the scope closes. */
const connectPool = (url: string): Effect.Effect<pg.Pool, SqlError, Scope.Scope> =>
  Effect.gen(function* () {
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const pool = new pg.Pool({ connectionString: url, application_name: "svc", types: postgresResultTypes() })
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

// ---------------------------------------------------------------------------------------------------------------
// Lean statements outside a transaction.

// A digest of the text, so one name never stands for two texts (pg refuses a name reused for another text).
const statementName = (text: string): string => `svc_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`

// Raised when binding a named statement the connection has prepared before: `0A000` when a schema change altered
// its result columns ("cached plan must not change result type"), `26000` when the server no longer has it
// (DISCARD ALL or DEALLOCATE ALL ran on the connection).
const STALE_STATEMENT = new Set(["0A000", "26000"])

const isStaleStatement = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  "code" in error &&
  typeof error.code === "string" &&
  STALE_STATEMENT.has(error.code)

type Answer = (error: Error | undefined, result: pg.QueryResult | undefined) => void

/**
 * Lean statements outside a transaction on `pool`, one pooled connection each (as `@effect/sql-pg` runs them). A
 * parameterised text runs named; parameterless ones (BEGIN, SET, several statements at once) stay on the simple
 * protocol, as pg and PGlite send them. pg's pool drops a connection whose query failed, so a statement gone stale
 * on a connection is dropped with it, and runs again unnamed. An interrupted statement is left to finish: lean
 * statements are short, and its answer is dropped.
 */
const leanAutocommit = (pool: pg.Pool): Autocommit => {
  // Texts are LeanSql's, one per call site: a bounded set.
  const names = new Map<string, string>()
  const nameOf = (text: string): string => {
    let name = names.get(text)
    if (name === undefined) {
      name = statementName(text)
      names.set(text, name)
    }
    return name
  }
  const run = (text: string, values: Array<unknown>, answer: Answer): void => {
    if (values.length === 0) {
      pool.query(text, answer)
      return
    }
    pool.query({ name: nameOf(text), text, values }, (error: Error | undefined, result) => {
      if (error && isStaleStatement(error)) pool.query(text, values, answer)
      else answer(error, result)
    })
  }
  return {
    execute: (text, params) =>
      Effect.async<ReadonlyArray<object>, SqlError>((resume) => {
        run(text, [...params], (error, result) =>
          resume(
            error
              ? Effect.fail(new SqlError({ cause: error, message: "Failed to execute statement" }))
              : Effect.succeed(result?.rows ?? [])
          )
        )
      })
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The engine.

/**
 * `PgClient` (also as `SqlClient`) and `LeanSql` over the pool `acquire` gives, which must parse results with
 * {@link postgresResultTypes}. Interrupted statements are never cancelled (see `pg-client.ts`).
 */
export const layerFromPool = (options: {
  readonly acquire: Effect.Effect<pg.Pool, SqlError, Scope.Scope>
}): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | LeanSql | DatabasePool, SqlError> =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const pool = yield* options.acquire
      const client = yield* PgSql.fromPool(pool)
      return Context.make(PgClient.PgClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(LeanSql, makeLeanSql(leanAutocommit(pool))),
        Context.add(DatabasePool, pgPoolReader(pool))
      )
    })
  ).pipe(Layer.provide(Reactivity.layer))

/** {@link layerFromPool} over a pool of its own on `url`, ended after both. */
export const layer = (
  url: string
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | LeanSql | DatabasePool, SqlError> =>
  layerFromPool({ acquire: connectPool(url) })
