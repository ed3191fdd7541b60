import { type AuthExpired, Authenticator, canUse, type Principal, type RateLimited, ToolServer } from "@svc/core"
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

/** Bearer checks and tool-call admission, the same for MCP and REST. */
export interface ToolGate {
  /** The caller of a request, from its bearer token (audience `tools`). */
  readonly authenticate: (request: FaceRequest) => Effect.Effect<Principal, AuthExpired>
  /** Counts one tool call against the caller's per-minute limit (shared by both faces). */
  readonly admit: (principal: Principal) => Effect.Effect<void, RateLimited>
  /** The `WWW-Authenticate` header value for a 401. */
  readonly challenge: string
  /** The 401 challenge for this request: with `error="invalid_token"` when it carried a token (RFC 6750 §3.1). */
  readonly challengeFor: (request: FaceRequest) => string
  /**
   * The 403 challenge when an OAuth token lacks the scope a tool needs (`error="insufficient_scope"`,
   * `scope="read write"`), so the client can ask the user for more; `undefined` when the scope is enough.
   */
  readonly scopeChallenge: (principal: Principal, toolName: string) => string | undefined
}

/** Builds the `ToolGate` from the core's `Authenticator` and `ToolServer`. */
export const makeToolGate: Effect.Effect<ToolGate, never, Authenticator | ToolServer | PublicUrl> = Effect.gen(
  function* () {
    const authenticator = yield* Authenticator
    const tools = yield* ToolServer
    const url = yield* PublicUrl
    return {
      authenticate: (request) => authenticator.authenticate(bearerTokenOf(request), "tools"),
      admit: (principal) => tools.admit(principal),
      challenge: bearerChallenge(url),
      challengeFor: (request) =>
        bearerTokenOf(request) === undefined
          ? bearerChallenge(url)
          : `Bearer realm="mcp", error="invalid_token", error_description="the token is expired, revoked or not for this resource", resource_metadata="${resourceMetadataUrl(url)}"`,
      scopeChallenge: (principal, toolName) => {
        const listed = tools.registry.find(toolName)
        return principal.credential.kind === "oauth" &&
          listed !== undefined &&
          listed.entry.write &&
          !canUse(principal.access, listed.entry)
          ? `Bearer realm="mcp", error="insufficient_scope", scope="read write", error_description="${toolName} needs the write scope", resource_metadata="${resourceMetadataUrl(url)}"`
          : undefined
      }
    }
  }
)
