import { Context, Effect, Option } from "effect"
import { defaultOAuthPolicy, type OAuthPolicyShape } from "./schema.js"

/** Lifetimes and limits of the authorization server; without a layer the default policy applies. */
export class OAuthPolicy extends Context.Tag("svc/auth/oauth/OAuthPolicy")<OAuthPolicy, OAuthPolicyShape>() {}

/** The policy in effect: the provided one, else `defaultOAuthPolicy`. */
export const currentPolicy: Effect.Effect<OAuthPolicyShape> = Effect.map(
  Effect.serviceOption(OAuthPolicy),
  Option.getOrElse(() => defaultOAuthPolicy)
)
