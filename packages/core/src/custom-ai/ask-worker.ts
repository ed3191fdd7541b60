import { Duration, Effect, Layer } from "effect"
import { newClaim, runClaimLoop } from "../shared/claim-loop.js"
import { withSpan } from "../shared/spans.js"
import { AskJobs } from "./ask-jobs.js"
import { AskJobRunner } from "./ask-runner.js"

/** How the ask worker of one process runs. */
export interface AskWorkerOptions {
  /** How long a claim holds a job before another worker may take it over (after a crash). */
  readonly leaseMs: number
  /** Jobs in flight at once in this process. */
  readonly concurrency?: number | undefined
  /** Wait between looks at the queue when nothing was due. */
  readonly idleMs?: number | undefined
}

/** The defaults of {@link AskWorkerOptions}. */
export const DEFAULT_ASK_WORKER = { leaseMs: 120_000, concurrency: 8, idleMs: 2_000 } as const

/** Claims up to `limit` due jobs with a fresh token and a lease of `leaseMs`. */
export const claimDueAskJobs = (limit: number, leaseMs: number) =>
  Effect.flatMap(newClaim(leaseMs), (claim) => Effect.flatMap(AskJobs, (jobs) => jobs.claimDue(claim, limit))).pipe(
    withSpan("CustomAi.claimAskJobs", { attributes: { limit } })
  )

/** One look at the queue: claims up to `concurrency` due jobs and runs them; answers how many were claimed. */
export const runDueAskJobs = (options: AskWorkerOptions = DEFAULT_ASK_WORKER) =>
  Effect.gen(function* () {
    const runner = yield* AskJobRunner
    const concurrency = options.concurrency ?? DEFAULT_ASK_WORKER.concurrency
    const claimed = yield* claimDueAskJobs(concurrency, options.leaseMs)
    yield* Effect.forEach(claimed, (job) => runner.run(job), { concurrency, discard: true })
    return claimed.length
  })

/**
 * The ask loop of one process: keeps up to `concurrency` jobs running, claims more as runs end, and looks again
 * every `idleMs` when nothing is due. A failed look is logged and retried a second later; a run that dies leaves
 * its job leased, and it comes back after the lease.
 */
export const runAskWorker = (options: AskWorkerOptions = DEFAULT_ASK_WORKER) =>
  Effect.flatMap(AskJobRunner, (runner) =>
    runClaimLoop({
      name: "ask worker",
      concurrency: options.concurrency ?? DEFAULT_ASK_WORKER.concurrency,
      claim: (room) => claimDueAskJobs(room, options.leaseMs),
      run: (job) => runner.run(job),
      describe: (job) => `ask job ${job.messageId}`,
      idle: Effect.sleep(Duration.millis(options.idleMs ?? DEFAULT_ASK_WORKER.idleMs))
    })
  )

/** A layer that keeps `runAskWorker` running while it is alive; closing it hands the running jobs back. */
export const AskWorkerLive = (options: AskWorkerOptions = DEFAULT_ASK_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs < 2_000 || (options.concurrency ?? 1) < 1) {
        return yield* Effect.dieMessage("the ask lease must be at least 2 s and the concurrency at least 1")
      }
      yield* Effect.logInfo(
        `Custom AI ask worker: up to ${options.concurrency ?? DEFAULT_ASK_WORKER.concurrency} jobs at once, lease ${options.leaseMs} ms`
      )
      yield* Effect.forkScoped(runAskWorker(options))
    })
  )
