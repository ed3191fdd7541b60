/**
 * A `SqlClient` over one embedded PGlite instance (PostgreSQL compiled to WASM).
 *
 * PGlite is a single database session shared by every caller, so the client serialises access with a
 * one-slot semaphore: a transaction holds it from `BEGIN` to `COMMIT`/`ROLLBACK`, and every statement
 * outside a transaction holds it for the length of that statement. Statements are compiled by
 * `@effect/sql-pg`'s compiler, so SQL written for `PgClient` runs here unchanged.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
// Types only: PGlite itself is an optional peer, loaded when an embedded database is opened (`make`).
import type { PGlite, PGliteOptions, Results, RowMode } from "@electric-sql/pglite"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { loadOptional, type MissingPackage } from "../optional-package.js"
import { type Autocommit, LeanSql, makeLeanSql } from "./lean.js"

/** PGlite's result parsers by type OID (its `ParserOptions`, written here so these types need no PGlite installed). */
export type ResultParsers = { readonly [typeOid: number]: (text: string) => unknown }

/** What the embedded database runs on: optional peers of `@svc/adapters`, which `svc serve` installs. */
export const PGLITE_PACKAGES = ["@electric-sql/pglite", "@electric-sql/pglite-pgvector"] as const

const loadPglite = loadOptional({
  packages: PGLITE_PACKAGES,
  purpose: "The embedded database (PGlite)",
  load: () => Promise.all([import("@electric-sql/pglite"), import("@electric-sql/pglite-pgvector")])
}).pipe(
  Effect.mapError(
    (missing) =>
      new SqlError({ cause: missing, message: `${missing.message}, or set DATABASE_URL to use a PostgreSQL server` })
  )
)

/** Type id of {@link PgliteClient}. */
export const TypeId: unique symbol = Symbol.for("svc/sql/PgliteClient")

/** Type id of {@link PgliteClient}. */
export type TypeId = typeof TypeId

/** Options of the embedded client; the transforms behave as in `PgClient`. */
export interface PgliteClientConfig {
  /** Directory of the database files; `undefined` keeps the database in memory. */
  readonly dataDir?: string | undefined
  /**
   * A dump of a data directory (PGlite's `dumpDataDir`) to start from instead of an empty cluster, for a new
   * `dataDir` or one in memory: a migrated dump starts in about half the time of a fresh cluster (initdb).
   */
  readonly loadDataDir?: Blob | undefined
  readonly spanAttributes?: Record<string, unknown> | undefined
  readonly transformResultNames?: ((str: string) => string) | undefined
  readonly transformQueryNames?: ((str: string) => string) | undefined
  readonly transformJson?: boolean | undefined
  /** Extra PGlite result parsers by type OID, applied over {@link resultParsers}. */
  readonly parsers?: ResultParsers | undefined
}

/** A `SqlClient` backed by PGlite, with `json` for `jsonb` parameters like `PgClient`'s. */
export interface PgliteClient extends SqlClient.SqlClient {
  readonly [TypeId]: TypeId
  readonly config: PgliteClientConfig
  readonly json: (value: unknown) => Statement.Fragment
  /** The connection statements outside a transaction run on (each takes the session's lock for its length). */
  readonly autocommit: Autocommit
  /** The data directory as an uncompressed tarball, between transactions: a copy to start from (`loadDataDir`). */
  readonly dump: Effect.Effect<Blob, SqlError>
  /**
   * The database as a plain SQL script, written by PostgreSQL's own `pg_dump` (`@electric-sql/pglite-tools`, an
   * optional peer) with `args` added, between transactions: what `psql` or `svc db import` loads into PostgreSQL.
   */
  readonly sqlDump: (args: ReadonlyArray<string>) => Effect.Effect<string, SqlError | MissingPackage>
}

/** What `sqlDump` runs on: an optional peer, installed only where the embedded database is exported. */
export const PG_DUMP_PACKAGE = "@electric-sql/pglite-tools"

const loadPgDump = loadOptional({
  packages: [PG_DUMP_PACKAGE],
  purpose: "Exporting the embedded database as SQL (pg_dump)",
  load: () => import("@electric-sql/pglite-tools/pg_dump")
})

/** Service tag of the embedded client. */
export const PgliteClient = Context.GenericTag<PgliteClient>("svc/sql/PgliteClient")

/** Type OIDs whose parsing both engines agree on (see {@link resultParsers}). */
export const TypeOid = {
  int8: 20,
  date: 1082,
  int8Array: 1016,
  dateArray: 1182,
  timestamptz: 1184,
  textArray: 1009
} as const

/**
 * Result parsing shared by PGlite and PostgreSQL, so a row decodes the same on either engine:
 * - `int8` (`count(*)`, `sum(int4)`, `bigint` columns) → JS number. Values beyond 2^53 lose precision;
 *   identifiers are opaque strings, so only counts and sums reach this path.
 * - `date` → the plain `YYYY-MM-DD` string: pg builds a local-midnight `Date` and PGlite a UTC-midnight one,
 *   so no `Date` would mean the same day on both.
 * - `numeric` is left as the exact decimal string (both drivers' default) rather than a lossy float.
 * - `timestamptz` stays a `Date` (both drivers' default); `json`/`jsonb` are parsed; `bytea` is a `Uint8Array`.
 */
export const resultParsers: ResultParsers = {
  [TypeOid.int8]: (text: string) => Number(text),
  [TypeOid.date]: (text: string) => text
}

const ATTR_DB_SYSTEM_NAME = "db.system.name"
const ATTR_DB_NAMESPACE = "db.namespace"

interface PgJson extends Statement.Custom<"PgJson", unknown> {}
// Same custom kind as PgClient's `json`, so the shared pg compiler knows how to bind it.
const PgJson = Statement.custom<PgJson>("PgJson")

type RowsTransform = <A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>

const failed = (cause: unknown) => new SqlError({ cause, message: "Failed to execute statement" })

/**
 * The embedded server's settings. Its one session serves one process, and its files sit in the operating system's
 * page cache anyway: PostgreSQL's default 128 MB of shared buffers, kept in PGlite's WebAssembly memory once
 * touched and never given back, were a quarter of an idle embedded server's resident memory (PGlite on svc's seed
 * after a few catalog reads: 456 MB with 128 MB, 317 MB with 16 MB).
 */
export const EMBEDDED_POSTGRES_SETTINGS: ReadonlyArray<string> = ["shared_buffers = 16MB"]

/** Starts PGlite (or reopens `dataDir`) and builds a client over it; the instance closes with the scope. */
export const make = (
  config: PgliteClientConfig = {}
): Effect.Effect<PgliteClient, SqlError, Scope.Scope | Reactivity.Reactivity> => {
  // The starting copy's bytes (tens of MB) are held only until PGlite has read them: the closures below keep this
  // function's variables alive as long as the client is reachable, so they may not name `config` itself.
  const { loadDataDir, ...options } = config
  const start: { loadDataDir?: Blob | undefined } = { loadDataDir }
  return Effect.gen(function* () {
    const [{ PGlite }, { vector }] = yield* loadPglite
    // pgvector ships with every instance (its files load at start; the extension is created when first needed), so
    // Custom AI knowledge can be searched by meaning on the embedded database.
    const pgliteOptions: PGliteOptions = {
      parsers: { ...resultParsers, ...options.parsers },
      extensions: { vector },
      postgresqlconf: [...EMBEDDED_POSTGRES_SETTINGS]
    }
    if (options.dataDir !== undefined) pgliteOptions.dataDir = options.dataDir
    if (start.loadDataDir !== undefined) pgliteOptions.loadDataDir = start.loadDataDir

    const lock = yield* Effect.makeSemaphore(1)

    // The instance (and its WebAssembly memory) is let go when it closes: a client kept by whoever built it (a test
    // module, an embedder's runtime) then holds tens of MB less. A statement on a closed client fails as PGlite's.
    let open: PGlite | undefined
    const instance = (): PGlite => {
      if (open === undefined) throw new Error("PGlite is closed")
      return open
    }
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          try {
            open = await PGlite.create(pgliteOptions)
          } finally {
            start.loadDataDir = undefined
            delete pgliteOptions.loadDataDir
          }
        },
        catch: (cause) => new SqlError({ cause, message: "PgliteClient: failed to start PGlite" })
      }),
      () =>
        // Wait (a bounded time) for an open transaction to finish, so shutdown does not cut it off;
        // then release, so fibers still queued fail fast on the closed instance instead of hanging.
        Effect.interruptible(lock.take(1)).pipe(
          Effect.timeoutOption("5 seconds"),
          Effect.flatMap((taken) =>
            Effect.tryPromise(() => instance().close()).pipe(
              Effect.catchAllCause((cause) => Effect.logWarning("PgliteClient: closing PGlite failed", cause)),
              Effect.ensuring(
                Effect.sync(() => {
                  open = undefined
                })
              ),
              Effect.ensuring(Option.isSome(taken) ? lock.release(1) : Effect.void)
            )
          )
        )
    )

    // pg sends parameterless statements with the simple protocol, which accepts several statements at once;
    // PGlite's `exec` is that protocol, `query` the extended one. Mirroring the choice keeps engines alike.
    const run = (sql: string, params: ReadonlyArray<unknown>, rowMode: RowMode) =>
      Effect.tryPromise({
        try: (): Promise<Results | Array<Results>> =>
          params.length === 0 ? instance().exec(sql, { rowMode }) : instance().query(sql, [...params], { rowMode }),
        catch: failed
      })

    const rowsOf = (result: Results | Array<Results>): ReadonlyArray<unknown> => {
      if (!Array.isArray(result)) return result.rows
      // One result per statement: a single statement answers its rows, several answer one array each (as pg).
      return result.length === 1 ? result[0]!.rows : result.map((r) => r.rows)
    }

    const rawOf = (result: Results | Array<Results>): unknown =>
      Array.isArray(result) && result.length === 1 ? result[0] : result

    class PgliteConnection implements Connection {
      constructor(private readonly guard: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>) {}

      private rows(sql: string, params: ReadonlyArray<unknown>, rowMode: RowMode) {
        return this.guard(Effect.map(run(sql, params, rowMode), rowsOf))
      }

      execute(sql: string, params: ReadonlyArray<unknown>, transformRows: RowsTransform | undefined) {
        const rows = this.rows(sql, params, "object") as Effect.Effect<ReadonlyArray<object>, SqlError>
        return transformRows ? Effect.map(rows, transformRows) : rows
      }
      executeRaw(sql: string, params: ReadonlyArray<unknown>) {
        return this.guard(Effect.map(run(sql, params, "object"), rawOf))
      }
      executeValues(sql: string, params: ReadonlyArray<unknown>) {
        return this.rows(sql, params, "array") as Effect.Effect<ReadonlyArray<ReadonlyArray<unknown>>, SqlError>
      }
      executeUnprepared(sql: string, params: ReadonlyArray<unknown>, transformRows: RowsTransform | undefined) {
        return this.execute(sql, params, transformRows)
      }
      executeStream(sql: string, params: ReadonlyArray<unknown>, transformRows: RowsTransform | undefined) {
        // Rows are read in full under the lock and then emitted, so a consumer may query per row without
        // waiting on a lock its own stream holds.
        return Stream.fromIterableEffect(this.execute(sql, params, transformRows))
      }
    }

    // Outside a transaction each statement takes the lock on its own.
    const autocommit = new PgliteConnection(lock.withPermits(1))
    // Inside one, the lock is already held by the transaction's scope.
    const inTransaction = new PgliteConnection((effect) => effect)

    // `sql.withTransaction` holds the session in a scope of its own from BEGIN until after COMMIT or ROLLBACK. The
    // wait is interruptible (`sql.withTransaction` acquires uninterruptibly otherwise): a fiber queued behind a
    // long transaction can still be timed out or cancelled, and then holds nothing.
    const transactionAcquirer = Effect.as(
      Effect.acquireRelease(Effect.interruptible(lock.take(1)), () => lock.release(1)),
      inTransaction
    )

    const client = yield* SqlClient.make({
      acquirer: Effect.succeed(autocommit),
      transactionAcquirer,
      compiler: PgClient.makeCompiler(options.transformQueryNames, options.transformJson),
      spanAttributes: [
        ...(options.spanAttributes ? Object.entries(options.spanAttributes) : []),
        [ATTR_DB_SYSTEM_NAME, "postgresql"],
        [ATTR_DB_NAMESPACE, "postgres"],
        ["svc.db.engine", "pglite"]
      ],
      transformRows: options.transformResultNames
        ? Statement.defaultTransforms(options.transformResultNames, options.transformJson).array
        : undefined
    })

    return Object.assign(client, {
      [TypeId]: TypeId as TypeId,
      config: options,
      json: (value: unknown) => PgJson(value),
      autocommit,
      dump: lock.withPermits(1)(
        Effect.tryPromise({
          try: (): Promise<Blob> => instance().dumpDataDir("none"),
          catch: (cause) => new SqlError({ cause, message: "PgliteClient: could not dump the data directory" })
        })
      ),
      sqlDump: (args: ReadonlyArray<string>) =>
        Effect.flatMap(loadPgDump, ({ pgDump }) =>
          // pg_dump speaks to the one session through PGlite's raw protocol: nothing else may use it meanwhile.
          lock.withPermits(1)(
            Effect.tryPromise({
              try: async (): Promise<string> => {
                const db = instance()
                const setting = await db.query<{ path: string }>("SELECT current_setting('search_path') AS path")
                try {
                  return await (await pgDump({ pg: db, args: [...args] })).text()
                } finally {
                  // pg_dump leaves without ending its read-only transaction (PGlite's session outlives it): ended
                  // here, or every later write would fail; ending it undoes its settings, so the path is set back.
                  await db.exec("ROLLBACK")
                  await db.query("SELECT set_config('search_path', $1, false)", [setting.rows[0]?.path ?? "public"])
                }
              },
              catch: (cause) =>
                new SqlError({
                  cause,
                  message: `pg_dump failed: ${cause instanceof Error ? cause.message : String(cause)}`
                })
            })
          )
        )
    })
  })
}

/** Layer of the embedded client, as both `PgliteClient` and the generic `SqlClient`, with its `LeanSql`. */
export const layer = (
  options: PgliteClientConfig = {}
): Layer.Layer<PgliteClient | SqlClient.SqlClient | LeanSql, SqlError> =>
  Layer.scopedContext(
    Effect.map(make(options), (client) =>
      Context.make(PgliteClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(LeanSql, makeLeanSql(client.autocommit))
      )
    )
  ).pipe(Layer.provide(Reactivity.layer))
