import { Clock, Duration, Effect, Queue, Ref, type Scope } from "effect"
import { Ids } from "./ports.js"

/** What a {@link runClaimLoop} claims and runs. */
export interface ClaimLoop<A, E, R, R2, R3> {
  /** Names the loop in its logs ("webhook worker"). */
  readonly name: string
  /** Items running at once in this process. */
  readonly concurrency: number
  /** Claims up to `room` due items (leased to this process, so a crash hands them to another after the lease). */
  readonly claim: (room: number) => Effect.Effect<ReadonlyArray<A>, E, R>
  /** Runs one claimed item; a failure is logged with `describe` and leaves the item to its lease. */
  readonly run: (item: A) => Effect.Effect<void, unknown, R2>
  /** Names an item in the log line of its failure ("webhook delivery dlv_…"). */
  readonly describe: (item: A) => string
  /** What to wait on, besides a run ending, when the last claim left room: a poll interval, or a wake-up. */
  readonly idle: Effect.Effect<unknown, never, R3>
  /**
   * Runs are finished even when the loop stops (a send already on the wire is recorded, not left to its lease).
   * Otherwise closing the loop interrupts them and their items come back after the lease.
   */
  readonly finishOnStop?: boolean | undefined
}

/**
 * The claim loop the background workers share: keeps up to `concurrency` items running, claims more as runs end,
 * and when a claim leaves room waits for a run to end or for `idle`. A failed claim is logged and tried again a
 * second later. Runs are forked into the caller's scope, so closing it stops the loop.
 */
export const runClaimLoop = <A, E, R, R2, R3>(
  loop: ClaimLoop<A, E, R, R2, R3>
): Effect.Effect<never, never, R | R2 | R3 | Scope.Scope> =>
  Effect.gen(function* () {
    const inFlight = yield* Ref.make(0)
    const settled = yield* Queue.sliding<void>(1)

    const start = (item: A) => {
      const ran = loop
        .run(item)
        .pipe(Effect.catchAllCause((cause) => Effect.logError(`${loop.describe(item)} failed`, cause)))
      return (loop.finishOnStop === true ? Effect.uninterruptible(ran) : ran).pipe(
        Effect.ensuring(Ref.update(inFlight, (n) => n - 1).pipe(Effect.zipRight(Queue.offer(settled, undefined)))),
        Effect.forkScoped
      )
    }

    const step = Effect.gen(function* () {
      const room = loop.concurrency - (yield* Ref.get(inFlight))
      const claimed = room > 0 ? yield* loop.claim(room) : []
      yield* Ref.update(inFlight, (n) => n + claimed.length)
      yield* Effect.forEach(claimed, start, { discard: true })
      // Full: more may be due, so look again as soon as a run ends.
      if (room <= 0 || claimed.length === room) return yield* Queue.take(settled)
      // Room left: a run ending frees room (a capped item may be claimable then), and `idle` covers new work. The
      // runs may all have ended during the claim, which then saw them in flight and took nothing: their signal is
      // waiting in `settled`, so it is raced even with nothing in flight now (waiting on `idle` alone lost that
      // wake-up and stalled a drain for a poll interval, again and again).
      return yield* Effect.race(Queue.take(settled), loop.idle)
    })

    return yield* step.pipe(
      Effect.catchAllCause((cause) =>
        Effect.logError(`${loop.name}: claiming due work failed; trying again in a second`, cause).pipe(
          Effect.zipRight(Effect.sleep(Duration.seconds(1)))
        )
      ),
      Effect.forever
    )
  })

/** A claim on due work made now: a fresh token, held until `leaseMs` from now (then another worker may take it). */
export const newClaim = (leaseMs: number) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    return { now: new Date(now), claimToken: yield* (yield* Ids).make("clm_"), leaseUntil: new Date(now + leaseMs) }
  })
