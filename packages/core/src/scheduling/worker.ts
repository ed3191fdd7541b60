import { Duration, Effect, Layer } from "effect"
import { newClaim, runClaimLoop } from "../shared/claim-loop.js"
import { withSpan } from "../shared/spans.js"
import { type ClaimedDelivery, PostsRepo } from "./ports.js"
import { PostPublishing } from "./publishing.js"

/** How the publishing worker of one process runs. */
export interface PublishWorkerOptions {
  /**
   * How long a claim holds a delivery before another worker may take it over (after a crash). A publish that
   * uploads a video may take minutes, so this is longer than the webhooks'.
   */
  readonly leaseMs: number
  /** Deliveries in flight at once in this process. */
  readonly concurrency?: number | undefined
  /** Wait between looks for due deliveries when nothing was due. */
  readonly idleMs?: number | undefined
}

/** The defaults of {@link PublishWorkerOptions}. */
export const DEFAULT_PUBLISH_WORKER = { leaseMs: 300_000, concurrency: 8, idleMs: 1_000 } as const

/** Claims up to `limit` due deliveries, held for `leaseMs`. */
export const claimDueDeliveries = (limit: number, leaseMs: number) =>
  Effect.gen(function* () {
    const repo = yield* PostsRepo
    return yield* repo.claimDue(yield* newClaim(leaseMs), limit)
  }).pipe(withSpan("PostPublishing.claim", { attributes: { limit } }))

/** One look: claims up to `concurrency` due deliveries and publishes them all; answers how many. */
export const publishDuePosts = (options: PublishWorkerOptions = DEFAULT_PUBLISH_WORKER) =>
  Effect.gen(function* () {
    const publishing = yield* PostPublishing
    const concurrency = options.concurrency ?? DEFAULT_PUBLISH_WORKER.concurrency
    const claimed = yield* claimDueDeliveries(concurrency, options.leaseMs)
    yield* Effect.forEach(claimed, publishing.run, { concurrency, discard: true })
    return claimed.length
  })

/**
 * The publishing loop of one process: keeps up to `concurrency` deliveries going and looks for due ones every
 * `idleMs`. A delivery whose run dies keeps its claim until the lease ends; then any instance takes it over and
 * asks the network whether it already went out before publishing.
 */
export const runPublishWorker = (options: PublishWorkerOptions = DEFAULT_PUBLISH_WORKER) =>
  Effect.flatMap(PostPublishing, (publishing) =>
    runClaimLoop({
      name: "publishing worker",
      concurrency: options.concurrency ?? DEFAULT_PUBLISH_WORKER.concurrency,
      claim: (room) => claimDueDeliveries(room, options.leaseMs),
      run: (delivery: ClaimedDelivery) => publishing.run(delivery),
      describe: (delivery) => `post delivery ${delivery.id}`,
      idle: Effect.sleep(Duration.millis(options.idleMs ?? DEFAULT_PUBLISH_WORKER.idleMs)),
      // A publish on the wire is finished and recorded when the process stops, not left to its lease.
      finishOnStop: true
    })
  )

/** A layer that keeps `runPublishWorker` running while it is alive. */
export const PublishWorkerLive = (options: PublishWorkerOptions = DEFAULT_PUBLISH_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs < 10_000 || (options.concurrency ?? 1) < 1) {
        return yield* Effect.dieMessage("the publishing lease must be at least 10 s and the concurrency at least 1")
      }
      yield* Effect.logInfo(
        `publishing worker: up to ${options.concurrency ?? DEFAULT_PUBLISH_WORKER.concurrency} deliveries at once, lease ${options.leaseMs} ms`
      )
      yield* Effect.forkScoped(runPublishWorker(options))
    })
  )
