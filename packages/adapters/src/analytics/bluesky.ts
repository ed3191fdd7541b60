/**
 * Bluesky's metrics, through `@atproto/api`: `app.bsky.feed.getPosts` (25 posts a call) asked of the account's PDS,
 * which proxies it to the AppView it uses, logged in with the account's app password as the publisher is. The AppView
 * gives likes, replies, reposts and quotes; Bluesky counts no views and no link clicks, so those stay null.
 */
import { MetricsFailure, type MetricsReader, type PostMetrics } from "@svc/core/analytics"
import { Duration, Effect } from "effect"
import { loadAtprotoApi, makeBlueskyCalls } from "../publisher/bluesky-session.js"

/** Settings of {@link makeBlueskyMetricsReader}; every one has a default. */
export interface BlueskyMetricsOptions {
  /** Longest wait for one call to the PDS (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput
  /** The `fetch` every call goes through (default the global one; the server gives the checked fetch). */
  readonly fetch?: typeof fetch
}

/** getPosts takes at most 25 URIs (the lexicon's `maxLength`). */
const GET_POSTS_MAX = 25

/** A count the AppView gave, or null when it gave none. */
const count = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null)

/** A metrics reader for platform `bluesky`. */
export const makeBlueskyMetricsReader = (options: BlueskyMetricsOptions = {}): MetricsReader => {
  const requestTimeout = Duration.decode(options.requestTimeout ?? "30 seconds")
  const { call, withSession } = makeBlueskyCalls({
    api: loadAtprotoApi("reading Bluesky post metrics"),
    failure: (fields) => new MetricsFailure(fields),
    requestTimeout,
    fetch: options.fetch
  })

  return {
    platform: "bluesky",
    batchSize: GET_POSTS_MAX,
    read: ({ account, remoteIds }) =>
      withSession(account.serviceUrl, account.credentials, ({ agent }) =>
        Effect.gen(function* () {
          const answers = new Map<string, PostMetrics>()
          for (let i = 0; i < remoteIds.length; i += GET_POSTS_MAX) {
            const uris = remoteIds.slice(i, i + GET_POSTS_MAX)
            const { data } = yield* call("Reading post metrics", (signal) =>
              agent.app.bsky.feed.getPosts({ uris: [...uris] }, { signal })
            )
            for (const post of data.posts) {
              answers.set(post.uri, {
                likes: count(post.likeCount),
                replies: count(post.replyCount),
                reposts: count(post.repostCount),
                quotes: count(post.quoteCount),
                views: null,
                clicks: null
              })
            }
          }
          return answers
        })
      )
  }
}
