import { Duration, Effect, Layer } from "effect"
import { newClaim, runClaimLoop } from "../shared/claim-loop.js"
import { withSpan } from "../shared/spans.js"
import { AnalyticsFetching, groupByAccount } from "./fetching.js"
import { AnalyticsRepo } from "./ports.js"
import type { ClaimedFetch } from "./schema.js"

/** How the metrics worker of one process runs. */
export interface AnalyticsWorkerOptions {
  /** How long a claim holds a fetch before another worker may take it over (after a crash). */
  readonly leaseMs: number
  /** Accounts fetched at once in this process. */
  readonly concurrency?: number | undefined
  /** Fetches claimed at most in one look (grouped by account, then batched by the platform's batch size). */
  readonly claimLimit?: number | undefined
  /** Wait between looks for due fetches when nothing was due. */
  readonly idleMs?: number | undefined
  /**
   * How often a post is fetched in its first day (default 15 minutes). A test or demo server sets it shorter to see
   * likes and replies soon after they happen; the later steps of the schedule stay.
   */
  readonly firstDayEveryMs?: number | undefined
}

/** The defaults of {@link AnalyticsWorkerOptions}: a look every 30 s is plenty for a schedule in 15-minute steps. */
export const DEFAULT_ANALYTICS_WORKER = { leaseMs: 120_000, concurrency: 4, claimLimit: 200, idleMs: 30_000 } as const

/**
 * Puts newly posted deliveries on the schedule, then claims up to `limit` due fetches held for `leaseMs`, grouped by
 * the account they went out on.
 */
export const claimDueFetches = (limit: number, leaseMs: number) =>
  Effect.gen(function* () {
    const repo = yield* AnalyticsRepo
    const claim = yield* newClaim(leaseMs)
    yield* repo.scheduleNew(claim.now)
    return groupByAccount(yield* repo.claimDue(claim, limit))
  }).pipe(withSpan("AnalyticsFetching.claim", { attributes: { limit } }))

/** One look: claims the due fetches and runs them all; answers how many posts it fetched. */
export const fetchDueMetrics = (options: AnalyticsWorkerOptions = DEFAULT_ANALYTICS_WORKER) =>
  Effect.gen(function* () {
    const fetching = yield* AnalyticsFetching
    const groups = yield* claimDueFetches(options.claimLimit ?? DEFAULT_ANALYTICS_WORKER.claimLimit, options.leaseMs)
    yield* Effect.forEach(groups, (group) => fetching.run(group, options), {
      concurrency: options.concurrency ?? DEFAULT_ANALYTICS_WORKER.concurrency,
      discard: true
    })
    return groups.reduce((n, group) => n + group.length, 0)
  })

/**
 * The metrics loop of one process: fetches due posts' metrics, an account's posts together, and looks for due ones
 * every `idleMs`. A fetch whose run dies keeps its claim until the lease ends; then any instance takes it over.
 */
export const runAnalyticsWorker = (options: AnalyticsWorkerOptions = DEFAULT_ANALYTICS_WORKER) =>
  Effect.flatMap(AnalyticsFetching, (fetching) =>
    runClaimLoop({
      name: "analytics worker",
      concurrency: options.concurrency ?? DEFAULT_ANALYTICS_WORKER.concurrency,
      claim: (room) =>
        claimDueFetches(
          Math.min(room * 25, options.claimLimit ?? DEFAULT_ANALYTICS_WORKER.claimLimit),
          options.leaseMs
        ),
      run: (group: ReadonlyArray<ClaimedFetch>) => fetching.run(group, options),
      describe: (group) => `metrics of ${group.length} posts on ${group[0]?.platform ?? "?"}`,
      idle: Effect.sleep(Duration.millis(options.idleMs ?? DEFAULT_ANALYTICS_WORKER.idleMs))
    })
  )

/** A layer that keeps `runAnalyticsWorker` running while it is alive. */
export const AnalyticsWorkerLive = (options: AnalyticsWorkerOptions = DEFAULT_ANALYTICS_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs < 10_000 || (options.concurrency ?? 1) < 1 || (options.firstDayEveryMs ?? 60_000) < 10_000) {
        return yield* Effect.dieMessage(
          "the analytics lease and first-day interval must be at least 10 s, and the concurrency at least 1"
        )
      }
      yield* Effect.logInfo(
        `analytics worker: up to ${options.concurrency ?? DEFAULT_ANALYTICS_WORKER.concurrency} accounts at once, lease ${options.leaseMs} ms`
      )
      yield* Effect.forkScoped(runAnalyticsWorker(options))
    })
  )
