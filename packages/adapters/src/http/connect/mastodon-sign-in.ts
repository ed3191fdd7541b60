/**
 * Signing in to a Mastodon instance with OAuth, for the connect page: the server's app on the instance (registered on
 * first use with `POST /api/v1/apps`, then kept), the address of the instance's authorization page, and the exchange
 * of the code it sends back for an access token. Every call goes through masto and the checked fetch's dispatcher.
 */
import { type MastodonApp, MastodonApps } from "@svc/core/scheduling"
import { Clock, Data, Effect, Option, Schema } from "effect"
import { createOAuthAPIClient, createRestAPIClient, MastoHttpError } from "masto"
import type { Dispatcher } from "undici"
import { addressRefusalOf, withDispatcher } from "../../http-sender/checked-fetch.js"

/** The scopes asked for: reading the account and posting (`read write`, as the access-token form asks too). */
export const MASTODON_SCOPES = "read write"

/** Why signing in could not go on, in words for the person on the page. */
export class MastodonSignInFailed extends Data.TaggedError("MastodonSignInFailed")<{
  readonly message: string
  /** Whether the instance (or the way to it) failed, rather than what the person gave. */
  readonly upstream: boolean
}> {}

/** Settings of {@link makeMastodonSignIn}. */
export interface MastodonSignInOptions {
  /** Where the instance sends the person back with a code: `<PUBLIC_URL>/connect/mastodon/callback`. */
  readonly redirectUri: string
  /** The name the instance shows the person when asking for their consent, and its link. */
  readonly clientName: string
  readonly website: string
  /** The checked fetch's dispatcher: an instance address inside our network is never reached. */
  readonly dispatcher: Dispatcher
  /** Longest wait for one call to the instance, in ms. */
  readonly timeoutMs: number
}

// masto answers in camelCase; only the fields used are decoded.
const RegisteredApp = Schema.Struct({ clientId: Schema.NonEmptyString, clientSecret: Schema.NonEmptyString })
const IssuedToken = Schema.Struct({ accessToken: Schema.NonEmptyString })

/** The steps of the sign-in, over the kept apps. */
export const makeMastodonSignIn = (options: MastodonSignInOptions) =>
  Effect.map(MastodonApps, (apps) => {
    const requestInit = withDispatcher(undefined, options.dispatcher)
    const hostOf = (instance: string) => new URL(instance).host

    /** One masto call, its answer decoded, its failure told in the person's words. */
    const call = <A, I>(instance: string, doing: string, schema: Schema.Schema<A, I>, run: () => Promise<unknown>) =>
      Effect.tryPromise({ try: run, catch: (cause) => failureOf(hostOf(instance), doing, cause) }).pipe(
        Effect.flatMap((answer) =>
          Schema.decodeUnknown(schema)(answer).pipe(
            Effect.mapError(
              () =>
                new MastodonSignInFailed({
                  message: `${hostOf(instance)} answered ${doing} in a shape Mastodon does not use: is it a Mastodon instance?`,
                  upstream: true
                })
            )
          )
        )
      )

    /** The app kept for `instance`, or one registered there now. */
    const appOn = (instance: string): Effect.Effect<MastodonApp, MastodonSignInFailed> =>
      Effect.gen(function* () {
        const kept = yield* apps.find(instance, options.redirectUri)
        if (Option.isSome(kept)) return kept.value
        const client = createRestAPIClient({ url: instance, requestInit, timeout: options.timeoutMs, log: "error" })
        const registered = yield* call(instance, "when asked to register svc", RegisteredApp, () =>
          client.v1.apps.create({
            clientName: options.clientName,
            redirectUris: options.redirectUri,
            scopes: MASTODON_SCOPES,
            website: options.website
          })
        )
        const at = new Date(yield* Clock.currentTimeMillis)
        return yield* apps.keep({ instance, redirectUri: options.redirectUri, ...registered }, at)
      })

    return {
      /** The instance's authorization page for a person, with `state` to come back with. */
      authorizeUrl: (instance: string, state: string): Effect.Effect<string, MastodonSignInFailed> =>
        Effect.map(appOn(instance), (app) => {
          const query = new URLSearchParams({
            response_type: "code",
            client_id: app.clientId,
            redirect_uri: app.redirectUri,
            scope: MASTODON_SCOPES,
            state
          })
          return `${instance}/oauth/authorize?${query.toString()}`
        }),

      /**
       * The access token the instance gives for `code`. An instance that no longer knows the kept app (deleted by its
       * admin) answers `invalid_client`: the app is dropped, so the next try registers a new one.
       */
      accessToken: (instance: string, code: string): Effect.Effect<string, MastodonSignInFailed> =>
        Effect.gen(function* () {
          const app = yield* apps.find(instance, options.redirectUri)
          if (Option.isNone(app)) {
            return yield* new MastodonSignInFailed({
              message: `svc has no app on ${hostOf(instance)} any more: start again from the connect page.`,
              upstream: false
            })
          }
          const client = createOAuthAPIClient({ url: instance, requestInit, timeout: options.timeoutMs, log: "error" })
          const token = yield* Effect.tryPromise({
            try: () =>
              client.token.create({
                grantType: "authorization_code",
                clientId: app.value.clientId,
                clientSecret: app.value.clientSecret,
                redirectUri: app.value.redirectUri,
                code,
                scope: MASTODON_SCOPES
              }),
            catch: (cause) => cause
          }).pipe(
            Effect.catchAll((cause) =>
              Effect.zipRight(
                isUnknownClient(cause) ? apps.forget(instance, options.redirectUri) : Effect.void,
                Effect.fail(failureOf(hostOf(instance), "when asked for the access token", cause))
              )
            )
          )
          return (yield* Schema.decodeUnknown(IssuedToken)(token).pipe(
            Effect.mapError(
              () =>
                new MastodonSignInFailed({
                  message: `${hostOf(instance)} gave no access token: try again.`,
                  upstream: true
                })
            )
          )).accessToken
        })
    }
  })

/** The sign-in's steps, as {@link makeMastodonSignIn} makes them. */
export type MastodonSignIn = Effect.Effect.Success<ReturnType<typeof makeMastodonSignIn>>

const isUnknownClient = (cause: unknown) =>
  cause instanceof MastoHttpError && cause.statusCode === 401 && cause.message === "invalid_client"

/** What a failed call means to the person: the address refused, the instance down, or its refusal in its words. */
const failureOf = (host: string, doing: string, cause: unknown): MastodonSignInFailed => {
  if (addressRefusalOf(cause) !== undefined) {
    return new MastodonSignInFailed({
      message: `${host} is not a public Mastodon instance: the address leads inside a private network.`,
      upstream: false
    })
  }
  if (cause instanceof MastoHttpError) {
    const said = cause.description ?? cause.message
    if (cause.statusCode >= 500 || cause.statusCode === 429) {
      return new MastodonSignInFailed({
        message: `${host} answered ${cause.statusCode} ${doing}: the instance is down or busy. Try again in a few minutes.`,
        upstream: true
      })
    }
    if (cause.statusCode === 404) {
      return new MastodonSignInFailed({
        message: `${host} has no Mastodon API (it answered 404 ${doing}): check the instance's address.`,
        upstream: false
      })
    }
    return new MastodonSignInFailed({
      message: `${host} refused ${doing} (${cause.statusCode}${said ? `: ${said}` : ""}).`,
      upstream: true
    })
  }
  // No answer, or one masto cannot read (a proxy's HTML error page while the instance is down).
  return new MastodonSignInFailed({
    message: `${host} gave no usable answer ${doing}: the instance may be down or not a Mastodon instance. Try again in a few minutes.`,
    upstream: true
  })
}
