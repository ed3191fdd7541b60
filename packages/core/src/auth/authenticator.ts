import { Context, Effect, Layer } from "effect"
import { AuthExpired } from "../shared/errors.js"
import { ACCESS_TOKEN_PREFIX } from "./oauth/crypto.js"
import type { ScopeNotGranted } from "./oauth/refusals.js"
import { OAuthTokens } from "./oauth/tokens.js"
import type { Principal } from "./schema.js"
import { ApiKeys } from "./service.js"
import { TOKEN_PREFIX } from "./token.js"

/** Settings of the authenticator the server reads from its configuration. */
export class AuthSettings extends Context.Tag("svc/auth/AuthSettings")<
  AuthSettings,
  {
    /** Key ids exempt from the tool-call rate limit (benchmarks, trusted back-ends). */
    readonly rateLimitExemptKeyIds: ReadonlySet<string>
  }
>() {
  /** No exemptions. */
  static readonly Default = Layer.succeed(AuthSettings, { rateLimitExemptKeyIds: new Set<string>() })
}

/** Which face a token is presented to: an OAuth token reaches the faces its resource and scopes allow. */
export type Audience = "tools" | "store"

/** Turns the bearer token of a request into a `Principal`, whatever kind of token it is. */
export class Authenticator extends Effect.Service<Authenticator>()("svc/auth/Authenticator", {
  dependencies: [ApiKeys.Default, OAuthTokens.Default],
  effect: Effect.gen(function* () {
    const keys = yield* ApiKeys
    const oauth = yield* OAuthTokens
    const settings = yield* AuthSettings
    const missing = new AuthExpired({
      message: "send Authorization: Bearer <token> with an OAuth access token or an API key (svc_pat_…)"
    })
    return {
      /**
       * Checks a bearer token (without the `Bearer ` word) for a face. API keys carry their own access; an OAuth
       * token whose scopes reach nothing on the face fails with `ScopeNotGranted` (only a `store` token at the tools).
       */
      authenticate: (
        token: string | undefined,
        audience: Audience
      ): Effect.Effect<Principal, AuthExpired | ScopeNotGranted> => {
        if (token === undefined || token.length === 0) return Effect.fail(missing)
        if (token.startsWith(TOKEN_PREFIX)) {
          return keys
            .authenticate(token)
            .pipe(
              Effect.map((principal) =>
                settings.rateLimitExemptKeyIds.has(principal.credential.id)
                  ? { ...principal, rateLimitExempt: true }
                  : principal
              )
            )
        }
        if (token.startsWith(ACCESS_TOKEN_PREFIX)) return oauth.authenticate(token, audience)
        return Effect.fail(new AuthExpired({ message: "the bearer token is not one this service issued" }))
      }
    } as const
  })
}) {}
