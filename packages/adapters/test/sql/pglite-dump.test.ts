import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Pglite from "../../src/sql/pglite.js"

// The embedded engine only: a dump is PGlite's own data directory.
describe("a PGlite dump", () => {
  it.scoped(
    "starts another database with the same tables and rows (loadDataDir)",
    () =>
      Effect.gen(function* () {
        const dump = yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE kept (id text PRIMARY KEY, n integer NOT NULL)`
          yield* sql`INSERT INTO kept (id, n) VALUES ('a', 1), ('b', 2)`
          return yield* (yield* Pglite.PgliteClient).dump
        }).pipe(Effect.provide(Pglite.layer()))

        const rows = yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ id: string; n: number }>`SELECT id, n FROM kept ORDER BY id`
        ).pipe(Effect.provide(Pglite.layer({ loadDataDir: dump })))
        expect(rows).toEqual([
          { id: "a", n: 1 },
          { id: "b", n: 2 }
        ])
      }),
    60_000
  )
})
