/**
 * What the Mastodon adapters share (the publisher, the auto-DM inbox, the metrics reader): the instance's address
 * checked, the account's access token read from its credentials, a masto.js client through the server's dispatcher,
 * and bounded calls whose failures become the adapter's own.
 */
import { Duration, Effect, Schema } from "effect"
import { createRestAPIClient, type mastodon } from "masto"
import type { Dispatcher } from "undici"
import { withDispatcher } from "../http-sender/checked-fetch.js"
import { mastodonFailureOf } from "./mastodon-failure.js"
import { attempt, type FailureFields, failedCall } from "./network-call.js"

/** What an adapter keeps of an account: the access token, and the account's id once verified. */
const MastodonCredentials = Schema.Struct({
  accessToken: Schema.NonEmptyTrimmedString,
  accountId: Schema.optional(Schema.String)
})

/** An account opened for calls: its instance's origin, its token, its id when known, and a client. */
export interface MastodonAccount {
  readonly origin: string
  readonly accessToken: string
  readonly accountId: string | undefined
  readonly client: mastodon.rest.Client
}

/** Settings of {@link makeMastodonCalls}. */
export interface MastodonCallsOptions<E> {
  /** Makes the adapter's failure (`PublishFailure`, `MessageFailure`, `MetricsFailure`) from its fields. */
  readonly failure: (fields: FailureFields) => E
  /** Longest wait for one call. */
  readonly requestTimeout: Duration.Duration
  /** masto's own timeout, which caps the calls our bound cannot abort (pages); default `requestTimeout`. */
  readonly clientTimeout?: Duration.Duration | undefined
  /** Accepts `http://` instance addresses (a local instance, tests): the token is a bearer token. */
  readonly allowPlainHttp: boolean
  /** The undici dispatcher every call goes through (the server gives the checked fetch's). */
  readonly dispatcher?: Dispatcher | undefined
}

/** The calls and clients of one Mastodon adapter, its failures made with `options.failure`. */
export const makeMastodonCalls = <E>(options: MastodonCallsOptions<E>) => {
  const { failure, requestTimeout } = options

  /** The adapter's failure for what a call doing `doing` threw. */
  const failed = failedCall(mastodonFailureOf, failure)

  /** One masto call, bounded by `timeout` (interrupting it aborts the fetch), its answer decoded with `schema`. */
  const call = <A, I>(
    doing: string,
    schema: Schema.Schema<A, I>,
    run: (signal: AbortSignal) => PromiseLike<unknown>,
    timeout: Duration.Duration = requestTimeout
  ): Effect.Effect<A, E> =>
    attempt(run, timeout).pipe(
      Effect.catchAll(failed(doing)),
      Effect.flatMap((answer) =>
        Schema.decodeUnknown(schema)(answer).pipe(
          Effect.mapError(() =>
            failure({ kind: "temporary", message: `${doing}: the instance answered in an unknown shape` })
          )
        )
      )
    )

  /** The instance's origin: an address without a scheme is https; plain http only where allowed. */
  const instanceOrigin = (serviceUrl: string): Effect.Effect<string, E> =>
    Effect.try({
      try: () => {
        const trimmed = serviceUrl.trim()
        const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`)
        if (url.protocol !== "https:" && !(options.allowPlainHttp && url.protocol === "http:")) {
          throw new Error(url.protocol)
        }
        return url.origin
      },
      catch: () => failure({ kind: "rejected", message: `Not a Mastodon instance address (https://…): ${serviceUrl}` })
    })

  /** The account of `serviceUrl` with `credentials`, with a client of its instance. */
  const opened = (
    serviceUrl: string,
    credentials: Readonly<Record<string, unknown>>
  ): Effect.Effect<MastodonAccount, E> =>
    Effect.gen(function* () {
      const origin = yield* instanceOrigin(serviceUrl)
      const { accessToken, accountId } = yield* Schema.decodeUnknown(MastodonCredentials)(credentials).pipe(
        Effect.mapError(() =>
          failure({ kind: "credentials", message: "Mastodon needs an access token for this account" })
        )
      )
      const client = createRestAPIClient({
        url: origin,
        accessToken,
        timeout: Duration.toMillis(options.clientTimeout ?? requestTimeout),
        log: "error",
        ...(options.dispatcher === undefined ? {} : { requestInit: withDispatcher(undefined, options.dispatcher) })
      })
      return { origin, accessToken, accountId, client }
    })

  /** One call, bounded; fails with what it threw (or `CallTimedOut`). */
  const attemptCall = <A>(run: (signal: AbortSignal) => PromiseLike<A>): Effect.Effect<A, unknown> =>
    attempt(run, requestTimeout)

  return { attempt: attemptCall, call, failed, opened }
}
