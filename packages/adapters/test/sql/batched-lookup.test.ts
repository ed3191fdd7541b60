/**
 * Batched lookups: which keys go in one statement, and what each caller gets back. The statement here is a plain
 * function that records its keys; batched-reads.test.ts runs the repository's real lookups on the test database.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { Cause, Effect, Exit, Fiber, Option, Tracer } from "effect"
import { inKeyOrder, keysParameter, makeBatchedLookup } from "../../src/sql/batched-lookup.js"

class LookupFailed {
  readonly _tag = "LookupFailed"
}

/**
 * A lookup over a table of `rows`, recording the keys of every statement and whether it ran in a transaction. A
 * statement fails when `fails` says so of its keys: the database refusing one key's text fails the whole statement.
 */
const recording = (
  rows: Readonly<Record<string, string>>,
  options: { maxKeys?: number; fails?: (keys: ReadonlyArray<string>) => boolean } = {}
) => {
  const runs: Array<{ readonly keys: ReadonlyArray<string>; readonly inTransaction: boolean }> = []
  const lookup = makeBatchedLookup({
    name: "Test.lookup batch",
    ...(options.maxKeys === undefined ? {} : { maxKeys: options.maxKeys }),
    run: (keys: ReadonlyArray<string>) =>
      Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction) => {
        runs.push({ keys, inTransaction: Option.isSome(transaction) })
        return options.fails?.(keys) === true
          ? Effect.fail(new LookupFailed())
          : Effect.succeed(keys.map((key) => rows[key]))
      })
  })
  return { runs, lookup }
}

const table = { a: "row a", b: "row b", c: "row c" }

describe("makeBatchedLookup", () => {
  it.effect("puts the lookups made together in one statement and answers each caller its own row", () =>
    Effect.gen(function* () {
      const { runs, lookup: make } = recording(table)
      const lookup = yield* make
      const answers = yield* Effect.all(["b", "missing", "a", "b"].map(lookup), { concurrency: "unbounded" })
      expect(answers).toEqual([Option.some("row b"), Option.none(), Option.some("row a"), Option.some("row b")])
      expect(runs).toEqual([{ keys: ["b", "missing", "a", "b"], inTransaction: false }])
    })
  )

  it.effect("gives a lookup made after the last statement went out a statement of its own", () =>
    Effect.gen(function* () {
      const { runs, lookup: make } = recording(table)
      const lookup = yield* make
      expect(yield* lookup("a")).toEqual(Option.some("row a"))
      expect(yield* lookup("c")).toEqual(Option.some("row c"))
      expect(runs.map((run) => run.keys)).toEqual([["a"], ["c"]])
    })
  )

  it.effect("splits more keys than maxKeys into several statements, each answer still going to its caller", () =>
    Effect.gen(function* () {
      const { runs, lookup: make } = recording(table, { maxKeys: 2 })
      const lookup = yield* make
      const answers = yield* Effect.all(["a", "b", "c", "a", "x"].map(lookup), { concurrency: "unbounded" })
      expect(answers.map(Option.getOrNull)).toEqual(["row a", "row b", "row c", "row a", null])
      expect(runs.map((run) => run.keys)).toEqual([["a", "b"], ["c", "a"], ["x"]])
    })
  )

  it.effect("looks each key of a failed statement up again alone, so a refused key fails its own caller only", () =>
    Effect.gen(function* () {
      const { runs, lookup: make } = recording(table, { fails: (keys) => keys.includes("refused") })
      const lookup = yield* make
      const [a, refused, b] = yield* Effect.all(
        ["a", "refused", "b"].map((key) => Effect.exit(lookup(key))),
        { concurrency: "unbounded" }
      )
      expect(a).toEqual(Exit.succeed(Option.some("row a")))
      expect(b).toEqual(Exit.succeed(Option.some("row b")))
      expect(refused !== undefined && Exit.isFailure(refused) && Cause.failureOption(refused.cause)).toEqual(
        Option.some(new LookupFailed())
      )
      expect(runs.map((run) => run.keys)).toEqual([["a", "refused", "b"], ["a"], ["refused"], ["b"]])
    })
  )

  it.effect("fails every caller when every statement fails (a database that is down)", () =>
    Effect.gen(function* () {
      const { runs, lookup: make } = recording(table, { fails: () => true })
      const lookup = yield* make
      const exits = yield* Effect.all(
        ["a", "b"].map((key) => Effect.exit(lookup(key))),
        { concurrency: "unbounded" }
      )
      for (const exit of exits) {
        expect(Exit.isFailure(exit) && Cause.failureOption(exit.cause)).toEqual(Option.some(new LookupFailed()))
      }
      expect(runs.map((run) => run.keys)).toEqual([["a", "b"], ["a"], ["b"]])
    })
  )

  it.effect("leaves out the key of a caller interrupted before the statement went out", () =>
    Effect.gen(function* () {
      const { runs, lookup: make } = recording(table)
      const lookup = yield* make
      const gone = yield* Effect.fork(lookup("a"))
      const kept = yield* Effect.fork(lookup("b"))
      // Both forks reach their wait before the statement goes out, which is only after the event loop turns.
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(gone)
      expect(yield* Fiber.join(kept)).toEqual(Option.some("row b"))
      expect(runs.map((run) => run.keys)).toEqual([["b"]])
    })
  )

  it.live("answers a caller that waits uninterruptibly even when an interruption reached it first", () =>
    Effect.gen(function* () {
      const { runs, lookup: make } = recording(table)
      const lookup = yield* make
      // A daemon: a caller left waiting for ever would hold the test's own fiber open instead of failing it.
      const held = yield* Effect.forkDaemon(Effect.uninterruptible(lookup("a")))
      yield* Effect.yieldNow()
      // Asked to stop while it waits, it goes on waiting: its key must still go out, or it waits forever.
      yield* Fiber.interruptFork(held)
      yield* Effect.yieldNow()
      const exit = yield* Fiber.await(held).pipe(
        Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => new Error("the caller was never answered") })
      )
      expect(runs.map((run) => run.keys)).toEqual([["a"]])
      // Its answer came, then the interruption ended it: the fiber was not left waiting.
      expect(Exit.isInterrupted(exit)).toBe(true)
    })
  )

  it.effect("inside a transaction, runs each lookup at once and alone, in the caller's transaction", () =>
    Effect.gen(function* () {
      const { runs, lookup: make } = recording(table)
      const lookup = yield* make
      // Only the tag's presence matters here: the lookup never touches the connection itself.
      const transaction = [{} as Connection, 0] as const
      const answers = yield* Effect.all([lookup("a"), lookup("c")], { concurrency: "unbounded" }).pipe(
        Effect.provideService(SqlClient.TransactionConnection, transaction)
      )
      expect(answers).toEqual([Option.some("row a"), Option.some("row c")])
      expect(runs).toEqual([
        { keys: ["a"], inTransaction: true },
        { keys: ["c"], inTransaction: true }
      ])
    })
  )
})

describe("makeBatchedLookup with a trace exporter", () => {
  // A tracer standing in for an exporter: it keeps each span's name and the names of the spans it links to.
  const recordingTracer = (spans: Array<{ name: string; links: ReadonlyArray<string> }>) => {
    const builtIn = Effect.runSync(Effect.tracer)
    return Tracer.make({
      span: (name, parent, context, links, startTime, kind, options) => {
        spans.push({ name, links: links.map((link) => (link.span._tag === "Span" ? link.span.name : "external")) })
        return builtIn.span(name, parent, context, links, startTime, kind, options)
      },
      context: (f) => f()
    })
  }

  it.effect("runs a shared statement in a span of its own, linked to each caller's span", () => {
    const spans: Array<{ name: string; links: ReadonlyArray<string> }> = []
    return Effect.gen(function* () {
      const { lookup: make } = recording(table)
      const lookup = yield* make
      const answers = yield* Effect.all(
        [lookup("a").pipe(Effect.withSpan("caller a")), lookup("b").pipe(Effect.withSpan("caller b"))],
        { concurrency: "unbounded" }
      )
      expect(answers).toEqual([Option.some("row a"), Option.some("row b")])
      expect(spans.find((span) => span.name === "Test.lookup batch")).toEqual({
        name: "Test.lookup batch",
        links: ["caller a", "caller b"]
      })
    }).pipe(Effect.withTracer(recordingTracer(spans)))
  })
})

describe("keysParameter and inKeyOrder", () => {
  it("numbers the keys by position, and puts rows back in that order with gaps for keys that found none", () => {
    const keys = [
      { id: "x", workspace_id: 'w"1' },
      { id: "y", workspace_id: "w2" }
    ]
    expect(JSON.parse(keysParameter(keys))).toEqual([
      { id: "x", workspace_id: 'w"1', n: 0 },
      { id: "y", workspace_id: "w2", n: 1 }
    ])
    expect(
      inKeyOrder(
        [
          { n: 2, v: "c" },
          { n: 0, v: "a" }
        ],
        3
      )
    ).toEqual([{ n: 0, v: "a" }, undefined, { n: 2, v: "c" }])
  })
})
