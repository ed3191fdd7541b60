import { CredentialSealer, type MastodonApp, MastodonApps } from "@svc/core/scheduling"
import { withSpan } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface AppRow {
  readonly instance: string
  readonly redirect_uri: string
  readonly client_id: string
  readonly client_secret_sealed: string
}

/** `MastodonApps` over SQL, the client secret sealed with `CredentialSealer` (the server key). */
export const MastodonAppsRepoSql = Layer.effect(
  MastodonApps,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    const sealer = yield* CredentialSealer
    const toApp = (row: AppRow): Effect.Effect<MastodonApp> =>
      Effect.map(sealer.open(row.client_secret_sealed), (clientSecret) => ({
        instance: row.instance,
        redirectUri: row.redirect_uri,
        clientId: row.client_id,
        clientSecret
      }))
    return {
      find: (instance, redirectUri) =>
        lean<AppRow>`SELECT * FROM mastodon_apps WHERE instance = ${instance} AND redirect_uri = ${redirectUri}`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) =>
            rows[0] === undefined ? Effect.succeed(Option.none()) : Effect.map(toApp(rows[0]), Option.some)
          ),
          withSpan("MastodonApps.find")
        ),
      keep: (app, at) =>
        Effect.gen(function* () {
          const sealed = yield* sealer.seal(app.clientSecret)
          // `DO UPDATE` of nothing, so the row is returned whether this insert or an earlier one made it.
          const rows = yield* lean<AppRow>`
            INSERT INTO mastodon_apps (instance, redirect_uri, client_id, client_secret_sealed, created_at)
            VALUES (${app.instance}, ${app.redirectUri}, ${app.clientId}, ${sealed}, ${at})
            ON CONFLICT (instance, redirect_uri) DO UPDATE SET instance = mastodon_apps.instance
            RETURNING *`.pipe(Effect.orDie)
          return yield* toApp(rows[0] as AppRow)
        }).pipe(withSpan("MastodonApps.keep")),
      forget: (instance, redirectUri) =>
        lean`DELETE FROM mastodon_apps WHERE instance = ${instance} AND redirect_uri = ${redirectUri}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("MastodonApps.forget")
        )
    }
  })
)
