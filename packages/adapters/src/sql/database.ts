/**
 * Picks the storage engine (embedded PGlite or a PostgreSQL server) and runs migrations on it.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as Migrator from "@effect/sql/Migrator"
import type * as SqlClient from "@effect/sql/SqlClient"
import { SqlClient as SqlClientTag } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { DataDirectoryLocked, DataDirectoryUnavailable } from "./errors.js"
import type { LeanSql } from "./lean.js"
import * as Pglite from "./pglite.js"
import * as Postgres from "./postgres.js"

/**
 * Where the data lives: an embedded PGlite directory (`undefined` = in memory) or a PostgreSQL server.
 *
 * A PGlite `seed` is a migrated database to start a new one from: a file PGlite's `dumpDataDir` wrote (a tarball,
 * gzipped or not). A directory without a database, or an in-memory one, is unpacked from it instead of made by
 * `initdb` and every migration, which is most of a first start (`svc serve` ships one: `@svc/server`'s
 * `PGLITE_SEED`). A seed that is missing or unreadable is passed over: the database is then made from scratch. A
 * directory that already holds a database never reads it.
 */
export type DatabaseConfig = Data.TaggedEnum<{
  Pglite: { readonly dataDir: string | undefined; readonly seed?: string | undefined }
  Postgres: { readonly url: string }
}>

/** Constructors and matchers of {@link DatabaseConfig}. */
export const DatabaseConfig = Data.taggedEnum<DatabaseConfig>()

// ---------------------------------------------------------------------------------------------------------------
// The data-directory lock: PGlite owns its directory, so two processes on it would corrupt it.

const LOCK_FILE = "svc.lock"
// Locks held by this process, so a stale lock left by an earlier process with our pid (pid 1 in a
// container restarted after a crash) is told apart from a second open of the directory by ourselves.
const heldLocks = new Set<string>()

const errorCode = (error: unknown): unknown =>
  typeof error === "object" && error !== null && "code" in error ? error.code : undefined

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return errorCode(error) === "EPERM"
  }
}

const readHolder = (file: string): number | undefined => {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8").trim(), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined
    throw error
  }
}

// Writes the pid to a private file and hard-links it into place: the link is atomic and fails if a lock
// exists, and a reader never sees a half-written lock.
const tryCreateLock = (file: string): boolean => {
  const draft = `${file}.${process.pid}.tmp`
  fs.writeFileSync(draft, `${process.pid}\n`)
  try {
    fs.linkSync(draft, file)
    return true
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false
    throw error
  } finally {
    fs.rmSync(draft, { force: true })
  }
}

// Whether the process named by a lock is still the one holding it: alive, and not this process unless this process
// took the lock itself (a restarted container's pid 1 finds its own pid in the lock its predecessor left).
const holds = (file: string, holder: number): boolean =>
  isAlive(holder) && (holder !== process.pid || heldLocks.has(file))

type Claim =
  | { readonly _tag: "Claimed"; readonly staleHolder: number | undefined }
  | { readonly _tag: "Refused"; readonly heldBy: number }

const claimDataDir = (dataDir: string): Claim => {
  fs.mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, LOCK_FILE)
  let staleHolder: number | undefined
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreateLock(file)) {
      heldLocks.add(file)
      return { _tag: "Claimed", staleHolder }
    }
    const holder = readHolder(file)
    if (holder !== undefined && holds(file, holder)) return { _tag: "Refused", heldBy: holder }
    // Left behind by a process that is gone: take it over.
    staleHolder = holder
    fs.rmSync(file, { force: true })
  }
  throw new Error(`could not create ${file}`)
}

const releaseDataDir = (dataDir: string): void => {
  const file = path.join(dataDir, LOCK_FILE)
  if (!heldLocks.delete(file)) return
  if (readHolder(file) === process.pid) fs.rmSync(file, { force: true })
}

/** Who holds an embedded data directory: nobody, a live process, or a process that is gone (a stale lock). */
export type DataDirHolder = Data.TaggedEnum<{
  Free: {}
  Held: { readonly pid: number }
  Stale: { readonly pid: number }
}>

/** Constructors and matchers of {@link DataDirHolder}. */
export const DataDirHolder = Data.taggedEnum<DataDirHolder>()

/** The one line said when a lock left by a killed process is removed. */
export const staleLockMessage = (pid: number): string => `removed a stale lock left by pid ${pid} (no longer running)`

/**
 * Reads `<dataDir>/svc.lock` without taking it: whether a live process (the server) holds the directory. Only a
 * look: the answer can change right after, so a writer still goes through {@link lockDataDir}.
 */
export const dataDirHolder = (dataDir: string): Effect.Effect<DataDirHolder, DataDirectoryUnavailable> => {
  const dir = path.resolve(dataDir)
  return Effect.try({
    try: () => {
      const file = path.join(dir, LOCK_FILE)
      const holder = readHolder(file)
      if (holder === undefined) return DataDirHolder.Free()
      return holds(file, holder) ? DataDirHolder.Held({ pid: holder }) : DataDirHolder.Stale({ pid: holder })
    },
    catch: (cause) => new DataDirectoryUnavailable({ dataDir: dir, cause })
  })
}

/**
 * Removes `<dataDir>/svc.lock` if it still names `pid` and that process is gone; answers whether it did. Another
 * process may take the lock over at the same moment: it then names a live pid and stays.
 */
export const removeStaleLock = (dataDir: string, pid: number): Effect.Effect<boolean, DataDirectoryUnavailable> => {
  const dir = path.resolve(dataDir)
  return Effect.try({
    try: () => {
      const file = path.join(dir, LOCK_FILE)
      if (readHolder(file) !== pid || holds(file, pid)) return false
      fs.rmSync(file, { force: true })
      return true
    },
    catch: (cause) => new DataDirectoryUnavailable({ dataDir: dir, cause })
  })
}

/** Claims `<dataDir>/svc.lock` for this process until the scope closes; refuses while another live process holds it. */
export const lockDataDir = (
  dataDir: string
): Effect.Effect<void, DataDirectoryLocked | DataDirectoryUnavailable, Scope.Scope> => {
  const dir = path.resolve(dataDir)
  return Effect.acquireRelease(
    Effect.try({
      try: () => claimDataDir(dir),
      catch: (cause) => new DataDirectoryUnavailable({ dataDir: dir, cause })
    }).pipe(
      Effect.flatMap((claim) =>
        claim._tag === "Refused"
          ? Effect.fail(new DataDirectoryLocked({ dataDir: dir, pid: claim.heldBy }))
          : claim.staleHolder === undefined
            ? Effect.void
            : Effect.logWarning(staleLockMessage(claim.staleHolder))
      )
    ),
    () =>
      Effect.try(() => releaseDataDir(dir)).pipe(
        Effect.catchAll((cause) => Effect.logWarning(`could not remove the lock of ${dir}`, cause))
      )
  )
}

// ---------------------------------------------------------------------------------------------------------------
// Engines.

// PostgreSQL writes this file first into every data directory it makes: its absence means no database there yet.
const holdsDatabase = (dir: string): boolean => fs.existsSync(path.join(dir, "PG_VERSION"))

/** The seed's bytes, or nothing (said once, at debug level) when it cannot be read. */
const readSeed = (seed: string | undefined): Effect.Effect<Blob | undefined> =>
  seed === undefined
    ? Effect.succeed(undefined)
    : Effect.try(() => new Blob([fs.readFileSync(seed)])).pipe(
        Effect.catchAll((cause) =>
          Effect.as(Effect.logDebug(`no PGlite seed at ${seed}: the database is made from scratch`, cause), undefined)
        )
      )

const pgliteLayer = (
  dataDir: string | undefined,
  seed: string | undefined
): Layer.Layer<SqlClient.SqlClient | LeanSql, SqlError | DataDirectoryLocked | DataDirectoryUnavailable> => {
  if (dataDir === undefined) {
    return Layer.unwrapEffect(Effect.map(readSeed(seed), (loadDataDir) => Pglite.layer({ loadDataDir })))
  }
  const dir = path.resolve(dataDir)
  // The lock is taken before PGlite opens the directory and released after it has closed (scope order); the seed
  // is looked at under the lock, so two processes never both unpack one into the same directory.
  return Layer.unwrapScoped(
    Effect.gen(function* () {
      yield* lockDataDir(dir)
      const loadDataDir = holdsDatabase(dir) ? undefined : yield* readSeed(seed)
      return Pglite.layer({ dataDir: dir, loadDataDir })
    })
  )
}

/**
 * The `SqlClient` for a {@link DatabaseConfig}, and the `LeanSql` of the same connections: PGlite over a locked
 * directory, or a PostgreSQL pool.
 */
export const databaseLayer = (
  config: DatabaseConfig
): Layer.Layer<SqlClient.SqlClient | LeanSql, SqlError | DataDirectoryLocked | DataDirectoryUnavailable> =>
  DatabaseConfig.$match(config, {
    Pglite: ({ dataDir, seed }) => pgliteLayer(dataDir, seed),
    Postgres: ({ url }) => Postgres.layer(url)
  })

// ---------------------------------------------------------------------------------------------------------------
// Migrations.

/** Migrations keyed `"<id>_<name>"` (e.g. `"0001_init"`), applied in id order, each once. */
export type Migrations = Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>

/** Options of {@link runMigrations}. */
export interface MigrationOptions {
  /** Bookkeeping table of applied migrations. */
  readonly table?: string | undefined
}

const DEFAULT_MIGRATIONS_TABLE = "effect_sql_migrations"
const MIGRATION_KEY = /^(\d+)_(.+)$/

const migrator = Migrator.make({})

/**
 * Applies the migrations not applied yet and answers the `[id, name]` of those it ran (none on a second run).
 *
 * Concurrent runs (several processes starting at once on one PostgreSQL) are serialised by a transaction-level
 * advisory lock per schema. A database with a migration newer than any of `migrations` is refused (an older svc
 * started on a database a newer one migrated). The Migrator only locks its table once it exists and creates it with a check-then-
 * create that races, so the table is created here, under the lock, in the same transaction.
 */
export const runMigrations = (
  migrations: Migrations,
  options: MigrationOptions = {}
): Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient.SqlClient
> =>
  Effect.gen(function* () {
    const unmatched = Object.keys(migrations).filter((key) => !MIGRATION_KEY.test(key))
    if (unmatched.length > 0) {
      // fromRecord silently skips such keys; a typo must not silently skip a migration.
      return yield* new Migrator.MigrationError({
        reason: "bad-state",
        message: `Migration keys must look like "0001_name": ${unmatched.join(", ")}`
      })
    }
    const table = options.table ?? DEFAULT_MIGRATIONS_TABLE
    const sql = yield* SqlClientTag
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`svc/sql/migrations/${table}/`} || current_schema()))`
        // Same shape as the Migrator's own table.
        yield* sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
          migration_id integer primary key,
          created_at timestamp with time zone not null default now(),
          name text not null
        )`
        // A database a newer svc migrated has tables this code does not know: serving it could write rows the newer
        // code reads wrongly. Refused, before anything is done, naming both versions.
        const known = Math.max(0, ...Object.keys(migrations).map((key) => Number(MIGRATION_KEY.exec(key)?.[1] ?? 0)))
        const [newest] = yield* sql<{ readonly id: number | null; readonly name: string | null }>`
          SELECT migration_id AS id, name FROM ${sql(table)} ORDER BY migration_id DESC LIMIT 1`
        if (newest?.id != null && newest.id > known) {
          return yield* new Migrator.MigrationError({
            reason: "bad-state",
            message:
              `the database was migrated by a newer svc (its newest migration is ${newest.id}_${newest.name}; this ` +
              `svc knows up to ${known}): run that newer version of svc on it, or point this one at another database`
          })
        }
        return yield* migrator({ loader: Migrator.fromRecord(migrations), table })
      })
    )
  })

/** A layer that applies the migrations when built (and fails the build if one fails). */
export const migrationsLayer = (
  migrations: Migrations,
  options: MigrationOptions = {}
): Layer.Layer<never, Migrator.MigrationError | SqlError, SqlClient.SqlClient> =>
  Layer.effectDiscard(runMigrations(migrations, options))
