/**
 * Bluesky's metrics, through `@atproto/api`: `app.bsky.feed.getPosts` (25 posts a call) asked of the account's PDS,
 * which proxies it to the AppView it uses, logged in with the account's app password as the publisher is. The AppView
 * gives likes, replies, reposts and quotes; Bluesky counts no views and no link clicks, so those stay null.
 */
import type { AtpAgent } from "@atproto/api"
import { MetricsFailure, type MetricsReader, type PostMetrics } from "@svc/core/analytics"
import type { PublishFailure } from "@svc/core/scheduling"
import { Clock, Duration, Effect, Schema } from "effect"
import { addressRefusalOf } from "../http-sender/checked-fetch.js"
import { loadOptional } from "../optional-package.js"
import { CallTimedOut, toPublishFailure } from "../publisher/bluesky-failure.js"

/** Settings of {@link makeBlueskyMetricsReader}; every one has a default. */
export interface BlueskyMetricsOptions {
  /** Longest wait for one call to the PDS (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput
  /** The `fetch` every call goes through (default the global one; the server gives the checked fetch). */
  readonly fetch?: typeof fetch
}

/** getPosts takes at most 25 URIs (the lexicon's `maxLength`). */
const GET_POSTS_MAX = 25
const DEFAULT_SERVICE = "https://bsky.social"

const Login = Schema.Struct({ identifier: Schema.NonEmptyTrimmedString, appPassword: Schema.NonEmptyTrimmedString })
type Login = typeof Login.Type

const loadApi = () => import("@atproto/api").then((api) => api.AtpAgent)
let loadingApi: ReturnType<typeof loadApi> | undefined
const atprotoApi = loadOptional({
  packages: ["@atproto/api"],
  purpose: "reading Bluesky post metrics",
  load: () => {
    if (loadingApi === undefined) loadingApi = loadApi()
    return loadingApi
  }
}).pipe(Effect.mapError((missing) => new MetricsFailure({ kind: "rejected", message: missing.message })))

const toMetricsFailure = (failure: PublishFailure) =>
  new MetricsFailure({
    kind: failure.kind,
    message: failure.message,
    ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs })
  })

/** A count the AppView gave, or null when it gave none. */
const count = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null)

/** A metrics reader for platform `bluesky`. */
export const makeBlueskyMetricsReader = (options: BlueskyMetricsOptions = {}): MetricsReader => {
  const requestTimeout = Duration.decode(options.requestTimeout ?? "30 seconds")
  const baseFetch = options.fetch ?? globalThis.fetch
  const boundedFetch: typeof fetch = (input, init) =>
    baseFetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(Duration.toMillis(requestTimeout)) })
  // Logged-in agents of this process, by server and login: a PDS limits logins (30 in five minutes per account).
  const sessions = new Map<string, AtpAgent>()

  /** One call, bounded; every failure a {@link MetricsFailure}. */
  const call = <A>(doing: string, run: (signal: AbortSignal) => PromiseLike<A>): Effect.Effect<A, MetricsFailure> =>
    Effect.tryPromise({ try: (signal) => Promise.resolve(run(signal)), catch: (cause) => cause }).pipe(
      Effect.timeoutFail({
        duration: requestTimeout,
        onTimeout: () => new CallTimedOut({ afterMs: Duration.toMillis(requestTimeout) })
      }),
      Effect.catchAll((cause) => {
        const refused = addressRefusalOf(cause)
        if (refused !== undefined) {
          return Effect.fail(new MetricsFailure({ kind: "rejected", message: `${doing}: ${refused.message}` }))
        }
        return Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.fail(toMetricsFailure(toPublishFailure(doing, cause, now)))
        )
      })
    )

  const originOf = (serviceUrl: string) =>
    Effect.try({
      try: () => {
        const url = new URL(serviceUrl.trim() === "" ? DEFAULT_SERVICE : serviceUrl.trim())
        if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(url.protocol)
        return url.origin
      },
      catch: () =>
        new MetricsFailure({ kind: "credentials", message: `"${serviceUrl}" is not the address of a Bluesky server` })
    })

  const logIn = (origin: string, login: Login) =>
    Effect.gen(function* () {
      const AtpAgentClass = yield* atprotoApi
      const agent = new AtpAgentClass({ service: origin, fetch: boundedFetch })
      yield* call("Logging in to Bluesky", () =>
        agent.login({ identifier: login.identifier, password: login.appPassword })
      )
      return agent
    })

  /** Runs `use` with a logged-in agent: a kept one, or a new login (once more when a kept one fails on credentials). */
  const withAgent = <A>(
    serviceUrl: string,
    credentials: Readonly<Record<string, unknown>>,
    use: (agent: AtpAgent) => Effect.Effect<A, MetricsFailure>
  ) =>
    Effect.gen(function* () {
      const origin = yield* originOf(serviceUrl)
      const login = yield* Schema.decodeUnknown(Login)(credentials).pipe(
        Effect.mapError(
          () =>
            new MetricsFailure({ kind: "credentials", message: "Bluesky needs the account's handle and app password" })
        )
      )
      const key = `${origin}\n${login.identifier}\n${login.appPassword}`
      const fresh = Effect.tap(logIn(origin, login), (agent) => Effect.sync(() => sessions.set(key, agent)))
      const kept = sessions.get(key)
      if (kept === undefined) return yield* Effect.flatMap(fresh, use)
      return yield* use(kept).pipe(
        Effect.catchIf(
          (failure) => failure.kind === "credentials",
          () =>
            Effect.zipRight(
              Effect.sync(() => sessions.delete(key)),
              Effect.flatMap(fresh, use)
            )
        )
      )
    })

  return {
    platform: "bluesky",
    batchSize: GET_POSTS_MAX,
    read: ({ account, remoteIds }) =>
      withAgent(account.serviceUrl, account.credentials, (agent) =>
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
