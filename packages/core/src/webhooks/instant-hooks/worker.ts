import { Clock, Duration, Effect, Either, Layer, Option, Schedule } from "effect"
import { Ids } from "../../shared/ports.js"
import { withSpan } from "../../shared/spans.js"
import { HttpSender } from "../ports.js"
import { INSTANT_HOOK_EVENTS } from "./events.js"
import {
  DEFAULT_INSTANT_HOOK_INTERVAL_MS,
  DROP_AFTER_FAILING_MS,
  IDS_PER_PUSH,
  PUSH_LEASE_MS,
  PUSHES_PER_ROUND,
  SETTLE_MS
} from "./policy.js"
import { type ClaimedHook, InstantHooksRepo } from "./ports.js"

/** How the push worker of one process runs. */
export interface InstantHookWorkerOptions {
  /** Time between rounds, and the least time between two rounds' pushes to one hook (across instances). */
  readonly intervalMs: number
  /** Hooks pushed at once in this process. */
  readonly concurrency?: number | undefined
}

/** Hooks claimed per look at the table. */
const CLAIM_BATCH = 50

/** The feeds show the last 30 days; a hook never pushes an id its feed no longer lists. */
const FEED_WINDOW_MS = 30 * 86_400_000

/** How one push ended: through (2xx), gone (410: unsubscribe), or failed (anything else, sent again next round). */
export type PushResult = "delivered" | "gone" | "failed"

const send = (hook: ClaimedHook, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sender = yield* HttpSender
    const sent = yield* Effect.either(
      sender.send({
        url: hook.targetUrl,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ event: hook.event, ids })
      })
    )
    if (Either.isLeft(sent)) {
      yield* Effect.logDebug(`instant hook ${hook.id}: ${sent.left.reason}: ${sent.left.message}`)
      return "failed" as const
    }
    const status = sent.right.status
    return status >= 200 && status < 300 ? "delivered" : status === 410 ? "gone" : "failed"
  })

/**
 * Pushes a claimed hook's new feed rows, up to `PUSHES_PER_ROUND` pushes of `IDS_PER_PUSH` ids, each recorded as it
 * ends: a 2xx moves the hook past the pushed rows; a 410 deletes it; any other ending keeps its place (the same ids
 * go again next round) and, after three days of nothing but failures, deletes it. Then frees it until the next
 * round. Answers the pushes it made.
 */
export const pushHook = (hook: ClaimedHook, options: Pick<InstantHookWorkerOptions, "intervalMs">) =>
  Effect.gen(function* () {
    const repo = yield* InstantHooksRepo
    const selector = INSTANT_HOOK_EVENTS[hook.event].selector
    const started = yield* Clock.currentTimeMillis
    let after = hook.after
    let failingSince = hook.failingSince
    let pushes = 0
    while (pushes < PUSHES_PER_ROUND) {
      const now = yield* Clock.currentTimeMillis
      const entries = yield* repo.entriesAfter(
        hook.workspaceId,
        selector,
        { after, since: new Date(now - FEED_WINDOW_MS), until: new Date(now - SETTLE_MS) },
        IDS_PER_PUSH
      )
      const last = entries[entries.length - 1]
      if (last === undefined) break
      pushes += 1
      const result = yield* send(
        hook,
        entries.map((entry) => entry.listedId)
      )
      const ended = yield* Clock.currentTimeMillis
      if (result === "gone") {
        if (yield* repo.drop(hook.id, hook.claimToken)) {
          yield* Effect.logInfo(`instant hook ${hook.id}: the target answered 410; the hook is deleted`)
        }
        return pushes
      }
      if (result === "failed") {
        failingSince = failingSince ?? new Date(ended)
        if (ended - failingSince.getTime() >= DROP_AFTER_FAILING_MS) {
          if (yield* repo.drop(hook.id, hook.claimToken)) {
            yield* Effect.logWarning(
              `instant hook ${hook.id}: pushes failed for ${DROP_AFTER_FAILING_MS / 86_400_000} days; the hook is deleted`
            )
          }
          return pushes
        }
        // The claim was lost (a worker that outlived its lease): the new holder pushes from here.
        if (!(yield* repo.record(hook.id, hook.claimToken, { after: Option.none(), failingSince }))) return pushes
        break
      }
      after = last.position
      failingSince = null
      if (!(yield* repo.record(hook.id, hook.claimToken, { after: Option.some(after), failingSince }))) return pushes
      if (entries.length < IDS_PER_PUSH) break
    }
    yield* repo.release(hook.id, hook.claimToken, new Date(started + options.intervalMs))
    return pushes
  }).pipe(withSpan("instantHooks.push", { attributes: { hook: hook.id, event: hook.event } }))

/**
 * One round: claims every due hook (in batches, other instances' skipped) and pushes each one's new rows. Answers
 * how many hooks it looked at and how many pushes it made.
 */
export const pushRound = (options: InstantHookWorkerOptions) =>
  Effect.gen(function* () {
    const repo = yield* InstantHooksRepo
    const ids = yield* Ids
    const concurrency = options.concurrency ?? 8
    let hooks = 0
    let pushes = 0
    while (true) {
      const now = yield* Clock.currentTimeMillis
      const claimed = yield* repo.claim({
        now: new Date(now),
        leaseUntil: new Date(now + PUSH_LEASE_MS),
        claimToken: yield* ids.make("ihc_"),
        limit: CLAIM_BATCH
      })
      hooks += claimed.length
      const made = yield* Effect.forEach(
        claimed,
        (hook) =>
          pushHook(hook, options).pipe(
            Effect.catchAllCause((cause) =>
              Effect.as(Effect.logError(`instant hook ${hook.id}: the push round failed`, cause), 0)
            )
          ),
        { concurrency }
      )
      pushes += made.reduce((a, b) => a + b, 0)
      if (claimed.length < CLAIM_BATCH) break
    }
    return { hooks, pushes }
  }).pipe(withSpan("instantHooks.round"))

/**
 * The push loop of one process: a round, then a wait of the interval, forever. A failed round is logged and the
 * next comes on time; a hook a failed round held is taken up again once its lease runs out.
 */
export const runInstantHookWorker = (options: InstantHookWorkerOptions) =>
  pushRound(options).pipe(
    Effect.catchAllCause((cause) => Effect.logError("instant hooks: the push round failed", cause)),
    Effect.repeat(Schedule.spaced(Duration.millis(options.intervalMs))),
    Effect.asVoid
  )

/**
 * A layer that keeps `runInstantHookWorker` running in the background while it is alive (default: a round every
 * 15 seconds). Closing it interrupts the round; a hook it held is free again once its lease runs out.
 */
export const InstantHookWorkerLive = (
  options: InstantHookWorkerOptions = { intervalMs: DEFAULT_INSTANT_HOOK_INTERVAL_MS }
) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (!(options.intervalMs >= 1)) {
        return yield* Effect.dieMessage("the instant hook interval must be at least 1 ms")
      }
      yield* Effect.logInfo(`instant hook worker: a round every ${options.intervalMs} ms`)
      yield* Effect.forkScoped(runInstantHookWorker(options))
    })
  )
