/** Who is calling and what they may do: API keys, access grants, the `Authenticator` and the OAuth server. */
export { Access, allows, describeAccess, fullAccess, Level, levelOf, Part, readOnlyAccess } from "./access.js"
export { type Audience, Authenticator, AuthSettings } from "./authenticator.js"
export {
  type AuthorizationAnswer,
  AuthorizePageError,
  AuthorizeRedirectError,
  type CheckedRequest,
  OAuthAuthorization,
  type ProtectedResources
} from "./oauth/authorization.js"
export { OAuthHousekeepingRepo, OAuthPurgeLive, purgeExpiredOAuth } from "./oauth/housekeeping.js"
export { OAuthLive } from "./oauth/layer.js"
export { currentPolicy, OAuthPolicy } from "./oauth/policy.js"
export { ScopeNotGranted } from "./oauth/refusals.js"
export { BrowserSessionsRepo, OAuthClientsRepo, OAuthGrantsRepo } from "./oauth/ports.js"
export { redirectHostOf } from "./oauth/redirect-uris.js"
export { type ClientCredentials, OAuthClients } from "./oauth/registration.js"
export {
  type BrowserSession,
  defaultOAuthPolicy,
  GrantType,
  OAuthAudience,
  OAuthClient,
  type OAuthConnection,
  OAuthError,
  OAuthErrorCode,
  type OAuthFace,
  type OAuthGrant,
  type OAuthPolicyShape,
  OAuthScope,
  PendingAuthorization,
  NO_RESOURCE,
  type StoredCode,
  type StoredToken,
  TokenEndpointAuthMethod
} from "./oauth/schema.js"
export { accessAt, audienceReaches, knownScopes, scopesOfAudience, TOOL_SCOPES } from "./oauth/scopes.js"
export { BrowserSessions, type SessionCookie, type SignInRefusal } from "./oauth/sessions.js"
export { type CodeExchange, OAuthTokens, type RefreshRequest, type TokenAnswer } from "./oauth/tokens.js"
export { ApiKeysRepo } from "./ports.js"
export { ApiKey, type Principal } from "./schema.js"
export { ApiKeys, type NewApiKey } from "./service.js"
