import type { ProtectedResources } from "@svc/core/auth"
import { Context, Effect, Layer, Option } from "effect"
import { makePublicUrl, PublicUrl, type PublicUrlShape } from "../config.js"

/**
 * The authorization server's own base URL (`{auth_url}`, the issuer). Optional: without it the
 * authorization server lives at the tool server's public URL.
 */
export class AuthUrl extends Context.Tag("svc/http/AuthUrl")<AuthUrl, PublicUrlShape>() {
  /** A layer for a base URL given as text. */
  static readonly layer = (url: string): Layer.Layer<AuthUrl> => Layer.sync(AuthUrl, () => makePublicUrl(url))
}

/** The issuer URL in effect: `AuthUrl` when provided, else the public URL. */
export const currentAuthUrl: Effect.Effect<PublicUrlShape, never, PublicUrl> = Effect.flatMap(
  Effect.serviceOption(AuthUrl),
  Option.match({ onNone: () => PublicUrl, onSome: Effect.succeed })
)

/** The endpoints of the authorization server under its base URL. */
export const oauthEndpoints = (auth: PublicUrlShape) => ({
  issuer: auth.base,
  authorization: `${auth.base}/oauth/authorize`,
  token: `${auth.base}/oauth/token`,
  registration: `${auth.base}/oauth/register`,
  revocation: `${auth.base}/oauth/revoke`,
  settings: `${auth.base}/settings`
})

/** The resource URL of the tool server (`<base>/mcp`). */
export const toolsResource = (url: PublicUrlShape): string => `${url.base}/mcp`

/** The resource URL of the store API (`<base>/store-app/v1`). */
export const storeResource = (url: PublicUrlShape): string => `${url.base}/store-app/v1`

/**
 * The resources this server protects, for the authorization endpoint's `resource` check. A request naming none is
 * for every face its scopes reach.
 */
export const protectedResources = (url: PublicUrlShape): ProtectedResources => ({
  audiences: new Map([
    [toolsResource(url), "tools"],
    [storeResource(url), "store"]
  ])
})
