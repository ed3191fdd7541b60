/**
 * The OAuth apps this server registered on Mastodon instances: a person connecting an account gives only the
 * instance's address, and the server signs in through its app there, registered on first use and kept.
 */
import { Context, type Effect, type Option } from "effect"

/** An app registered on `instance` (its origin) that sends authorization codes to `redirectUri`. */
export interface MastodonApp {
  readonly instance: string
  readonly redirectUri: string
  readonly clientId: string
  readonly clientSecret: string
}

/** Where the registered apps are kept; the client secret is sealed at rest with the server key. */
export class MastodonApps extends Context.Tag("svc/scheduling/MastodonApps")<
  MastodonApps,
  {
    /** The app kept for this instance and redirect address, if any. */
    readonly find: (instance: string, redirectUri: string) => Effect.Effect<Option.Option<MastodonApp>>
    /**
     * Keeps `app` unless one is already kept for its instance and redirect address (two first connects at once), and
     * answers the one kept, which every later sign-in uses.
     */
    readonly keep: (app: MastodonApp, at: Date) => Effect.Effect<MastodonApp>
    /** Drops the app kept for this instance and redirect address: the instance no longer knows it. */
    readonly forget: (instance: string, redirectUri: string) => Effect.Effect<void>
  }
>() {}
