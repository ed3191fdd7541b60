import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as TestServices from "effect/TestServices"
import { DatabaseConfig, databaseLayer, type Migrations, runMigrations } from "../../src/sql/database.js"
import { DataDirectoryLocked, isUniqueViolation, sqlStateOf } from "../../src/sql/errors.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

const migrations: Migrations = {
  "0001_notes": Effect.flatMap(
    SqlClient,
    (sql) => sql`CREATE TABLE notes (
      id serial PRIMARY KEY,
      owner text NOT NULL,
      body text NOT NULL,
      CONSTRAINT notes_owner_body_key UNIQUE (owner, body)
    )`
  ),
  "0002_migration_log": Effect.flatMap(SqlClient, (sql) => sql`CREATE TABLE migration_log (entry text NOT NULL)`)
}

interface Note {
  readonly body: string
}

const insertNote = (owner: string, body: string) =>
  Effect.flatMap(SqlClient, (sql) => sql`INSERT INTO notes ${sql.insert({ owner, body })}`)

const bodiesOf = (owner: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<Note>`SELECT body FROM notes WHERE owner = ${owner} ORDER BY body`, (rows) =>
      rows.map((row) => row.body)
    )
  )

const expectSqlError = <A>(effect: Effect.Effect<A, SqlError, SqlClient>) =>
  Effect.map(Effect.flip(effect), (error) => {
    expect(error._tag).toBe("SqlError")
    return error
  })

layer(testDatabaseLayer(migrations), { timeout: "60 seconds" })(`SqlClient on ${engineName}`, (it) => {
  it.effect("runs parameterised statements", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* insertNote("params", "it's quoted")
      const rows = yield* sql<Note>`SELECT body FROM notes WHERE owner = ${"params"} AND body = ${"it's quoted"}`
      expect(rows).toEqual([{ body: "it's quoted" }])
    })
  )

  it.effect("answers int8 as numbers, numeric and date as strings, timestamptz as Date", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* insertNote("types", "a")
      yield* insertNote("types", "b")
      // Without parameters pg (and so this client) uses the simple protocol, with them the extended one.
      const unparameterised = yield* sql`SELECT count(*) AS n FROM notes WHERE owner = 'types'`
      const [row] = yield* sql`SELECT
          count(*) AS n,
          array_agg(id::int8 ORDER BY id) AS ids,
          1.50::numeric(12, 2) AS amount,
          date '2024-02-29' AS day,
          timestamptz '2024-01-02T03:04:05Z' AS at,
          '{"a": [1, 2]}'::jsonb AS doc
        FROM notes WHERE owner = ${"types"}`
      expect(unparameterised).toEqual([{ n: 2 }])
      expect(yield* sql`SELECT count(*) FROM notes WHERE owner = ${"types"}`.values).toEqual([[2]])
      expect(row?.n).toBe(2)
      expect(row?.ids).toEqual([expect.any(Number), expect.any(Number)])
      expect(row?.amount).toBe("1.50")
      expect(row?.day).toBe("2024-02-29")
      expect(row?.at).toEqual(new Date("2024-01-02T03:04:05Z"))
      expect(row?.doc).toEqual({ a: [1, 2] })
    })
  )

  it.effect("runs several statements in one unparameterised query", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* sql.unsafe(
        `INSERT INTO notes (owner, body) VALUES ('multi', 'one'); INSERT INTO notes (owner, body) VALUES ('multi', 'two')`
      )
      expect(yield* bodiesOf("multi")).toEqual(["one", "two"])
    })
  )

  it.effect("commits a transaction and rolls a failed one back", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* sql.withTransaction(Effect.zipRight(insertNote("tx", "committed"), insertNote("tx", "committed too")))
      const failed = yield* Effect.either(
        sql.withTransaction(Effect.zipRight(insertNote("tx", "rolled back"), Effect.fail("abandon" as const)))
      )
      expect(failed).toEqual(Either.left("abandon"))
      expect(yield* bodiesOf("tx")).toEqual(["committed", "committed too"])
    })
  )

  it.effect("nests transactions as savepoints", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* insertNote("nested", "outer")
          yield* Effect.either(
            sql.withTransaction(Effect.zipRight(insertNote("nested", "inner failed"), Effect.fail("inner")))
          )
          yield* sql.withTransaction(insertNote("nested", "inner kept"))
          yield* insertNote("nested", "after")
        })
      )
      expect(yield* bodiesOf("nested")).toEqual(["after", "inner kept", "outer"])

      yield* Effect.either(
        sql.withTransaction(
          Effect.gen(function* () {
            yield* sql.withTransaction(insertNote("nested-outer-fails", "inner"))
            return yield* Effect.fail("outer")
          })
        )
      )
      expect(yield* bodiesOf("nested-outer-fails")).toEqual([])
    })
  )

  it.effect("keeps concurrent transactions apart, and statements outside them out of them", () =>
    TestServices.provideLive(
      Effect.gen(function* () {
        const sql = yield* SqlClient
        const writer = (body: string, outcome: "commit" | "rollback") =>
          sql.withTransaction(
            Effect.gen(function* () {
              yield* insertNote("concurrent", body)
              yield* Effect.sleep("60 millis")
              const seen = yield* bodiesOf("concurrent")
              return outcome === "commit" ? seen : yield* Effect.fail(seen)
            })
          )
        const [seenByKept, rolledBack] = yield* Effect.all(
          [
            writer("kept", "commit"),
            Effect.flip(writer("abandoned", "rollback")),
            Effect.zipRight(Effect.sleep("20 millis"), insertNote("concurrent", "autocommit"))
          ],
          { concurrency: "unbounded" }
        )
        expect(seenByKept).toContain("kept")
        expect(seenByKept).not.toContain("abandoned")
        expect(rolledBack).toContain("abandoned")
        expect(yield* bodiesOf("concurrent")).toEqual(["autocommit", "kept"])
      })
    )
  )

  it.effect("lets a transaction waiting for its turn be interrupted", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const holding = yield* Deferred.make<void>()
      const finish = yield* Deferred.make<void>()
      const first = yield* Effect.fork(
        sql.withTransaction(
          Effect.gen(function* () {
            yield* insertNote("interrupted", "first")
            yield* Deferred.succeed(holding, undefined)
            yield* Deferred.await(finish)
          })
        )
      )
      yield* Deferred.await(holding)
      const second = yield* Effect.fork(
        sql.withTransaction(Effect.zipRight(insertNote("interrupted", "second"), Effect.never))
      )
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(second)
      yield* Deferred.succeed(finish, undefined)
      yield* Fiber.join(first)
      expect(yield* bodiesOf("interrupted")).toEqual(["first"])
    })
  )

  it.effect("streams rows, and lets the consumer query while streaming", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* insertNote("stream", "x")
      yield* insertNote("stream", "y")
      const counted = yield* sql<Note>`SELECT body FROM notes WHERE owner = ${"stream"} ORDER BY body`.stream.pipe(
        Stream.mapEffect((note) =>
          Effect.map(sql`SELECT count(*) AS n FROM notes WHERE body = ${note.body}`, (rows) => [note.body, rows[0]?.n])
        ),
        Stream.runCollect
      )
      expect(Array.from(counted)).toEqual([
        ["x", 1],
        ["y", 1]
      ])
    })
  )

  it.effect("reports a unique violation as a SqlError carrying SQLSTATE 23505", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* insertNote("unique", "once")
      const duplicate = yield* expectSqlError(insertNote("unique", "once"))
      expect(sqlStateOf(duplicate)).toBe("23505")
      expect(isUniqueViolation(duplicate)).toBe(true)
      expect(isUniqueViolation(duplicate, "notes_owner_body_key")).toBe(true)
      expect(isUniqueViolation(duplicate, "some_other_key")).toBe(false)

      const syntax = yield* expectSqlError(sql`SELEC 1`)
      expect(sqlStateOf(syntax)).toBe("42601")
      expect(isUniqueViolation(syntax)).toBe(false)

      // The failed statement leaves the session usable.
      expect(yield* bodiesOf("unique")).toEqual(["once"])
    })
  )

  it.effect("applies migrations once: a second run is a no-op", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      expect(yield* runMigrations(migrations)).toEqual([])
      const applied = yield* sql`SELECT migration_id, name FROM effect_sql_migrations ORDER BY migration_id`
      expect(applied).toEqual([
        { migration_id: 1, name: "notes" },
        { migration_id: 2, name: "migration_log" }
      ])
    })
  )

  it.effect("applies a migration once when several runs start together", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const racing: Migrations = {
        "0001_log_once": Effect.asVoid(sql`INSERT INTO migration_log (entry) VALUES ('applied')`)
      }
      const runs = yield* Effect.all(
        Array.from({ length: 4 }, () => runMigrations(racing, { table: "racing_migrations" })),
        { concurrency: "unbounded" }
      )
      expect(runs.flat()).toEqual([[1, "log_once"]])
      expect(yield* sql`SELECT count(*) AS n FROM migration_log`).toEqual([{ n: 1 }])
    })
  )

  it.effect("refuses a database a newer version migrated, naming both versions, and changes nothing", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const newer: Migrations = {
        "0001_first": Effect.void,
        "0002_second": Effect.asVoid(sql`CREATE TABLE newer_only (id text)`)
      }
      expect(yield* runMigrations(newer, { table: "versioned_migrations" })).toHaveLength(2)
      const older: Migrations = {
        "0001_first": Effect.void,
        "0003_never": Effect.asVoid(sql`CREATE TABLE older_only (id text)`)
      }
      const refused = yield* Effect.flip(
        runMigrations({ "0001_first": Effect.void }, { table: "versioned_migrations" })
      )
      expect(refused._tag).toBe("MigrationError")
      expect(refused.message).toContain(
        "migrated by a newer svc (its newest migration is 2_second; this svc knows up to 1)"
      )
      // A code with a newer migration than the database still migrates it (and one with a gap is the Migrator's).
      expect(yield* runMigrations(older, { table: "versioned_migrations" })).toEqual([[3, "never"]])
    })
  )

  it.effect("refuses migration keys that are not <id>_<name>", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(runMigrations({ init: Effect.void }))
      expect(error._tag).toBe("MigrationError")
      expect(error.message).toContain("init")
    })
  )
})

describe("PGlite data directory", () => {
  const withTempDir = <A, E, R>(use: (dir: string) => Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "svc-pglite-"))),
      (dir) => use(path.join(dir, "data")),
      (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
    )

  const open = (dataDir: string) => databaseLayer(DatabaseConfig.Pglite({ dataDir }))

  it.effect("refuses a directory held by another live process", () =>
    withTempDir((dataDir) =>
      Effect.gen(function* () {
        fs.mkdirSync(dataDir, { recursive: true })
        // Our parent (the test runner) is alive and is not us.
        fs.writeFileSync(path.join(dataDir, "svc.lock"), `${process.ppid}\n`)
        const error = yield* Effect.flip(Effect.provide(SqlClient, open(dataDir)))
        expect(error).toBeInstanceOf(DataDirectoryLocked)
        expect(error.message).toBe(
          `the server (pid ${process.ppid}) holds the data directory ${dataDir}; stop it or point DATABASE_URL at PostgreSQL`
        )
        expect(fs.readFileSync(path.join(dataDir, "svc.lock"), "utf8").trim()).toBe(String(process.ppid))
      })
    )
  )

  it.effect(
    "keeps data across close and reopen, takes over a stale lock and refuses a second open",
    () =>
      withTempDir((dataDir) =>
        Effect.gen(function* () {
          const lockFile = path.join(dataDir, "svc.lock")
          const gone = spawnSync(process.execPath, ["-e", ""]).pid
          fs.mkdirSync(dataDir, { recursive: true })
          fs.writeFileSync(lockFile, `${gone}\n`)

          yield* Effect.gen(function* () {
            const sql = yield* SqlClient
            expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid))
            yield* sql`CREATE TABLE kept (value text NOT NULL)`
            yield* sql.withTransaction(sql`INSERT INTO kept (value) VALUES (${"survives"})`)

            const second = yield* Effect.flip(Effect.provide(SqlClient, open(dataDir)))
            expect(second).toBeInstanceOf(DataDirectoryLocked)
            expect(second.message).toContain(`pid ${process.pid}`)
          }).pipe(Effect.provide(open(dataDir)))
          expect(fs.existsSync(lockFile)).toBe(false)

          const rows = yield* Effect.flatMap(SqlClient, (sql) => sql`SELECT value FROM kept`).pipe(
            Effect.provide(open(dataDir))
          )
          expect(rows).toEqual([{ value: "survives" }])
        })
      ),
    60_000
  )
})
