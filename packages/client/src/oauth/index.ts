export {
  type AuthorizationRequest,
  createOAuthClient,
  type OAuthClient,
  type OAuthClientOptions,
  type OAuthTokens,
  SvcOAuthError
} from "./client.js"
