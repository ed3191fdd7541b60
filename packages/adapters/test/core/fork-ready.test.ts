import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, FiberRef, FiberRefs, Option, Runtime } from "effect"
import { forkReady } from "../../src/fork-ready.js"

const settled = <A, E>(fiber: Fiber.RuntimeFiber<A, E>) =>
  Effect.async<Exit.Exit<A, E>>((resume) => {
    fiber.addObserver((exit) => resume(Effect.succeed(exit)))
  })

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
