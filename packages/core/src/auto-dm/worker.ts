import { Duration, Effect, Layer } from "effect"
import { newClaim, runClaimLoop } from "../shared/claim-loop.js"
import { withSpan } from "../shared/spans.js"
import { AutoDmWorkRepo, type ClaimedInbox, type ClaimedSend } from "./ports.js"
import { AutoDmSending } from "./sending.js"

/** How the auto-DM worker of one process runs. */
export interface AutoDmWorkerOptions {
  /** How long a claim holds an inbox or a send before another worker may take it over (after a crash). */
  readonly leaseMs: number
  /** Sends (and inbox reads) in flight at once in this process. */
  readonly concurrency?: number | undefined
  /** Wait between looks for due work when nothing was due. */
  readonly idleMs?: number | undefined
  /** How often each account's inbox is read (default `POLL_INTERVAL_MS`, a minute). */
  readonly pollMs?: number | undefined
}

/** The defaults of {@link AutoDmWorkerOptions}. */
export const DEFAULT_AUTO_DM_WORKER = { leaseMs: 120_000, concurrency: 4, idleMs: 5_000 } as const

/** Claims up to `limit` inboxes due to be read, held for `leaseMs`. */
export const claimDueInboxes = (limit: number, leaseMs: number) =>
  Effect.gen(function* () {
    const work = yield* AutoDmWorkRepo
    return yield* work.claimInboxes(yield* newClaim(leaseMs), limit)
  }).pipe(withSpan("AutoDm.claimInboxes", { attributes: { limit } }))

/** Claims up to `limit` due sends, held for `leaseMs`. */
export const claimDueSends = (limit: number, leaseMs: number) =>
  Effect.gen(function* () {
    const work = yield* AutoDmWorkRepo
    return yield* work.claimSends(yield* newClaim(leaseMs), limit)
  }).pipe(withSpan("AutoDm.claimSends", { attributes: { limit } }))

/**
 * One look: reads every due inbox (up to `concurrency`), then sends up to `concurrency` due messages; answers how
 * many inboxes were read and messages tried.
 */
export const processAutoDm = (options: AutoDmWorkerOptions = DEFAULT_AUTO_DM_WORKER) =>
  Effect.gen(function* () {
    const sending = yield* AutoDmSending
    const concurrency = options.concurrency ?? DEFAULT_AUTO_DM_WORKER.concurrency
    const inboxes = yield* claimDueInboxes(concurrency, options.leaseMs)
    yield* Effect.forEach(inboxes, (inbox) => sending.poll(inbox, options.pollMs), { concurrency, discard: true })
    const sends = yield* claimDueSends(concurrency, options.leaseMs)
    yield* Effect.forEach(sends, sending.run, { concurrency, discard: true })
    return { inboxes: inboxes.length, sends: sends.length }
  })

/**
 * The auto-DM loops of one process: one reads due inboxes, one sends due messages, each keeping up to `concurrency`
 * going and looking for due work every `idleMs`. An inbox or send whose run dies keeps its claim until the lease
 * ends; then any instance takes it over (a send asks the platform whether it already went out).
 */
export const runAutoDmWorker = (options: AutoDmWorkerOptions = DEFAULT_AUTO_DM_WORKER) =>
  Effect.flatMap(AutoDmSending, (sending) => {
    const concurrency = options.concurrency ?? DEFAULT_AUTO_DM_WORKER.concurrency
    const idle = Effect.sleep(Duration.millis(options.idleMs ?? DEFAULT_AUTO_DM_WORKER.idleMs))
    const reading = runClaimLoop({
      name: "auto-DM inbox reader",
      concurrency,
      claim: (room) => claimDueInboxes(room, options.leaseMs),
      run: (inbox: ClaimedInbox) => sending.poll(inbox, options.pollMs),
      describe: (inbox) => `auto-DM inbox of ${inbox.accountId}`,
      idle
    })
    const sendingLoop = runClaimLoop({
      name: "auto-DM sender",
      concurrency,
      claim: (room) => claimDueSends(room, options.leaseMs),
      run: (send: ClaimedSend) => sending.run(send),
      describe: (send) => `auto-DM send ${send.id}`,
      idle,
      // A message on the wire is finished and recorded when the process stops, not left to its lease.
      finishOnStop: true
    })
    return Effect.all([reading, sendingLoop], { concurrency: 2, discard: true })
  })

/** A layer that keeps `runAutoDmWorker` running while it is alive. */
export const AutoDmWorkerLive = (options: AutoDmWorkerOptions = DEFAULT_AUTO_DM_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs < 10_000 || (options.concurrency ?? 1) < 1) {
        return yield* Effect.dieMessage("the auto-DM lease must be at least 10 s and the concurrency at least 1")
      }
      yield* Effect.logInfo(
        `auto-DM worker: up to ${options.concurrency ?? DEFAULT_AUTO_DM_WORKER.concurrency} sends at once, lease ${options.leaseMs} ms`
      )
      yield* Effect.forkScoped(runAutoDmWorker(options))
    })
  )
