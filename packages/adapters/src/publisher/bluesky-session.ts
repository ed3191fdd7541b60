/**
 * What the Bluesky adapters share (the publisher, the auto-DM inbox, the metrics reader; the research source takes the
 * loader): `@atproto/api` loaded when first used, the account's login read from its credentials, its server's
 * address checked, bounded calls whose failures become the adapter's own, and this process's logged-in sessions.
 */
import type { AtpAgent, RichText } from "@atproto/api"
import type { TID } from "@atproto/common-web"
import { Duration, Effect, Schema } from "effect"
import { loadOptional, type MissingPackage } from "../optional-package.js"
import { blueskyFailureOf } from "./bluesky-failure.js"
import { attempt, type FailureFields, failedCall } from "./network-call.js"

/** What the adapters use of `@atproto/api`. */
export interface AtprotoApi {
  readonly AtpAgent: typeof AtpAgent
  readonly RichText: typeof RichText
}

/** `@atproto/api` with `@atproto/common-web`'s TID, for the record keys of writes (bluesky-record-keys.ts). */
export interface AtprotoApiWithTid extends AtprotoApi {
  readonly TID: typeof TID
}

// Optional peers of @svc/adapters (@svc/server brings them), each imported once, when first used: importing
// `@atproto/api` takes about 320 ms and 40 MB (its lexicons), which a server that never reaches Bluesky should not pay.
const importApiModule = () => import("@atproto/api")
const importCommonModule = () => import("@atproto/common-web")
let apiModule: ReturnType<typeof importApiModule> | undefined
let commonModule: ReturnType<typeof importCommonModule> | undefined
const importApi = () => {
  apiModule ??= importApiModule()
  return apiModule
}
const importCommon = () => {
  commonModule ??= importCommonModule()
  return commonModule
}

/** `@atproto/api`, for `purpose` (named in the refusal when it is not installed). */
export const loadAtprotoApi = (purpose: string): Effect.Effect<AtprotoApi, MissingPackage> =>
  loadOptional({
    packages: ["@atproto/api"],
    purpose,
    load: () => importApi().then((api) => ({ AtpAgent: api.AtpAgent, RichText: api.RichText }))
  })

/** `@atproto/api` and `@atproto/common-web`, for `purpose` (named in the refusal when either is not installed). */
export const loadAtprotoApiWithTid = (purpose: string): Effect.Effect<AtprotoApiWithTid, MissingPackage> =>
  loadOptional({
    packages: ["@atproto/api", "@atproto/common-web"],
    purpose,
    load: () =>
      Promise.all([importApi(), importCommon()]).then(([api, common]) => ({
        AtpAgent: api.AtpAgent,
        RichText: api.RichText,
        TID: common.TID
      }))
  })

/** What a person gives when connecting an account: a handle (or DID, or email) and an app password. */
const BlueskyLogin = Schema.Struct({
  identifier: Schema.NonEmptyTrimmedString,
  appPassword: Schema.NonEmptyTrimmedString
})
export type BlueskyLogin = typeof BlueskyLogin.Type

const DEFAULT_SERVICE = "https://bsky.social"

/** A logged-in account: its agent, who it is, and the loaded API it was made with. */
export interface BlueskySession<Api extends AtprotoApi> {
  readonly agent: AtpAgent
  readonly did: string
  readonly handle: string
  readonly api: Api
}

/** Settings of {@link makeBlueskyCalls}. */
export interface BlueskyCallsOptions<Api extends AtprotoApi, E> {
  /** The API, loaded for the adapter's purpose ({@link loadAtprotoApi} or {@link loadAtprotoApiWithTid}). */
  readonly api: Effect.Effect<Api, MissingPackage>
  /** Makes the adapter's failure (`PublishFailure`, `MessageFailure`, `MetricsFailure`) from its fields. */
  readonly failure: (fields: FailureFields) => E
  /** Longest wait for one call. */
  readonly requestTimeout: Duration.Duration
  /** The `fetch` every call goes through (default the global one; the server gives the checked fetch). */
  readonly fetch?: typeof fetch | undefined
}

/** The calls, logins and sessions of one Bluesky adapter, its failures made with `options.failure`. */
export const makeBlueskyCalls = <Api extends AtprotoApi, E extends { readonly kind: string }>(
  options: BlueskyCallsOptions<Api, E>
) => {
  const { requestTimeout, failure } = options
  const api = Effect.mapError(options.api, (missing) => failure({ kind: "rejected", message: missing.message }))
  // Calls the agent makes without a signal of ours (logging in, refreshing a session, resolving a mention) are bounded
  // here; those that take one are bounded by `attempt`, whose interruption aborts the request.
  const baseFetch = options.fetch ?? globalThis.fetch
  const boundedFetch: typeof fetch = (input, init) =>
    baseFetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(Duration.toMillis(requestTimeout)) })
  // Logged-in agents of this process, by server and login: a call reuses one (the PDS limits logins to 30 in five
  // minutes and 300 a day per account) and logs in again from the stored app password when it has none or its session
  // no longer works. The agent refreshes its own tokens.
  const sessions = new Map<string, BlueskySession<Api>>()

  /** The adapter's failure for what a call doing `doing` threw. */
  const failed = failedCall(blueskyFailureOf, failure)

  /** One call, bounded by `timeout`; fails with what it threw (or `CallTimedOut`). */
  const attemptCall = <A>(
    run: (signal: AbortSignal) => PromiseLike<A>,
    timeout: Duration.Duration = requestTimeout
  ): Effect.Effect<A, unknown> => attempt(run, timeout)

  /** One call whose every failure is the adapter's. */
  const call = <A>(
    doing: string,
    run: (signal: AbortSignal) => PromiseLike<A>,
    timeout: Duration.Duration = requestTimeout
  ): Effect.Effect<A, E> => attempt(run, timeout).pipe(Effect.catchAll(failed(doing)))

  /** The origin of the account's server (Bluesky's own when none is given). */
  const serviceOrigin = (serviceUrl: string): Effect.Effect<string, E> =>
    Effect.try({
      try: () => {
        const url = new URL(serviceUrl.trim() === "" ? DEFAULT_SERVICE : serviceUrl.trim())
        if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(url.protocol)
        return url.origin
      },
      catch: () => failure({ kind: "credentials", message: `"${serviceUrl}" is not the address of a Bluesky server` })
    })

  const loginOf = (credentials: Readonly<Record<string, unknown>>): Effect.Effect<BlueskyLogin, E> =>
    Schema.decodeUnknown(BlueskyLogin)(credentials).pipe(
      Effect.mapError(() =>
        failure({
          kind: "credentials",
          message: "Bluesky needs the account's handle and an app password (Settings → Privacy and security)"
        })
      )
    )

  const logIn = (origin: string, login: BlueskyLogin): Effect.Effect<BlueskySession<Api>, E> =>
    Effect.gen(function* () {
      const loaded = yield* api
      const agent = new loaded.AtpAgent({ service: origin, fetch: boundedFetch })
      const { data } = yield* call("Logging in to Bluesky", () =>
        agent.login({ identifier: login.identifier, password: login.appPassword })
      )
      return { agent, did: data.did, handle: data.handle, api: loaded }
    })

  const sessionKey = (origin: string, login: BlueskyLogin) => `${origin}\n${login.identifier}\n${login.appPassword}`

  /** Keeps a session for later calls with this server and login. */
  const keepSession = (origin: string, login: BlueskyLogin, session: BlueskySession<Api>): void => {
    sessions.set(sessionKey(origin, login), session)
  }

  /**
   * Runs `use` with a session of the account: this process's own when it has one, else a new login. When a kept
   * session fails on credentials (revoked, expired past refreshing), it logs in once more and runs `use` again, so
   * `use` must be safe to run twice (every write keyed, a second run finding what the first wrote).
   */
  const withSession = <A>(
    serviceUrl: string,
    credentials: Readonly<Record<string, unknown>>,
    use: (session: BlueskySession<Api>) => Effect.Effect<A, E>
  ): Effect.Effect<A, E> =>
    Effect.gen(function* () {
      const origin = yield* serviceOrigin(serviceUrl)
      const login = yield* loginOf(credentials)
      const key = sessionKey(origin, login)
      const fresh = Effect.tap(logIn(origin, login), (session) => Effect.sync(() => sessions.set(key, session)))
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

  return { api, attempt: attemptCall, call, failed, serviceOrigin, loginOf, logIn, keepSession, withSession }
}
