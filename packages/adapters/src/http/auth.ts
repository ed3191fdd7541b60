import { Authenticator, type Principal, type ScopeNotGranted } from "@svc/core/auth"
import type { AuthExpired } from "@svc/core/shared"
import type { InsufficientScope } from "@svc/core/tools"
import { Effect } from "effect"
import { PublicUrl, type PublicUrlShape } from "./config.js"
import type { FaceRequest } from "./exchange.js"

const BEARER = /^\s*bearer\s+([^\s,]+)\s*$/i

/**
 * The token of an `Authorization: Bearer <token>` header (scheme matched case-insensitively).
 * Tokens in the query string are never read: URLs end up in logs, histories and `Referer` headers.
 */
export const bearerTokenOf = (request: Pick<FaceRequest, "header">): string | undefined => {
  const header = request.header("authorization")
  return header === undefined ? undefined : BEARER.exec(header)?.[1]
}

/** Where the protected-resource metadata (RFC 9728) of the tool server lives. */
export const resourceMetadataUrl = (url: PublicUrlShape): string => `${url.base}/.well-known/oauth-protected-resource`

/** The `WWW-Authenticate` value of a 401 from the tool faces, pointing clients at the metadata to sign in. */
export const bearerChallenge = (url: PublicUrlShape): string =>
  `Bearer realm="mcp", resource_metadata="${resourceMetadataUrl(url)}"`

/** Bearer checks and their challenges, the same for MCP and REST. What a tool call may do is the `ToolServer`'s. */
export interface ToolGate {
  /**
   * The caller of a request, from its bearer token (face `tools`). An OAuth token whose scopes reach only the store
   * API fails with `ScopeNotGranted`, which the faces answer with 403 and `scopeRefusedChallenge`.
   */
  readonly authenticate: (request: FaceRequest) => Effect.Effect<Principal, AuthExpired | ScopeNotGranted>
  /** The `WWW-Authenticate` header value for a 401. */
  readonly challenge: string
  /** The 401 challenge for this request: with `error="invalid_token"` when it carried a token (RFC 6750 §3.1). */
  readonly challengeFor: (request: Pick<FaceRequest, "header">) => string
  /**
   * The 403 challenge for a tool call the `ToolServer` refused with `InsufficientScope` (`error="insufficient_scope"`,
   * `scope="read write"`), so the client can ask the user for more.
   */
  readonly scopeChallenge: (refused: InsufficientScope) => string
  /** The 403 challenge for a token whose scopes do not reach the tools at all (`scope="read write"`). */
  readonly scopeRefusedChallenge: (refused: ScopeNotGranted) => string
}

/** An RFC 6750 `insufficient_scope` challenge; the description is quoted, so its own quotes are dropped. */
export const insufficientScopeChallenge = (realm: string, scope: string, description: string, metadata: string) =>
  `Bearer realm="${realm}", error="insufficient_scope", scope="${scope}", error_description="${description.replace(/["\\]/g, "")}", resource_metadata="${metadata}"`

/** Builds the `ToolGate` from the core's `Authenticator`. */
export const makeToolGate: Effect.Effect<ToolGate, never, Authenticator | PublicUrl> = Effect.gen(function* () {
  const authenticator = yield* Authenticator
  const url = yield* PublicUrl
  return {
    authenticate: (request) => authenticator.authenticate(bearerTokenOf(request), "tools"),
    challenge: bearerChallenge(url),
    challengeFor: (request) =>
      bearerTokenOf(request) === undefined
        ? bearerChallenge(url)
        : `Bearer realm="mcp", error="invalid_token", error_description="the token is expired, revoked or not for this resource", resource_metadata="${resourceMetadataUrl(url)}"`,
    scopeChallenge: (refused) =>
      insufficientScopeChallenge(
        "mcp",
        "read write",
        `${refused.tool} needs the write scope`,
        resourceMetadataUrl(url)
      ),
    scopeRefusedChallenge: (refused) =>
      insufficientScopeChallenge(
        "mcp",
        refused.needed,
        `the token's scope ${refused.granted} reaches only the store API`,
        resourceMetadataUrl(url)
      )
  }
})
