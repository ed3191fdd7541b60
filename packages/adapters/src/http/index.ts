import { Layer } from "effect"
import { McpRoutes } from "./mcp/routes.js"
import { MetaRoutes } from "./meta.js"
import { OAuthRoutes } from "./oauth/index.js"
import { RestToolRoutes } from "./rest/routes.js"
import { StoreApiRoutes } from "./store-api/index.js"

export { bearerChallenge, bearerTokenOf, makeToolGate, resourceMetadataUrl, type ToolGate } from "./auth.js"
export {
  DEFAULT_MAX_BODY_BYTES,
  HttpFaceSettings,
  type HttpFaceSettingsShape,
  makePublicUrl,
  PublicUrl,
  type PublicUrlShape
} from "./config.js"
export {
  type FaceRequest,
  nodeFaceRequest,
  platformFaceRequest,
  type Reply,
  replyResponse,
  writeReply
} from "./exchange.js"
export { lanedServerLayer } from "./laned-server.js"
export { type ToolLane, ToolLanes, ToolLanesLive } from "./lanes.js"
export { type McpEndpoint, makeMcpEndpoint } from "./mcp/endpoint.js"
export { McpRoutes } from "./mcp/routes.js"
export { HANDSHAKE_VERSIONS, STATELESS_VERSION, SUPPORTED_VERSIONS } from "./mcp/protocol.js"
export { MetaRoutes, protectedResourceMetadata } from "./meta.js"
export { AuthUrl, OAuthRoutes } from "./oauth/index.js"
export { makeToolsOpenApi } from "./rest/openapi.js"
export { makeRestToolEndpoint, type RestToolEndpoint } from "./rest/endpoint.js"
export { RestToolRoutes } from "./rest/routes.js"
export { STORE_OPENAPI_PATH, StoreApiRoutes } from "./store-api/index.js"

/** Every face of the tool server (MCP, REST tools, health, metadata, OAuth and settings pages), ready to merge into one router. */
export const ToolFacesLive = Layer.mergeAll(McpRoutes, RestToolRoutes, MetaRoutes, OAuthRoutes, StoreApiRoutes)
