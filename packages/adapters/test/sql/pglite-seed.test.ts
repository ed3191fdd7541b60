/**
 * A PGlite seed (`DatabaseConfig.Pglite({ seed })`): a new directory, or an in-memory database, starts from it; a
 * directory that already holds a database never reads it; a seed that is not there is passed over.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { SqlClient } from "@effect/sql"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { DatabaseConfig, databaseLayer } from "../../src/sql/database.js"
import * as Pglite from "../../src/sql/pglite.js"

const scratch = mkdtempSync(join(tmpdir(), "svc-seed-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

// A seed as the build makes one: a dump, gzipped, here of a database holding one marker row.
const seedFile = join(scratch, "seed.tar.gz")
const makeSeed = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE seeded (mark text NOT NULL)`
  yield* sql`INSERT INTO seeded (mark) VALUES ('from the seed')`
  const dump = yield* (yield* Pglite.PgliteClient).dump
  writeFileSync(seedFile, gzipSync(Buffer.from(yield* Effect.promise(() => dump.arrayBuffer()))))
}).pipe(Effect.provide(Pglite.layer()))

const marks = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly n: number }>`SELECT count(*) AS n FROM pg_tables WHERE tablename = 'seeded'`.pipe(
    Effect.flatMap(([row]) =>
      row?.n === 1
        ? Effect.map(sql<{ readonly mark: string }>`SELECT mark FROM seeded`, (rows) => rows)
        : Effect.succeed([])
    )
  )
)

const openWith = (config: DatabaseConfig) => Effect.scoped(Effect.provide(marks, databaseLayer(config)))

describe("a PGlite seed", { timeout: 120_000 }, () => {
  it.effect(
    "starts a new directory and an in-memory database; a directory with a database keeps its own; a missing seed is passed over",
    () =>
      Effect.gen(function* () {
        yield* makeSeed
        const fresh = join(scratch, "fresh")
        expect(yield* openWith(DatabaseConfig.Pglite({ dataDir: fresh, seed: seedFile }))).toEqual([
          { mark: "from the seed" }
        ])
        expect(yield* openWith(DatabaseConfig.Pglite({ dataDir: undefined, seed: seedFile }))).toEqual([
          { mark: "from the seed" }
        ])

        // A seed that is not there is passed over: the database is made from scratch. That directory then holds a
        // database, and opening it again with a seed changes nothing there.
        const own = join(scratch, "own")
        const missing = join(scratch, "no-such-seed.tar.gz")
        expect(yield* openWith(DatabaseConfig.Pglite({ dataDir: own, seed: missing }))).toEqual([])
        expect(yield* openWith(DatabaseConfig.Pglite({ dataDir: own, seed: seedFile }))).toEqual([])
        // The seeded directory was written on disk, and reopens as it was left, with the embedded server's settings
        // (EMBEDDED_POSTGRES_SETTINGS: small shared buffers) over those the seed's cluster was made with.
        expect(yield* openWith(DatabaseConfig.Pglite({ dataDir: fresh }))).toEqual([{ mark: "from the seed" }])
        const sharedBuffers = Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ readonly shared_buffers: string }>`SHOW shared_buffers`
        )
        expect(
          yield* Effect.scoped(Effect.provide(sharedBuffers, databaseLayer(DatabaseConfig.Pglite({ dataDir: fresh }))))
        ).toEqual([{ shared_buffers: "16MB" }])
      })
  )
})
