/**
 * The prepared-statement pool. Which texts a connection prepares is checked everywhere; the pool itself needs a
 * PostgreSQL server (PGlite speaks no wire protocol), so those tests are registered only with TEST_DATABASE_URL.
 * Each PostgreSQL test opens a pool of one connection, so every statement, and `pg_prepared_statements`, is on it.
 */
import { randomBytes } from "node:crypto"
import { describe, expect, it, layer } from "@effect/vitest"
import * as PgClient from "@effect/sql-pg/PgClient"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { PreparedStatements, preparedPool, statementName } from "../../src/sql/prepared-pool.js"

describe("PreparedStatements", () => {
  it("names a text by its digest: the same text the same name, another text another", () => {
    const name = statementName("SELECT $1::int")
    expect(name).toMatch(/^svc_[0-9a-f]{16}$/)
    expect(statementName("SELECT $1::int")).toBe(name)
    expect(statementName("SELECT $1::text")).not.toBe(name)
  })

  it("prepares a text on its second run and keeps its name", () => {
    const statements = new PreparedStatements(8)
    expect(statements.nameFor("a")).toBeUndefined()
    expect(statements.nameFor("a")).toBe(statementName("a"))
    expect(statements.nameFor("a")).toBe(statementName("a"))
  })

  it("prepares at most its capacity of texts", () => {
    const statements = new PreparedStatements(2)
    const twice = (text: string) => [statements.nameFor(text), statements.nameFor(text)]
    expect(twice("a")).toEqual([undefined, statementName("a")])
    expect(twice("b")).toEqual([undefined, statementName("b")])
    expect(twice("c")).toEqual([undefined, undefined])
    expect(statements.nameFor("a")).toBe(statementName("a"))
  })

  it("remembers a bounded number of texts run once (four per place), dropping the oldest", () => {
    const statements = new PreparedStatements(2)
    const texts = Array.from({ length: 9 }, (_, i) => `text ${i}`)
    for (const text of texts) expect(statements.nameFor(text)).toBeUndefined()
    expect(statements.nameFor("text 0")).toBeUndefined()
    expect(statements.nameFor("text 8")).toBe(statementName("text 8"))
  })

  it("starts a forgotten text over and never names a retired one again", () => {
    const statements = new PreparedStatements(2)
    for (const text of ["a", "a", "b", "b"]) statements.nameFor(text)
    statements.forget("a")
    statements.retire("b")
    expect([statements.nameFor("a"), statements.nameFor("a")]).toEqual([undefined, statementName("a")])
    expect(statements.nameFor("b")).toBeUndefined()
    // The retired text is still prepared on the server, so it keeps its place.
    expect([statements.nameFor("c"), statements.nameFor("c")]).toEqual([undefined, undefined])
  })
})

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined

/** A schema of this file's own on the server, reached through `search_path`; dropped when the layer closes. */
class Scratch extends Context.Tag("test/prepared-pool/Scratch")<Scratch, { readonly url: string }>() {}

const unpooled = (url: string) => PgClient.layer({ url: Redacted.make(url) })

const admin = (url: string, statement: string) =>
  Effect.flatMap(SqlClient, (sql) => sql.unsafe(statement)).pipe(Effect.provide(unpooled(url)), Effect.orDie)

const scratchLayer = (url: string) =>
  Layer.scoped(
    Scratch,
    Effect.gen(function* () {
      const schema = `test_${randomBytes(8).toString("hex")}`
      yield* Effect.acquireRelease(admin(url, `CREATE SCHEMA ${schema}`), () =>
        admin(url, `DROP SCHEMA ${schema} CASCADE`)
      )
      const scoped = new URL(url)
      scoped.searchParams.set("options", `-c search_path=${schema}`)
      return { url: scoped.toString() }
    })
  )

/** Runs `effect` on a fresh prepared pool of one connection in the scratch schema. */
const onOneConnection = <A, E, R>(effect: Effect.Effect<A, E, R>, maxPreparedStatements?: number) =>
  Effect.flatMap(Scratch, ({ url }) =>
    Effect.provide(
      effect,
      PgClient.layerFromPool({
        acquire: preparedPool({ url, applicationName: "svc-test", maxConnections: 1, maxPreparedStatements })
      })
    )
  )

/** Runs `statement` on another connection (another process, say). */
const elsewhere = (statement: string) => Effect.flatMap(Scratch, ({ url }) => admin(url, statement))

interface Prepared {
  readonly statement: string
  readonly runs: number
}

/** The statements this pool prepared on its connection, with how often each ran prepared. */
const preparedHere = Effect.flatMap(SqlClient, (sql) =>
  sql.withTransaction(
    sql<Prepared>`SELECT statement, (generic_plans + custom_plans)::int AS runs
      FROM pg_prepared_statements WHERE starts_with(name, 'svc_') ORDER BY statement`
  )
)

if (postgresUrl !== undefined) {
  layer(scratchLayer(postgresUrl), { timeout: "60 seconds" })("prepared pool on PostgreSQL", (it) => {
    it.effect("prepares a repeated parameterised statement once per connection and reuses it", () =>
      onOneConnection(
        Effect.gen(function* () {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)`
          yield* sql`INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three')`
          const label = (id: number) => sql<{ label: string }>`SELECT label FROM items WHERE id = ${id}`
          const [text] = label(0).compile()

          expect(yield* label(1)).toEqual([{ label: "one" }])
          expect(yield* preparedHere).toEqual([])
          for (const [id, expected] of [
            [2, "two"],
            [3, "three"],
            [1, "one"],
            [4, undefined]
          ] as const) {
            expect((yield* label(id)).map((row) => row.label)).toEqual(expected === undefined ? [] : [expected])
          }
          expect(yield* preparedHere).toEqual([{ statement: text, runs: 4 }])

          // Rows as arrays (pg's rowMode) and streams (pg-cursor) keep working on the same connection.
          const countUpTo = (id: number) => sql`SELECT count(*)::int FROM items WHERE id <= ${id}`
          const count = (id: number) => countUpTo(id).values
          expect([yield* count(2), yield* count(3)]).toEqual([[[2]], [[3]]])
          expect(yield* count(1)).toEqual([[1]])
          const stream = (id: number) =>
            Stream.runCollect(sql<{ id: number }>`SELECT id FROM items WHERE id >= ${id} ORDER BY id`.stream)
          expect([...(yield* stream(2))].map((row) => row.id)).toEqual([2, 3])
          expect([...(yield* stream(3))].map((row) => row.id)).toEqual([3])
          const statements = (yield* preparedHere).map((row) => row.statement)
          expect(statements).toEqual([countUpTo(0).compile()[0], text].sort())
        })
      )
    )

    it.effect("prepares at most the configured number of statements, running the rest unnamed", () =>
      onOneConnection(
        Effect.gen(function* () {
          const sql = yield* SqlClient
          const plus = [0, 1, 2, 3].map(
            (k) => (n: number) => sql<{ n: number }>`SELECT ${n}::int + ${sql.literal(String(k))} AS n`
          )
          for (const round of [10, 20, 30]) {
            const answers = yield* Effect.forEach(plus, (add) => add(round))
            expect(answers).toEqual([0, 1, 2, 3].map((k) => [{ n: round + k }]))
          }
          const prepared = yield* preparedHere
          expect(prepared.map((row) => row.statement)).toEqual(plus.slice(0, 2).map((add) => add(0).compile()[0]))
          expect(prepared.map((row) => row.runs)).toEqual([2, 2])
        }),
        2
      )
    )

    it.effect("runs a statement again, unnamed, when a schema change altered its result columns", () =>
      onOneConnection(
        Effect.gen(function* () {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE things (id int PRIMARY KEY, label text NOT NULL)`
          yield* sql`INSERT INTO things VALUES (1, 'one')`
          const thing = (id: number) => sql`SELECT * FROM things WHERE id = ${id}`
          const [text] = thing(0).compile()
          for (let run = 0; run < 3; run++) expect(yield* thing(1)).toEqual([{ id: 1, label: "one" }])
          expect(yield* preparedHere).toEqual([{ statement: text, runs: 2 }])

          // The prepared `SELECT *` now answers 0A000 "cached plan must not change result type".
          yield* elsewhere(`ALTER TABLE things ADD COLUMN colour text NOT NULL DEFAULT 'red'`)
          expect(yield* thing(1)).toEqual([{ id: 1, label: "one", colour: "red" }])
          // Deallocated, and prepared afresh from its next runs on.
          expect(yield* preparedHere).toEqual([])
          for (let run = 0; run < 3; run++) expect(yield* thing(1)).toEqual([{ id: 1, label: "one", colour: "red" }])
          expect(yield* preparedHere).toEqual([{ statement: text, runs: 2 }])
        })
      )
    )

    it.effect("keeps transactions working, running their statements unnamed", () =>
      onOneConnection(
        Effect.gen(function* () {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE entries (body text NOT NULL)`
          const add = (body: string) => sql`INSERT INTO entries (body) VALUES (${body})`
          const bodies = sql<{ body: string }>`SELECT body FROM entries WHERE body <> ${""} ORDER BY body`
          const inside = yield* sql.withTransaction(
            Effect.gen(function* () {
              for (const body of ["a", "b", "c"]) yield* add(body)
              yield* bodies
              yield* bodies
              return yield* bodies
            })
          )
          expect(inside.map((row) => row.body)).toEqual(["a", "b", "c"])
          // In a transaction block a stale statement could not be retried, so nothing there was prepared.
          expect(yield* preparedHere).toEqual([])

          const failed = yield* sql
            .withTransaction(Effect.zipRight(Effect.all([add("d"), add("e")]), Effect.fail("abandon" as const)))
            .pipe(Effect.flip)
          expect(failed).toBe("abandon")
          yield* sql.withTransaction(sql.withTransaction(add("f")))
          yield* bodies
          expect((yield* bodies).map((row) => row.body)).toEqual(["a", "b", "c", "f"])
          expect((yield* preparedHere).map((row) => row.statement)).toEqual([bodies.compile()[0]])
        })
      )
    )
  })
}
