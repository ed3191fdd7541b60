import { describe, expect, layer } from "@effect/vitest"
import { RateLimiter } from "@svc/core/limits"
import { Effect, Layer, TestClock } from "effect"
import { migrations } from "../../src/sql/migrations/index.js"
import { RateLimiterSql } from "../../src/sql/rate-limiter.js"
import { RateLimiterMemory } from "../../src/system/rate-limiter-memory.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

const WINDOW = 60_000

// The same behaviour is asked of both adapters.
const cases: Array<readonly [string, Effect.Effect<void, never, RateLimiter>]> = []
const it = { effect: (name: string, run: () => Effect.Effect<void, never, RateLimiter>) => cases.push([name, run()]) }
it.effect("admits `limit` calls in a window and refuses the next with the wait until a slot frees", () =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    for (let i = 0; i < 120; i++) expect((yield* limiter.take("a", 120, WINDOW)).allowed).toBe(true)
    expect(yield* limiter.take("a", 120, WINDOW)).toEqual({ allowed: false, retryAfterMs: WINDOW })
    yield* TestClock.adjust("59999 millis")
    expect((yield* limiter.take("a", 120, WINDOW)).retryAfterMs).toBe(1)
    yield* TestClock.adjust("1 millis")
    expect((yield* limiter.take("a", 120, WINDOW)).allowed).toBe(true)
  })
)

it.effect("slides: no burst at a window edge gets more than the limit through", () =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    for (let i = 0; i < 3; i++) {
      expect((yield* limiter.take("b", 3, WINDOW)).allowed).toBe(true)
      yield* TestClock.adjust("20 seconds")
    }
    // 60 s after the first call: only that one slot has freed.
    expect((yield* limiter.take("b", 3, WINDOW)).allowed).toBe(true)
    expect(yield* limiter.take("b", 3, WINDOW)).toEqual({ allowed: false, retryAfterMs: 20_000 })
  })
)

it.effect("counts each key on its own", () =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    expect((yield* limiter.take("c", 1, WINDOW)).allowed).toBe(true)
    expect((yield* limiter.take("c", 1, WINDOW)).allowed).toBe(false)
    expect((yield* limiter.take("d", 1, WINDOW)).allowed).toBe(true)
  })
)

layer(RateLimiterMemory)("the in-memory rate limiter", (it) => {
  describe("sliding window", () => {
    for (const [name, effect] of cases) it.effect(name, () => effect)
  })
})

layer(RateLimiterSql.pipe(Layer.provideMerge(testDatabaseLayer(migrations))), { timeout: "60 seconds" })(
  `the SQL rate limiter on ${engineName}`,
  (it) => {
    describe("sliding window", () => {
      for (const [name, effect] of cases) it.effect(name, () => effect)
    })

    it.effect("stays exact under concurrent takes (one row lock per decision)", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const decisions = yield* Effect.forEach(
          Array.from({ length: 40 }, () => limiter.take("e", 25, WINDOW)),
          (take) => take,
          { concurrency: 10 }
        )
        expect(decisions.filter((d) => d.allowed)).toHaveLength(25)
      })
    )
  }
)
