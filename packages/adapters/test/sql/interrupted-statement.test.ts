/**
 * A statement whose fiber is interrupted (its client went away) never fails another request's statement. On
 * PostgreSQL a pool of two connections makes the old race certain rather than rare: a cancel sent for the
 * interrupted statement had to wait for a free connection, the statement finished meanwhile, its connection went
 * to the next statement in line, and the cancel, sent at last, named that connection's server process.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import pg from "pg"
import { migrations } from "../../src/sql/migrations/index.js"
import * as Postgres from "../../src/sql/postgres.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined

const twoConnections = (url: string) =>
  Postgres.layerFromPool({
    acquire: Effect.acquireRelease(
      Effect.sync(() => new pg.Pool({ connectionString: url, max: 2, types: Postgres.postgresResultTypes() })),
      (pool) => Effect.promise(() => pool.end())
    )
  })

// On PGlite (one session, no cancels) this passes by construction; the migrated template is the quickest to start.
const database = postgresUrl === undefined ? testDatabaseLayer(migrations) : twoConnections(postgresUrl)

// Live time: the steps are ordered by real sleeps of the database and of the test.
layer(database, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
  it.effect(`an interrupted statement leaves the next statement on its connection alone (${engineName})`, () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      // One connection held by a transaction for a second, the other by the statement about to be interrupted.
      const holder = yield* Effect.fork(sql.withTransaction(sql`SELECT pg_sleep(1)`))
      const interrupted = yield* Effect.fork(sql`SELECT pg_sleep(0.2)`)
      yield* Effect.sleep("50 millis")
      // Waits for a connection: it gets the interrupted statement's, once that statement is done.
      const innocent = yield* Effect.fork(sql<{ n: number }>`SELECT 1 AS n FROM pg_sleep(1.5)`)
      yield* Effect.sleep("50 millis")
      yield* Fiber.interrupt(interrupted)

      expect(yield* Fiber.join(innocent)).toEqual([{ n: 1 }])
      yield* Fiber.join(holder)
    })
  )
})
