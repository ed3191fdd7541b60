/**
 * One call of a network adapter (publisher, inbox, metrics reader) to a platform's server: bounded in time, and what
 * it threw made into the adapter's own failure (`PublishFailure`, `MessageFailure`, `MetricsFailure`), all of which
 * take the same fields.
 */
import { Clock, Data, Duration, Effect } from "effect"
import { addressRefusalOf } from "../http-sender/checked-fetch.js"

/** A call that outlived its bound. */
export class CallTimedOut extends Data.TaggedError("CallTimedOut")<{ readonly afterMs: number }> {}

/** A failed call as a platform's mapping sees it; each adapter's failure class is made from these fields. */
export interface FailureFields {
  readonly kind: "temporary" | "rejected" | "credentials"
  readonly message: string
  readonly retryAfterMs?: number
}

/** What a platform's mapping makes of a call's failure, doing `doing`, at `nowMs`. */
export type FailureMapping = (doing: string, cause: unknown, nowMs: number) => FailureFields

/** One call, bounded by `timeout` (interrupting it aborts it); fails with what it threw or {@link CallTimedOut}. */
export const attempt = <A>(
  run: (signal: AbortSignal) => PromiseLike<A>,
  timeout: Duration.Duration
): Effect.Effect<A, unknown> =>
  Effect.tryPromise({ try: (signal) => Promise.resolve(run(signal)), catch: (cause) => cause }).pipe(
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () => new CallTimedOut({ afterMs: Duration.toMillis(timeout) })
    })
  )

/**
 * The adapter's failure for what a call doing `doing` threw: a server address the address rule refuses is `rejected`
 * (not worth another try); anything else is what the platform's `mapping` says.
 */
export const failedCall =
  <E>(mapping: FailureMapping, make: (fields: FailureFields) => E) =>
  (doing: string) =>
  (cause: unknown): Effect.Effect<never, E> => {
    const refused = addressRefusalOf(cause)
    if (refused !== undefined) return Effect.fail(make({ kind: "rejected", message: `${doing}: ${refused.message}` }))
    return Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.fail(make(mapping(doing, cause, now))))
  }
