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
