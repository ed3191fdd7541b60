/**
 * Mastodon's metrics, through masto.js (the client the Mastodon publisher uses): `GET /api/v1/statuses/:id` for each
 * post, with the account's access token. A status gives favourites (likes), replies and boosts (reposts), and quotes
 * on instances from 4.5 (`quotes_count`); Mastodon counts no views and no link clicks, so those stay null. A status
 * the instance answers 404 for is gone (deleted).
 */
import { MetricsFailure, type MetricsReader, type PostMetrics } from "@svc/core/analytics"
import { Duration, Effect, Option, Schema } from "effect"
import { MastoHttpError, type mastodon } from "masto"
import type { Dispatcher } from "undici"
import { makeMastodonCalls } from "../publisher/mastodon-client.js"

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

  const { attempt, failed, opened } = makeMastodonCalls({
    failure: (fields) => new MetricsFailure(fields),
    requestTimeout,
    allowPlainHttp: options.allowPlainHttp === true,
    dispatcher: options.dispatcher
  })

  /** One status's counts; none when the instance no longer has it. */
  const readStatus = (client: mastodon.rest.Client, id: string) =>
    attempt((signal) => client.v1.statuses.$select(id).fetch(undefined, { requestInit: { signal } })).pipe(
      Effect.map((status): Option.Option<unknown> => Option.some(status)),
      Effect.catchAll((cause) =>
        cause instanceof MastoHttpError && cause.statusCode === 404
          ? Effect.succeed(Option.none<unknown>())
          : failed("Reading a status")(cause)
      ),
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
        const { client } = yield* opened(account.serviceUrl, account.credentials)
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
