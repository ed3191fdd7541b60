import { Layer } from "effect"
import { StylesheetRoute } from "../browser/index.js"
import { SettingsRoutes } from "../settings/routes.js"
import { OAuthAuthorizeRoutes } from "./authorize.js"
import { OAuthMetadataRoutes } from "./metadata.js"
import { OAuthRegisterRoutes } from "./register.js"
import { OAuthTokenRoutes } from "./token.js"

export { AuthUrl, currentAuthUrl, oauthEndpoints, protectedResources, storeResource, toolsResource } from "./config.js"
export { authorizationServerMetadata, storeResourceMetadata } from "./metadata.js"

/**
 * The authorization server (discovery, registration, authorize with sign-in and consent, token, revocation)
 * with the pages' stylesheet, and the settings pages, ready to merge into the router.
 */
export const OAuthRoutes = Layer.mergeAll(
  OAuthMetadataRoutes,
  OAuthRegisterRoutes,
  OAuthAuthorizeRoutes,
  OAuthTokenRoutes,
  SettingsRoutes,
  StylesheetRoute
)
