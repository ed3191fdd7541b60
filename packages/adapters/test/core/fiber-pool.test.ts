import { describe, expect, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, FiberRef, Runtime } from "effect"
import { makeFiberPool } from "../../src/fiber-pool.js"

/** Runs `effect` in the pool and waits for the exit it hands to `onExit`, counting the calls. */
const exitOf = <A, E>(run: ReturnType<typeof makeFiberPool>, effect: Effect.Effect<A, E>) =>
  Effect.async<{ readonly exit: Exit.Exit<A, E>; readonly calls: () => number }>((resume) => {
    let calls = 0
    run(effect, (exit) => {
      calls += 1
      if (calls === 1) resume(Effect.succeed({ exit, calls: () => calls }))
    })
  })

describe("makeFiberPool", () => {
  it.effect("runs tasks one after another on the same worker, forking a new one only when all are busy", () =>
    Effect.gen(function* () {
      const run = makeFiberPool(yield* Effect.runtime<never>())
      const first = yield* exitOf(run, Effect.fiberId)
      const second = yield* exitOf(run, Effect.fiberId)
      expect(Exit.isSuccess(first.exit) && Exit.isSuccess(second.exit)).toBe(true)
      // The first worker went idle and took the second task.
      expect(second.exit).toEqual(first.exit)

      // Two tasks at once need two workers.
      const gate = yield* Deferred.make<void>()
      const held = yield* Deferred.make<Exit.Exit<unknown>>()
      run(Effect.zipRight(Deferred.await(gate), Effect.fiberId), (exit) =>
        Deferred.unsafeDone(held, Effect.succeed(exit))
      )
      const meanwhile = yield* exitOf(run, Effect.fiberId)
      yield* Deferred.succeed(gate, undefined)
      const heldExit = yield* Deferred.await(held)
      expect(heldExit).toEqual(first.exit)
      expect(meanwhile.exit).not.toEqual(first.exit)
    })
  )

  it.effect("begins tasks in the order they were given, on a woken worker and on new ones alike", () =>
    Effect.gen(function* () {
      const run = makeFiberPool(yield* Effect.runtime<never>())
      yield* exitOf(run, Effect.void)
      const order: Array<number> = []
      const done = yield* Deferred.make<void>()
      for (const n of [1, 2, 3]) {
        run(
          Effect.sync(() => {
            order.push(n)
            if (order.length === 3) Deferred.unsafeDone(done, Effect.void)
          }),
          () => {}
        )
      }
      yield* Deferred.await(done)
      expect(order).toEqual([1, 2, 3])
    })
  )

  it.effect("hands each task's failure or defect to its own callback once, and the worker goes on", () =>
    Effect.gen(function* () {
      const run = makeFiberPool(yield* Effect.runtime<never>(), { maxIdle: 1 })
      const failed = yield* exitOf(run, Effect.fail("no"))
      expect(failed.exit).toEqual(Exit.fail("no"))
      const died = yield* exitOf(run, Effect.die("boom"))
      expect(Exit.isFailure(died.exit) && Cause.isDie(died.exit.cause)).toBe(true)
      const fine = yield* exitOf(run, Effect.succeed(7))
      expect(fine.exit).toEqual(Exit.succeed(7))
      expect([failed.calls(), died.calls(), fine.calls()]).toEqual([1, 1, 1])
    })
  )

  it.effect("interrupts a running task, which ends interrupted, and the next task runs on a live worker", () =>
    Effect.gen(function* () {
      const run = makeFiberPool(yield* Effect.runtime<never>())
      const started = yield* Deferred.make<void>()
      const seen = yield* Deferred.make<Exit.Exit<never>>()
      const task = run(Effect.zipRight(Deferred.succeed(started, undefined), Effect.never), (exit) =>
        Deferred.unsafeDone(seen, Effect.succeed(exit))
      )
      yield* Deferred.await(started)
      task.interrupt()
      const exit = yield* Deferred.await(seen)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect((yield* exitOf(run, Effect.succeed("after"))).exit).toEqual(Exit.succeed("after"))
      // Interrupting a task that has ended does nothing.
      task.interrupt()
    })
  )

  it.effect("starts each task from the runtime's fiber refs, whatever the task before did inside `locally`", () =>
    Effect.gen(function* () {
      const ref = FiberRef.unsafeMake("start")
      const run = makeFiberPool(yield* Effect.runtime<never>(), { maxIdle: 1 })
      const changed = yield* exitOf(run, Effect.locally(FiberRef.get(ref), ref, "changed"))
      expect(changed.exit).toEqual(Exit.succeed("changed"))
      expect((yield* exitOf(run, FiberRef.get(ref))).exit).toEqual(Exit.succeed("start"))
    })
  )

  it.effect("keeps at most maxIdle workers waiting: with none, every task runs on a fiber of its own", () =>
    Effect.gen(function* () {
      const run = makeFiberPool(yield* Effect.runtime<never>(), { maxIdle: 0 })
      const first = yield* exitOf(run, Effect.fiberId)
      const second = yield* exitOf(run, Effect.fiberId)
      expect(first.exit).not.toEqual(second.exit)
    })
  )

  it.effect("runs many tasks at once, each answered once", () =>
    Effect.gen(function* () {
      const run = makeFiberPool(yield* Effect.runtime<never>(), { maxIdle: 4 })
      const answers = yield* Effect.forEach(
        Array.from({ length: 200 }, (_, index) => index),
        (index) => Effect.map(exitOf(run, Effect.as(Effect.yieldNow(), index)), ({ exit }) => exit),
        { concurrency: "unbounded" }
      )
      expect(answers).toEqual(Array.from({ length: 200 }, (_, index) => Exit.succeed(index)))
    })
  )

  it.effect("a task given to a worker that died before starting it goes to another worker", () =>
    Effect.gen(function* () {
      // A worker is interrupted between tasks (an interruption that landed late): the pool must not lose the
      // task it handed that worker.
      const run = makeFiberPool(yield* Effect.runtime<never>(), { maxIdle: 1 })
      const worker = yield* Deferred.make<Fiber.RuntimeFiber<unknown, unknown>>()
      yield* exitOf(
        run,
        Effect.withFiberRuntime<void>((fiber) => Deferred.succeed(worker, fiber))
      )
      const idle = yield* Deferred.await(worker)
      idle.unsafeInterruptAsFork(idle.id())
      const next = yield* exitOf(run, Effect.succeed("served"))
      expect(next.exit).toEqual(Exit.succeed("served"))
      expect(Exit.isInterrupted(yield* Fiber.await(idle))).toBe(true)
    })
  )

  it("uses the runtime it was given", async () => {
    const run = makeFiberPool(Runtime.defaultRuntime)
    const exit = await new Promise<Exit.Exit<number>>((done) => run(Effect.succeed(1), done))
    expect(exit).toEqual(Exit.succeed(1))
  })
})
