/**
 * The `Transactor` over SQL (`TransactorSql`), on the test engine: it commits, rolls back and hands its connection
 * back, nests as savepoints, and takes the lean statements inside it into the transaction. One code path, whether
 * spans are recorded or not.
 */
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import { Transactor } from "@svc/core/shared"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Tracer from "effect/Tracer"
import { LeanSql } from "../../src/sql/lean.js"
import { TransactorSql } from "../../src/sql/transactor.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

const tables = Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`CREATE TABLE tx_rows (label text NOT NULL, body text NOT NULL)`
  // Checked at COMMIT, so a COMMIT can fail.
  yield* sql`CREATE TABLE tx_deferred (id text, CONSTRAINT tx_deferred_id UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)`
})

const insert = (label: string, body: string) =>
  Effect.flatMap(LeanSql, (lean) => lean`INSERT INTO tx_rows (label, body) VALUES (${label}, ${body})`)

const bodiesOf = (label: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ body: string }>`SELECT body FROM tx_rows WHERE label = ${label} ORDER BY body`, (rows) =>
      rows.map((row) => row.body)
    )
  )

// More than a PostgreSQL pool holds (10): a connection not handed back would leave the last ones waiting forever.
const MORE_THAN_THE_POOL = 12

// A tracer that keeps each span's name and its parent's name, standing in for an exporter.
const recordingTracer = (spans: Array<{ readonly name: string; readonly parent: string | undefined }>) => {
  const builtIn = Effect.runSync(Effect.tracer)
  return Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      const parentName = parent._tag === "Some" && parent.value._tag === "Span" ? parent.value.name : undefined
      spans.push({ name, parent: parentName })
      return builtIn.span(name, parent, context, links, startTime, kind, options)
    },
    context: (f) => f()
  })
}

const database = Layer.effectDiscard(tables).pipe(Layer.provideMerge(testDatabaseLayer()))

layer(TransactorSql.pipe(Layer.provideMerge(database)), { timeout: "60 seconds" })(
  `Transactor on ${engineName}`,
  (it) => {
    const at = (name: string) => `tx/${name}`

    it.effect("commits what sql and lean statements inside wrote, and answers the effect's value", () =>
      Effect.gen(function* () {
        const tx = yield* Transactor
        const sql = yield* SqlClient
        const value = yield* tx.withTransaction(
          Effect.gen(function* () {
            yield* insert(at("commit"), "lean")
            yield* sql`INSERT INTO tx_rows (label, body) VALUES (${at("commit")}, ${"sql"})`
            return yield* bodiesOf(at("commit"))
          })
        )
        expect(value).toEqual(["lean", "sql"])
        expect(yield* bodiesOf(at("commit"))).toEqual(["lean", "sql"])
      })
    )

    it.effect("rolls back a failure and a defect, each passed on as it was", () =>
      Effect.gen(function* () {
        const tx = yield* Transactor
        const failed = yield* tx
          .withTransaction(Effect.zipRight(insert(at("undo"), "failed"), Effect.fail("no" as const)))
          .pipe(Effect.flip)
        expect(failed).toBe("no")
        const died = yield* tx
          .withTransaction(Effect.zipRight(insert(at("undo"), "died"), Effect.die("boom")))
          .pipe(Effect.exit)
        expect(Exit.isFailure(died) && Cause.isDie(died.cause) && Cause.squash(died.cause)).toBe("boom")
        expect(yield* bodiesOf(at("undo"))).toEqual([])
      })
    )

    it.effect("rolls back an interrupted transaction and hands its connection back", () =>
      Effect.gen(function* () {
        const tx = yield* Transactor
        for (let n = 0; n < MORE_THAN_THE_POOL; n++) {
          const wrote = yield* Deferred.make<void>()
          const fiber = yield* Effect.fork(
            tx.withTransaction(
              Effect.gen(function* () {
                yield* insert(at("interrupted"), `write ${n}`)
                yield* Deferred.succeed(wrote, undefined)
                return yield* Effect.never
              })
            )
          )
          yield* Deferred.await(wrote)
          yield* Fiber.interrupt(fiber)
        }
        yield* tx.withTransaction(insert(at("interrupted"), "after"))
        expect(yield* bodiesOf(at("interrupted"))).toEqual(["after"])
      })
    )

    it.effect("hands the connection back after failures, as many as the pool holds and more", () =>
      Effect.gen(function* () {
        const tx = yield* Transactor
        for (let n = 0; n < MORE_THAN_THE_POOL; n++) {
          yield* Effect.flip(tx.withTransaction(Effect.zipRight(insert(at("failures"), `${n}`), Effect.fail(n))))
        }
        yield* tx.withTransaction(insert(at("failures"), "kept"))
        expect(yield* bodiesOf(at("failures"))).toEqual(["kept"])
      })
    )

    it.effect("nests as savepoints: an inner failure takes back the inner writes only", () =>
      Effect.gen(function* () {
        const tx = yield* Transactor
        yield* tx.withTransaction(
          Effect.gen(function* () {
            yield* insert(at("nested"), "outer")
            yield* Effect.flip(
              tx.withTransaction(Effect.zipRight(insert(at("nested"), "inner failed"), Effect.fail(1)))
            )
            yield* tx.withTransaction(insert(at("nested"), "inner kept"))
          })
        )
        expect(yield* bodiesOf(at("nested"))).toEqual(["inner kept", "outer"])
      })
    )

    it.effect("makes a failed COMMIT a defect, keeps nothing of it, and goes on working", () =>
      Effect.gen(function* () {
        const tx = yield* Transactor
        const sql = yield* SqlClient
        const id = at("deferred")
        const exit = yield* tx
          .withTransaction(
            Effect.gen(function* () {
              yield* insert(at("commit-failed"), "lost")
              yield* sql`INSERT INTO tx_deferred (id) VALUES (${id}), (${id})`
            })
          )
          .pipe(Effect.exit)
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
        const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
        expect(defect).toMatchObject({ _tag: "SqlError" })
        expect(yield* bodiesOf(at("commit-failed"))).toEqual([])
        for (let n = 0; n < MORE_THAN_THE_POOL; n++) yield* tx.withTransaction(insert(at("commit-failed"), `${n}`))
        expect(yield* bodiesOf(at("commit-failed"))).toHaveLength(MORE_THAN_THE_POOL)
      })
    )

    it.effect("keeps concurrent transactions apart", () =>
      Effect.gen(function* () {
        const tx = yield* Transactor
        const writer = (body: string, keep: boolean) =>
          tx.withTransaction(
            Effect.gen(function* () {
              yield* insert(at("concurrent"), body)
              yield* Effect.yieldNow()
              const seen = yield* bodiesOf(at("concurrent"))
              return keep ? seen : yield* Effect.fail(seen)
            })
          )
        const [kept, abandoned] = yield* Effect.all([writer("kept", true), Effect.flip(writer("abandoned", false))], {
          concurrency: "unbounded"
        })
        expect(kept).toContain("kept")
        expect(kept).not.toContain("abandoned")
        expect(abandoned).toContain("abandoned")
        expect(yield* bodiesOf(at("concurrent"))).toEqual(["kept"])
      })
    )

    it.effect("runs the same way with spans recorded: a sql.transaction span holds the statements inside", () => {
      const spans: Array<{ readonly name: string; readonly parent: string | undefined }> = []
      return Effect.gen(function* () {
        const tx = yield* Transactor
        const value = yield* tx
          .withTransaction(Effect.as(insert(at("traced"), "one"), "done"))
          .pipe(Effect.withSpan("caller"))
        expect(value).toBe("done")
        expect(spans).toContainEqual({ name: "sql.transaction", parent: "caller" })
        expect(spans).toContainEqual({ name: "sql.execute", parent: "sql.transaction" })
        expect(yield* bodiesOf(at("traced"))).toEqual(["one"])
      }).pipe(Effect.withTracer(recordingTracer(spans)))
    })
  }
)
