/**
 * Mastodon's metrics, through masto.js (the client the Mastodon publisher uses): `GET /api/v1/statuses/:id` for each
 * post, with the account's access token. A status gives favourites (likes), replies and boosts (reposts), and quotes
 * on instances from 4.5 (`quotes_count`); Mastodon counts no views and no link clicks, so those stay null. A status
 * the instance answers 404 for is gone (deleted).
 */
import { MetricsFailure, type MetricsReader, type PostMetrics } from "@svc/core/analytics"
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { createRestAPIClient, MastoHttpError } from "masto"
import type { Dispatcher } from "undici"
import { addressRefusalOf, withDispatcher } from "../http-sender/checked-fetch.js"
import { CallTimedOut, toPublishFailure } from "../publisher/mastodon-failure.js"

/** Settings of {@link makeMastodonMetricsReader}; every one has a default. */
export interface MastodonMetricsOptions {
  /** Longest wait for one API call (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput
  /** Accepts `http://` instance addresses (a local instance, tests); off by default, the token is a bearer token. */
  readonly allowPlainHttp?: boolean
  /** The undici dispatcher every call goes through (the server gives the checked fetch's). */
  readonly dispatcher?: Dispatcher
}

/** Statuses read at once for one account: an instance allows 300 calls in 5 minutes per token. */
const CONCURRENCY = 4

const Credentials = Schema.Struct({ accessToken: Schema.NonEmptyTrimmedString })

// masto answers in camelCase; only the counts are decoded. `quotesCount` is missing before Mastodon 4.5.
const StatusCounts = Schema.Struct({
  id: Schema.String,
  favouritesCount: Schema.Number,
  repliesCount: Schema.Number,
  reblogsCount: Schema.Number,
  quotesCount: Schema.optional(Schema.NullOr(Schema.Number))
})

/** A metrics reader for platform `mastodon`. */
export const makeMastodonMetricsReader = (options: MastodonMetricsOptions = {}): MetricsReader => {
  const requestTimeout = Duration.decode(options.requestTimeout ?? "30 seconds")

  const originOf = (serviceUrl: string) =>
    Effect.try({
      try: () => {
        const trimmed = serviceUrl.trim()
        const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`)
        if (url.protocol !== "https:" && !(options.allowPlainHttp === true && url.protocol === "http:")) {
          throw new Error(url.protocol)
        }
        return url.origin
      },
      catch: () =>
        new MetricsFailure({ kind: "rejected", message: `Not a Mastodon instance address (https://…): ${serviceUrl}` })
    })

  /** One status's counts; none when the instance no longer has it. */
  const readStatus = (client: ReturnType<typeof createRestAPIClient>, id: string) =>
    Effect.tryPromise({
      try: (signal) => client.v1.statuses.$select(id).fetch(undefined, { requestInit: { signal } }),
      catch: (cause) => cause
    }).pipe(
      Effect.timeoutFail({
        duration: requestTimeout,
        onTimeout: () => new CallTimedOut({ afterMs: Duration.toMillis(requestTimeout) })
      }),
      Effect.map((status): Option.Option<unknown> => Option.some(status)),
      Effect.catchAll((cause) => {
        if (cause instanceof MastoHttpError && cause.statusCode === 404) return Effect.succeed(Option.none<unknown>())
        const refused = addressRefusalOf(cause)
        if (refused !== undefined) {
          return Effect.fail(new MetricsFailure({ kind: "rejected", message: `Reading a status: ${refused.message}` }))
        }
        return Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const failure = toPublishFailure("Reading a status", cause, now)
          return Effect.fail(
            new MetricsFailure({
              kind: failure.kind,
              message: failure.message,
              ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs })
            })
          )
        })
      }),
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.succeed(Option.none<PostMetrics>()),
          onSome: (answer) =>
            Schema.decodeUnknown(StatusCounts)(answer).pipe(
              Effect.map(
                (status): Option.Option<PostMetrics> =>
                  Option.some({
                    likes: status.favouritesCount,
                    replies: status.repliesCount,
                    reposts: status.reblogsCount,
                    quotes: status.quotesCount ?? null,
                    views: null,
                    clicks: null
                  })
              ),
              Effect.mapError(
                () =>
                  new MetricsFailure({
                    kind: "temporary",
                    message: "Reading a status: the instance answered in an unknown shape"
                  })
              )
            )
        })
      )
    )

  return {
    platform: "mastodon",
    batchSize: 20,
    read: ({ account, remoteIds }) =>
      Effect.gen(function* () {
        const origin = yield* originOf(account.serviceUrl)
        const { accessToken } = yield* Schema.decodeUnknown(Credentials)(account.credentials).pipe(
          Effect.mapError(
            () =>
              new MetricsFailure({ kind: "credentials", message: "Mastodon needs an access token for this account" })
          )
        )
        const client = createRestAPIClient({
          url: origin,
          accessToken,
          timeout: Duration.toMillis(requestTimeout),
          log: "error",
          ...(options.dispatcher === undefined ? {} : { requestInit: withDispatcher(undefined, options.dispatcher) })
        })
        const answers = yield* Effect.forEach(
          remoteIds,
          (id) => Effect.map(readStatus(client, id), (metrics) => [id, metrics] as const),
          { concurrency: CONCURRENCY }
        )
        return new Map(
          answers.flatMap(
            ([id, metrics]): Array<[string, PostMetrics]> => (Option.isSome(metrics) ? [[id, metrics.value]] : [])
          )
        )
      })
  }
}
