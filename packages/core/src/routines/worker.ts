import { Duration, Effect, Layer } from "effect"
import { newClaim, runClaimLoop } from "../shared/claim-loop.js"
import { withSpan } from "../shared/spans.js"
import type { ClaimedRoutineRun } from "./ports.js"
import { RoutineRunner } from "./runner.js"

/** How the routine worker of one process runs. */
export interface RoutineWorkerOptions {
  /** How long a claim holds a run before another worker may take it over (after a crash). */
  readonly leaseMs: number
  /** Runs in flight at once in this process. */
  readonly concurrency?: number | undefined
  /** Wait between looks for due routines when nothing was due. */
  readonly idleMs?: number | undefined
}

/** The defaults of {@link RoutineWorkerOptions}. */
export const DEFAULT_ROUTINE_WORKER = { leaseMs: 120_000, concurrency: 4, idleMs: 5_000 } as const

/**
 * How long a run waits for a language model before leaving the answer to be written in the background (it then
 * looks again every few seconds): half the lease, at most 30 s, so the answer is recorded well inside the lease.
 */
export const routineWaitMs = (leaseMs: number): number => Math.min(30_000, Math.floor(leaseMs / 2))

/** Starts the runs of due routines and claims runs due another look: up to `limit` in all, held for `leaseMs`. */
export const claimRoutineRuns = (limit: number, leaseMs: number) =>
  Effect.gen(function* () {
    const runner = yield* RoutineRunner
    const claim = yield* newClaim(leaseMs)
    const started = yield* runner.start(limit, claim)
    const again = yield* runner.claim(limit - started.length, claim)
    return [...started, ...again]
  }).pipe(withSpan("Routines.claimRuns", { attributes: { limit } }))

/** One look: claims up to `concurrency` runs and runs them all; answers how many it ran. */
export const runDueRoutines = (options: RoutineWorkerOptions = DEFAULT_ROUTINE_WORKER) =>
  Effect.gen(function* () {
    const runner = yield* RoutineRunner
    const concurrency = options.concurrency ?? DEFAULT_ROUTINE_WORKER.concurrency
    const claimed = yield* claimRoutineRuns(concurrency, options.leaseMs)
    const waitMs = routineWaitMs(options.leaseMs)
    yield* Effect.forEach(claimed, (run) => runner.run(run, { waitMs }), { concurrency, discard: true })
    return claimed.length
  })

/**
 * The routine loop of one process: keeps up to `concurrency` runs going, claims more as runs end, and looks again
 * every `idleMs` when nothing is due. A failed look is logged and retried a second later; a run that dies leaves its
 * claim, and another worker takes it over after the lease.
 */
export const runRoutineWorker = (options: RoutineWorkerOptions = DEFAULT_ROUTINE_WORKER) =>
  Effect.flatMap(RoutineRunner, (runner) => {
    const waitMs = routineWaitMs(options.leaseMs)
    return runClaimLoop({
      name: "routine worker",
      concurrency: options.concurrency ?? DEFAULT_ROUTINE_WORKER.concurrency,
      claim: (room) => claimRoutineRuns(room, options.leaseMs),
      run: (run: ClaimedRoutineRun) => runner.run(run, { waitMs }),
      describe: (run) => `routine run ${run.id}`,
      idle: Effect.sleep(Duration.millis(options.idleMs ?? DEFAULT_ROUTINE_WORKER.idleMs))
    })
  })

/** A layer that keeps `runRoutineWorker` running while it is alive; closing it hands the running runs back. */
export const RoutineWorkerLive = (options: RoutineWorkerOptions = DEFAULT_ROUTINE_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs < 2_000 || (options.concurrency ?? 1) < 1) {
        return yield* Effect.dieMessage("the routine lease must be at least 2 s and the concurrency at least 1")
      }
      yield* Effect.logInfo(
        `routine worker: up to ${options.concurrency ?? DEFAULT_ROUTINE_WORKER.concurrency} runs at once, lease ${options.leaseMs} ms`
      )
      yield* Effect.forkScoped(runRoutineWorker(options))
    })
  )
