/**
 * Long-lived fibers that run short tasks one after another: the tool lane's calls and the batched lookups'
 * shared statements.
 *
 * A root fiber per request (`Runtime.runFork`) costs more than a cached tool call's own logic under load: a new
 * `FiberRuntime`, a copy of the runtime's fiber refs, and an entry in Effect's global root-fiber set (a `Set` add, an
 * observer and a delete). The set keeps young fibers reachable from an old object, so more survives each young
 * collection, and in the bench the PostgreSQL p99 at 50 connections was half as long again as with fibers kept out
 * of it. Effect has no public way to start a fiber outside that set, so the pool starts few fibers: a task goes to
 * an idle worker, and a new worker is forked only when every worker is busy. A worker waits for its next task with
 * `Effect.async` and ends when enough others are idle already.
 *
 * Tasks run in the worker's own fiber, one after another, so a task must leave the fiber's refs as it found them,
 * as every scoped Effect combinator does (`locally`, `provideService`, `withParentSpan`, `withSpan`). A task that
 * fails or dies ends with its exit; the worker goes on.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Runtime from "effect/Runtime"

/** Default of {@link FiberPoolOptions.maxIdle}. */
export const DEFAULT_MAX_IDLE_WORKERS = 256

export interface FiberPoolOptions {
  /** The most workers kept waiting for a task; a worker that finds this many idle ends. */
  readonly maxIdle?: number
}

/** A task given to the pool. */
export interface PoolTask {
  /** Interrupts the task if it has not ended; its `onExit` gets the interruption. */
  readonly interrupt: () => void
}

/** Runs `effect` on a worker and calls `onExit` with its exit, once. */
export type RunInPool = <A, E>(effect: Effect.Effect<A, E>, onExit: (exit: Exit.Exit<A, E>) => void) => PoolTask

interface Task {
  /** Runs the task's effect and hands its exit on; never fails. */
  readonly body: Effect.Effect<void>
  /** Ends a task that will not run to its end (its worker ended). */
  readonly abort: (exit: Exit.Exit<never, never>) => void
  worker: Worker | undefined
  started: boolean
  interrupted: boolean
  ended: boolean
}

interface Worker {
  fiber: Fiber.RuntimeFiber<void> | undefined
  /** The task it runs or was handed; undefined while idle. */
  task: Task | undefined
  /** Hands an idle worker its next task. */
  wake: ((task: Task) => void) | undefined
  dead: boolean
}

/** A pool whose workers are forked from `runtime` (its context and fiber refs are each task's start). */
export const makeFiberPool = (runtime: Runtime.Runtime<never>, options: FiberPoolOptions = {}): RunInPool => {
  const runFork = Runtime.runFork(runtime)
  const maxIdle = Math.max(0, options.maxIdle ?? DEFAULT_MAX_IDLE_WORKERS)
  const idle: Array<Worker> = []

  const nextTask = (worker: Worker) =>
    Effect.async<Task>((resume) => {
      worker.wake = (task) => {
        worker.wake = undefined
        resume(Effect.succeed(task))
      }
    })

  const runTask = (worker: Worker, task: Task): Effect.Effect<void> =>
    Effect.suspend(() => {
      task.started = true
      return Effect.flatMap(task.body, () => {
        worker.task = undefined
        // An interruption asked for this task may still be on its way to the fiber (it lands at the fiber's next
        // step): a worker that took another task now would lose that task to it, whose client then never hears.
        // So the worker ends, and the interruption lands on a fiber with nothing left to do.
        if (task.interrupted || idle.length >= maxIdle) return Effect.void
        idle.push(worker)
        return Effect.flatMap(nextTask(worker), (next) => runTask(worker, next))
      })
    })

  const assign = (worker: Worker, task: Task) => {
    worker.task = task
    task.worker = worker
  }

  const start = (task: Task): void => {
    for (let worker = idle.pop(); worker !== undefined; worker = idle.pop()) {
      if (worker.dead || worker.wake === undefined) continue
      assign(worker, task)
      worker.wake(task)
      return
    }
    const worker: Worker = { fiber: undefined, task: undefined, wake: undefined, dead: false }
    assign(worker, task)
    // Started on the scheduler, as a woken worker is, so tasks begin in the order they were given.
    const fiber = runFork(runTask(worker, task), { immediate: false })
    worker.fiber = fiber
    fiber.addObserver((exit) => {
      worker.dead = true
      const left = worker.task
      worker.task = undefined
      if (left === undefined || left.ended) return
      // The worker ended while it held a task: the task's own interruption, or (for a task it had been handed
      // but not begun) an interruption meant for the task before, which landed late. A task not begun goes to
      // another worker; one begun ends with the worker's exit.
      if (!left.started && !left.interrupted) start(left)
      else left.abort(Exit.isSuccess(exit) ? Exit.interrupt(FiberId.none) : Exit.failCause(exit.cause))
    })
  }

  return <A, E>(effect: Effect.Effect<A, E>, onExit: (exit: Exit.Exit<A, E>) => void): PoolTask => {
    const settle = (exit: Exit.Exit<A, E>) => {
      if (task.ended) return
      task.ended = true
      onExit(exit)
    }
    const task: Task = {
      body: Effect.map(Effect.exit(effect), settle),
      abort: settle,
      worker: undefined,
      started: false,
      interrupted: false,
      ended: false
    }
    start(task)
    return {
      interrupt: () => {
        if (task.ended || task.interrupted) return
        task.interrupted = true
        const worker = task.worker
        if (worker?.task === task && worker.fiber !== undefined) worker.fiber.unsafeInterruptAsFork(FiberId.none)
      }
    }
  }
}
