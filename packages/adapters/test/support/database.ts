/**
 * A database for storage tests: PGlite in memory by default, PostgreSQL when `TEST_DATABASE_URL` is set.
 * On PostgreSQL every layer gets a schema of its own (dropped when the layer closes), so test files
 * running in parallel on one server never see each other's rows.
 */
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { inject } from "vitest"
import { DatabaseConfig, databaseLayer, type Migrations, migrationsLayer } from "../../src/sql/database.js"
import { migrations as appMigrations } from "../../src/sql/migrations/index.js"
import * as Pglite from "../../src/sql/pglite.js"

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined

/** The engine the storage tests run on, for test titles. */
export const engineName: "PostgreSQL" | "PGlite" = postgresUrl === undefined ? "PGlite" : "PostgreSQL"

// pg reads `options` from the connection string and sends it at start-up, so every pooled connection gets it.
const withSearchPath = (url: string, schema: string): string => {
  const parsed = new URL(url)
  parsed.searchParams.set("options", `-c search_path=${schema}`)
  return parsed.toString()
}

const runAsAdmin = (url: string, statement: (sql: SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.flatMap(SqlClient, statement).pipe(
    Effect.provide(databaseLayer(DatabaseConfig.Postgres({ url }))),
    Effect.orDie
  )

const isolatedPostgres = (url: string) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const schema = `test_${randomBytes(8).toString("hex")}`
      yield* Effect.acquireRelease(
        runAsAdmin(url, (sql) => sql`CREATE SCHEMA ${sql(schema)}`),
        () => runAsAdmin(url, (sql) => sql`DROP SCHEMA ${sql(schema)} CASCADE`)
      )
      return databaseLayer(DatabaseConfig.Postgres({ url: withSearchPath(url, schema) }))
    })
  )

// With the app's migrations, PGlite starts from the migrated copy the global set-up made (pglite-template.ts);
// the migrations then find themselves applied. Other migration sets start from an empty cluster.
const pgliteDatabase = (migrations: Migrations) => {
  const template = migrations === appMigrations ? inject("pgliteTemplate") : undefined
  return template === undefined
    ? databaseLayer(DatabaseConfig.Pglite({ dataDir: undefined }))
    : // The dump's bytes (tens of MB) are read when the layer is built, not when it is made: test files make their
      // layer at module scope, and the storage forks keep test modules loaded (isolate: false), so bytes held by
      // the layer would stay in memory for the rest of the run, one copy per file.
      Layer.unwrapEffect(Effect.sync(() => Pglite.layer({ loadDataDir: new Blob([readFileSync(template)]) })))
}

/** A migrated `SqlClient` on the test engine; build it once per file (PGlite takes seconds to start). */
export const testDatabaseLayer = (migrations: Migrations = {}) => {
  const database = postgresUrl === undefined ? pgliteDatabase(migrations) : isolatedPostgres(postgresUrl)
  return migrationsLayer(migrations).pipe(Layer.provideMerge(database))
}
