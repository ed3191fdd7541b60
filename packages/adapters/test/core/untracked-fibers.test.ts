/**
 * Request fibers started with `untrackedRunFork` stay out of Effect's set of root fibers and otherwise behave as
 * `Runtime.runFork`'s. The first test fails when an Effect upgrade moves its global fiber scope, so the wrapper
 * (which then does nothing) gets looked at again.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Runtime } from "effect"
import { rootSetSkipped, untrackedRunFork } from "../../src/untracked-fibers.js"

const isRoot = (fiber: Fiber.RuntimeFiber<unknown, unknown>) =>
  Effect.map(Fiber.roots, (roots) => roots.some((root) => root === fiber))

const settled = <A, E>(fiber: Fiber.RuntimeFiber<A, E>) =>
  Effect.async<Exit.Exit<A, E>>((resume) => {
    fiber.addObserver((exit) => resume(Effect.succeed(exit)))
  })

describe("untrackedRunFork", () => {
  it("finds Effect's global fiber scope", () => {
    expect(rootSetSkipped()).toBe(true)
  })

  it.effect("keeps its fibers out of Fiber.roots while Runtime.runFork's are listed", () =>
    Effect.gen(function* () {
      const runtime = yield* Effect.runtime<never>()
      const gate = yield* Deferred.make<void>()
      const untracked = untrackedRunFork(runtime)(Effect.as(Deferred.await(gate), "untracked"))
      const tracked = Runtime.runFork(runtime)(Effect.as(Deferred.await(gate), "tracked"))
      expect(yield* isRoot(untracked)).toBe(false)
      expect(yield* isRoot(tracked)).toBe(true)
      yield* Deferred.succeed(gate, undefined)
      expect(yield* settled(untracked)).toEqual(Exit.succeed("untracked"))
      expect(yield* settled(tracked)).toEqual(Exit.succeed("tracked"))
      expect(yield* isRoot(tracked)).toBe(false)
    })
  )

  it.effect("skips only the fiber it starts: one that fiber starts at once is still listed", () =>
    Effect.gen(function* () {
      const runtime = yield* Effect.runtime<never>()
      const gate = yield* Deferred.make<void>()
      let inner: Fiber.RuntimeFiber<void> | undefined
      const outer = untrackedRunFork(runtime)(
        Effect.suspend(() => {
          inner = Runtime.runFork(runtime)(Deferred.await(gate))
          return Deferred.await(gate)
        })
      )
      expect(inner).toBeDefined()
      if (inner === undefined) return
      expect(yield* isRoot(outer)).toBe(false)
      expect(yield* isRoot(inner)).toBe(true)
      yield* Deferred.succeed(gate, undefined)
      yield* settled(outer)
      yield* settled(inner)
    })
  )

  it.effect("starts fibers that can be interrupted and report their exit to observers", () =>
    Effect.gen(function* () {
      const runtime = yield* Effect.runtime<never>()
      const fiber = untrackedRunFork(runtime)(Effect.never)
      yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(yield* settled(fiber))).toBe(true)
      const failed = untrackedRunFork(runtime)(Effect.fail("no"))
      expect(yield* settled(failed)).toEqual(Exit.fail("no"))
    })
  )
})
