/**
 * A cached lookup that several callers share must end for all of them, whatever becomes of the caller that runs it.
 */
import { describe, expect, it } from "@effect/vitest"
import { getUninterrupted } from "@svc/core/shared"
import { Cache, Deferred, Effect, Exit, Fiber } from "effect"

describe("getUninterrupted", () => {
  it.live("answers every caller of a shared lookup when the caller running it is interrupted", () =>
    Effect.gen(function* () {
      const release = yield* Deferred.make<void>()
      let lookups = 0
      const cache = yield* Cache.make({
        capacity: 10,
        timeToLive: "1 minute",
        lookup: (key: string) =>
          Effect.zipRight(
            Effect.sync(() => lookups++),
            Effect.as(Deferred.await(release), `value of ${key}`)
          )
      })
      // The first caller runs the lookup; the second joins it.
      const first = yield* Effect.forkDaemon(getUninterrupted(cache, "k"))
      yield* Effect.yieldNow()
      const second = yield* Effect.forkDaemon(getUninterrupted(cache, "k"))
      yield* Effect.yieldNow()
      // The first caller's client goes away while the lookup runs.
      yield* Fiber.interruptFork(first)
      yield* Effect.yieldNow()
      yield* Deferred.succeed(release, undefined)

      expect(yield* Fiber.join(second)).toBe("value of k")
      // The interrupted caller ends too, once the lookup it ran has ended.
      expect(Exit.isInterrupted(yield* Fiber.await(first))).toBe(true)
      expect(lookups).toBe(1)
      // The value was kept for the next caller.
      expect(yield* getUninterrupted(cache, "k")).toBe("value of k")
      expect(lookups).toBe(1)
    })
  )
})
