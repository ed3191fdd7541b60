import { Schema } from "effect"
import { Timestamp } from "../../shared/time.js"

/**
 * The scopes a token can carry: `read` (tools that read, store API GETs), `write` (adds changes on both), `store`
 * (the store API only, reads and changes). See `scopes.ts` for what each reaches on each face.
 */
export const OAuthScope = Schema.Literal("read", "write", "store")
export type OAuthScope = typeof OAuthScope.Type

/**
 * Which protected resources a grant is for: the one named by RFC 8707 `resource` (`tools` = `/mcp` and the REST
 * tools, `store` = the store API), or `any` when the request named none, where the scopes alone decide the faces.
 */
export const OAuthAudience = Schema.Literal("tools", "store", "any")
export type OAuthAudience = typeof OAuthAudience.Type

/** A face a token is presented to. */
export type OAuthFace = Exclude<OAuthAudience, "any">

/** What a grant stores as its resource when the request named none (audience `any`). */
export const NO_RESOURCE = ""

/** How a client proves itself at the token endpoint (RFC 7591 §2). */
export const TokenEndpointAuthMethod = Schema.Literal("none", "client_secret_basic", "client_secret_post")
export type TokenEndpointAuthMethod = typeof TokenEndpointAuthMethod.Type

/** The grant types a client may register; the server has no others. */
export const GrantType = Schema.Literal("authorization_code", "refresh_token")
export type GrantType = typeof GrantType.Type

/** A registered client (RFC 7591); its secret, when it has one, is stored only as a hash. */
export class OAuthClient extends Schema.Class<OAuthClient>("OAuthClient")({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  redirectUris: Schema.Array(Schema.String),
  grantTypes: Schema.Array(GrantType),
  tokenEndpointAuthMethod: TokenEndpointAuthMethod,
  /** Scopes the client may ask for (space-separated); `null` means any the server supports. */
  scope: Schema.NullOr(Schema.String),
  clientUri: Schema.NullOr(Schema.String),
  createdAt: Timestamp
}) {}

/** An authorization request that passed every check, waiting for the user to sign in and decide. */
export class PendingAuthorization extends Schema.Class<PendingAuthorization>("PendingAuthorization")({
  id: Schema.String,
  clientId: Schema.String,
  redirectUri: Schema.String,
  state: Schema.NullOr(Schema.String),
  scopes: Schema.Array(OAuthScope),
  codeChallenge: Schema.String,
  /** The RFC 8707 resource URL the request named, or `""` when it named none (audience `any`). */
  resource: Schema.String,
  audience: OAuthAudience,
  createdAt: Timestamp,
  expiresAt: Timestamp
}) {}

/** A stored authorization code (its hash is the key), bound to everything the request named. */
export interface StoredCode {
  readonly clientId: string
  readonly accountId: string
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly scopes: ReadonlyArray<OAuthScope>
  readonly resource: string
  readonly audience: OAuthAudience
  readonly expiresAt: Date
  /** When it was exchanged; a second exchange is a replay. */
  readonly usedAt: Date | null
  /** The grant the exchange created, revoked when the code is replayed. */
  readonly grantId: string | null
}

/** One user's consent to one client, the family every token issued from it belongs to. */
export interface OAuthGrant {
  readonly id: string
  readonly clientId: string
  readonly accountId: string
  readonly scopes: ReadonlyArray<OAuthScope>
  readonly resource: string
  readonly audience: OAuthAudience
  readonly createdAt: Date
  readonly revokedAt: Date | null
}

/** A stored access or refresh token (by hash), with its grant. */
export interface StoredToken {
  readonly id: string
  readonly kind: "access" | "refresh"
  readonly scopes: ReadonlyArray<OAuthScope>
  readonly createdAt: Date
  readonly expiresAt: Date
  readonly revokedAt: Date | null
  /** For refresh tokens: when it was exchanged for a new pair. */
  readonly rotatedAt: Date | null
  readonly grant: OAuthGrant
}

/** A client the user has connected, for the settings page. */
export interface OAuthConnection {
  readonly clientId: string
  readonly clientName: string | null
  /** The first redirect URI the client registered, to name where it lives. */
  readonly redirectUri: string
  readonly scopes: ReadonlyArray<OAuthScope>
  readonly connectedAt: Date
}

/** A browser session of the sign-in and settings pages, known by the hash of its cookie. */
export interface BrowserSession {
  readonly hash: string
  readonly accountId: string | null
  readonly expiresAt: Date
}

/** The error codes of RFC 6749 §4.1.2.1 and §5.2, RFC 7591 §3.2.2 and RFC 8707. */
export const OAuthErrorCode = Schema.Literal(
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "unsupported_response_type",
  "unsupported_token_type",
  "invalid_scope",
  "invalid_target",
  "access_denied",
  "invalid_redirect_uri",
  "invalid_client_metadata",
  "temporarily_unavailable"
)
export type OAuthErrorCode = typeof OAuthErrorCode.Type

/** An OAuth protocol error; the face turns it into RFC 6749 JSON (or a redirect) with its HTTP status. */
export class OAuthError extends Schema.TaggedError<OAuthError>()("OAuthError", {
  error: OAuthErrorCode,
  description: Schema.String,
  /** Set with `temporarily_unavailable` when a rate limit refused the call. */
  retryAfterSeconds: Schema.optional(Schema.Int)
}) {}

/** Lifetimes and limits of the authorization server. */
export interface OAuthPolicyShape {
  readonly accessTokenMs: number
  readonly refreshTokenMs: number
  readonly codeMs: number
  /** How long a rotated refresh token may still be used (a lost answer, two refreshes racing). */
  readonly refreshGraceMs: number
  readonly pendingMs: number
  readonly anonymousSessionMs: number
  readonly signedInSessionMs: number
  readonly formTokenMs: number
  /** Client registrations allowed per requester per `registrationWindowMs`. */
  readonly registrationsPerWindow: number
  readonly registrationWindowMs: number
  /** Sign-in attempts allowed per email per `signInWindowMs`. */
  readonly signInAttemptsPerWindow: number
  readonly signInWindowMs: number
}

/** The default policy: 1-hour access tokens, 30-day refresh tokens, 5-minute codes, a 30-second grace. */
export const defaultOAuthPolicy: OAuthPolicyShape = {
  accessTokenMs: 60 * 60_000,
  refreshTokenMs: 30 * 86_400_000,
  codeMs: 5 * 60_000,
  refreshGraceMs: 30_000,
  pendingMs: 15 * 60_000,
  anonymousSessionMs: 60 * 60_000,
  signedInSessionMs: 12 * 60 * 60_000,
  formTokenMs: 30 * 60_000,
  registrationsPerWindow: 20,
  registrationWindowMs: 60_000,
  signInAttemptsPerWindow: 10,
  signInWindowMs: 15 * 60_000
}
