/**
 * Request fibers started with `untrackedRunFork` stay out of Effect's set of root fibers and otherwise behave as
 * `Runtime.runFork`'s. The first test fails when an Effect upgrade moves its global fiber scope, so the wrapper
 * (which then does nothing) gets looked at again.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, FiberRef, FiberRefs, Option, Runtime } from "effect"
import { forkReady, rootSetSkipped, untrackedRunFork } from "../../src/untracked-fibers.js"

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

  describe("forkReady", () => {
    // A ref that every fork resets, one that every fork changes again, and Effect's own reset-on-fork interruption
    // cause, each set in the fiber whose runtime is taken (as a layer's fiber holds its fork scope).
    const reset = FiberRef.unsafeMake("initial", { fork: () => "reset" })
    const counted = FiberRef.unsafeMake(0, { fork: (n) => n + 1 })
    const runtimeWithRefs = Effect.gen(function* () {
      yield* FiberRef.set(reset, "parent")
      yield* FiberRef.set(counted, 5)
      yield* FiberRef.set(FiberRef.interruptedCause, Cause.interrupt(yield* Effect.fiberId))
      return yield* Effect.runtime<never>()
    }).pipe(Effect.fork, Effect.flatMap(Fiber.join))
    const seen = Effect.all([FiberRef.get(reset), FiberRef.get(counted), FiberRef.get(FiberRef.interruptedCause)])

    it.effect("gives a forked fiber the same values as the runtime it was made from", () =>
      Effect.gen(function* () {
        const runtime = yield* runtimeWithRefs
        const expected = yield* settled(Runtime.runFork(runtime)(seen))
        expect(expected).toEqual(Exit.succeed(["reset", 6, Cause.empty]))
        expect(yield* settled(Runtime.runFork(forkReady(runtime))(seen))).toEqual(expected)
        expect(yield* settled(untrackedRunFork(runtime)(seen))).toEqual(expected)
      })
    )

    it.effect("holds the forked value of refs reset on fork, and keeps the value of refs changed by each fork", () =>
      Effect.gen(function* () {
        const runtime = yield* runtimeWithRefs
        const ready = forkReady(runtime).fiberRefs
        expect(FiberRefs.get(ready, reset)).toEqual(Option.some("reset"))
        expect(FiberRefs.get(ready, FiberRef.interruptedCause)).toEqual(Option.some(Cause.empty))
        expect(FiberRefs.get(ready, counted)).toEqual(Option.some(5))
        expect(FiberRefs.get(runtime.fiberRefs, reset)).toEqual(Option.some("parent"))
      })
    )
  })
})
