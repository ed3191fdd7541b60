/**
 * Lean statements: the same rows as `sql`, parameters bound (never spliced), and taking part in the transaction
 * they run in. On the test engine (PGlite, or PostgreSQL with TEST_DATABASE_URL), and through the fallback over
 * a plain `SqlClient`.
 */
import { describe, expect, it, layer, type Vitest } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { LeanSql, LeanSqlFromClient, leanText } from "../../src/sql/lean.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

describe("leanText", () => {
  const text = (strings: TemplateStringsArray, ..._values: ReadonlyArray<unknown>) => leanText(strings)

  it("numbers the parameters in order and leaves the text without values as it is", () => {
    expect(text`SELECT 1`).toBe("SELECT 1")
    expect(text`SELECT ${1}, ${"a"} WHERE x = ${true}`).toBe("SELECT $1, $2 WHERE x = $3")
  })

  it("computes a call site's text once (its strings are the same object on every run)", () => {
    const strings = (parts: TemplateStringsArray, ..._values: ReadonlyArray<unknown>) => parts
    const site = (value: number) => strings`v = ${value}`
    expect(site(1)).toBe(site(2))
    expect(leanText(site(1))).toBe(leanText(site(2)))
  })
})

const table = Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`CREATE TABLE lean_rows (id text PRIMARY KEY, n integer NOT NULL, at timestamptz NOT NULL, ok boolean)`
  yield* sql`CREATE TABLE lean_shapes (id text PRIMARY KEY)`
})

type Database = SqlClient | LeanSql

const statements = (
  it: Vitest.MethodsNonLive<Database>,
  label: string,
  leanOf: Effect.Effect<LeanSql, never, Database>
) =>
  describe(label, () => {
    it.effect("answers the rows sql answers, with the same types", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient
        const lean = yield* leanOf
        const at = new Date("2026-11-23T10:00:00.000Z")
        yield* lean`INSERT INTO lean_rows (id, n, at, ok) VALUES (${`${label}-a`}, ${7}, ${at}, ${null})`
        const viaLean = yield* lean<{ id: string; n: number; at: Date; ok: boolean | null }>`
          SELECT id, n, at, ok FROM lean_rows WHERE id = ${`${label}-a`}`
        const viaSql = yield* sql`SELECT id, n, at, ok FROM lean_rows WHERE id = ${`${label}-a`}`
        expect(viaLean).toEqual(viaSql)
        expect(viaLean).toEqual([{ id: `${label}-a`, n: 7, at, ok: null }])
      })
    )

    it.effect("binds values as parameters, never as SQL text", () =>
      Effect.gen(function* () {
        const lean = yield* leanOf
        const hostile = `${label}'); DROP TABLE lean_rows; --`
        yield* lean`INSERT INTO lean_rows (id, n, at) VALUES (${hostile}, ${1}, ${new Date()})`
        const rows = yield* lean<{ id: string }>`SELECT id FROM lean_rows WHERE id = ${hostile}`
        expect(rows.map((row) => row.id)).toEqual([hostile])
      })
    )

    it.effect("runs inside the transaction around it: a rollback takes its write back", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient
        const lean = yield* leanOf
        const id = `${label}-rolled-back`
        const outcome = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* lean`INSERT INTO lean_rows (id, n, at) VALUES (${id}, ${1}, ${new Date()})`
              // Seen inside the transaction: the statement ran on the transaction's connection.
              const inside = yield* lean<{ id: string }>`SELECT id FROM lean_rows WHERE id = ${id}`
              expect(inside).toHaveLength(1)
              return yield* Effect.fail("undo" as const)
            })
          )
          .pipe(Effect.flip)
        expect(outcome).toBe("undo")
        expect(yield* lean`SELECT id FROM lean_rows WHERE id = ${id}`).toEqual([])
      })
    )

    // On PostgreSQL a lean statement outside a transaction is prepared on its connection: these two check that a
    // statement the server no longer has as it was still answers, rather than failing on that connection for good.
    it.effect("answers with the new columns after a schema change alters the result of a statement run before", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient
        const lean = yield* leanOf
        const id = `${label}-shape`
        const column = `added_${label.replace(/\W/g, "_").toLowerCase()}`
        yield* lean`INSERT INTO lean_shapes (id) VALUES (${id})`
        const select = lean<Record<string, unknown>>`SELECT * FROM lean_shapes WHERE id = ${id}`
        yield* select
        expect(yield* select).toEqual([expect.not.objectContaining({ [column]: 1 })])
        yield* sql`ALTER TABLE lean_shapes ADD COLUMN ${sql(column)} integer NOT NULL DEFAULT 1`
        expect(yield* select).toEqual([expect.objectContaining({ id, [column]: 1 })])
        expect(yield* select).toEqual([expect.objectContaining({ id, [column]: 1 })])
      })
    )

    it.effect("answers after the session's prepared statements were deallocated", () =>
      Effect.gen(function* () {
        const lean = yield* leanOf
        const id = `${label}-deallocated`
        yield* lean`INSERT INTO lean_rows (id, n, at) VALUES (${id}, ${1}, ${new Date()})`
        const select = lean<{ id: string }>`SELECT id FROM lean_rows WHERE id = ${id}`
        yield* select
        yield* select
        yield* lean`DEALLOCATE ALL`
        expect(yield* select).toEqual([{ id }])
        expect(yield* select).toEqual([{ id }])
      })
    )

    it.effect("fails with SqlError on a bad statement", () =>
      Effect.gen(function* () {
        const lean = yield* leanOf
        const error = yield* Effect.flip(lean`SELECT no_such_column FROM lean_rows WHERE id = ${"x"}`)
        expect(error._tag).toBe("SqlError")
      })
    )
  })

layer(Layer.effectDiscard(table).pipe(Layer.provideMerge(testDatabaseLayer())), { timeout: "60 seconds" })(
  `on ${engineName}`,
  (it) => {
    statements(it, "LeanSql of the engine", LeanSql)
    statements(it, "LeanSqlFromClient", Effect.provide(LeanSql, LeanSqlFromClient))
  }
)

layer(testDatabaseLayer(), { timeout: "60 seconds" })(`LeanSql on ${engineName}`, (it) => {
  it.effect(
    engineName === "PostgreSQL"
      ? "prepares a parameterised statement outside a transaction on its connection"
      : "runs unnamed statements on PGlite",
    () =>
      Effect.gen(function* () {
        const lean = yield* LeanSql
        // The statement itself is prepared before it runs, so it sees its own name.
        const prepared = yield* lean<{ readonly name: string }>`
          SELECT name FROM pg_prepared_statements WHERE statement LIKE ${"%pg_prepared_statements%"}`
        expect(prepared.length > 0).toBe(engineName === "PostgreSQL")
      })
  )
})
