import { Layer } from "effect"
import { AiStepsRoutes } from "./ai-steps/index.js"
import { GraphqlRoutes } from "./graphql/index.js"
import { MailRoutes } from "./mail/index.js"
import { MediaRoutes } from "./media/index.js"
import { McpRoutes } from "./mcp/routes.js"
import { MetaRoutes } from "./meta.js"
import { OAuthRoutes } from "./oauth/index.js"
import { ConnectRoutes } from "./connect/routes.js"
import { FeedClickRoutes } from "./public-pages/feed-clicks.js"
import { PostFeedRoutes } from "./public-pages/post-feed.js"
import { StorePagesRoutes } from "./public-pages/routes.js"
import { CheckoutRoutes } from "./checkout/routes.js"
import { PaidQuestionRoutes } from "./checkout/answer-page.js"
import { ReviewRequestRoutes } from "./checkout/review-page.js"
import { CourseRoutes } from "./courses/routes.js"
import { AffiliateApplyRoutes } from "./public-pages/affiliate-apply.js"
import { StripeWebhookRoutes } from "./checkout/stripe-webhook.js"
import { RestToolRoutes } from "./rest/routes.js"
import { StoreApiRoutes } from "./store-api/index.js"
import { WorkspaceStepsRoutes } from "./workspace-steps/index.js"

export {
  DEFAULT_MAX_BODY_BYTES,
  HttpFaceSettings,
  type HttpFaceSettingsShape,
  makePublicUrl,
  PublicUrl,
  type PublicUrlShape
} from "./config.js"
export {
  DEFAULT_GRAPHQL_SETTINGS,
  GRAPHQL_PACKAGES,
  GRAPHQL_PATH,
  GraphqlRoutes,
  GraphqlSettings,
  type GraphqlSettingsShape
} from "./graphql/index.js"
export { AiStepsRoutes, ASK_STEP_PATH, CHAT_PATH } from "./ai-steps/index.js"
export { DEFAULT_DRAIN, type DrainSettings } from "./drain.js"
export { lanedServerLayer } from "./laned-server.js"
export {
  type Face,
  faceOf,
  httpRequestSeconds,
  httpRequests,
  makeRequestRecorder,
  type RecordRequest,
  statusClassOf,
  UNMATCHED_ROUTE
} from "./metrics/requests.js"
export { RouteLabelsLive, routeOf } from "./metrics/route-labels.js"
export { MailDelivery, MailRoutes, UNSUBSCRIBE_PATH } from "./mail/index.js"
export { type ToolLane, ToolLanes, ToolLanesLive } from "./lanes.js"
export { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts, timeoutsProblem } from "./timeouts.js"
export { HANDSHAKE_VERSIONS, STATELESS_VERSION, SUPPORTED_VERSIONS } from "./mcp/protocol.js"
export { McpRoutes } from "./mcp/routes.js"
export { MediaRoutes } from "./media/index.js"
export { toMcpTool } from "./mcp/tool-list.js"
export { makeToolsOpenApi } from "./rest/openapi.js"
export { MetaRoutes } from "./meta.js"
export { AuthUrl, OAuthRoutes } from "./oauth/index.js"
export { CONNECT_TRIES_PER_WINDOW, CONNECT_WINDOW_MS, ConnectRoutes } from "./connect/routes.js"
export { FeedClickRoutes } from "./public-pages/feed-clicks.js"
export { PostFeedRoutes } from "./public-pages/post-feed.js"
export { PUBLIC_POST_WINDOW_MS, PUBLIC_POSTS_PER_WINDOW } from "./public-pages/public-post.js"
export { StorePagesRoutes } from "./public-pages/routes.js"
export { CheckoutRoutes } from "./checkout/routes.js"
export { PaidQuestionRoutes } from "./checkout/answer-page.js"
export { ReviewRequestRoutes } from "./checkout/review-page.js"
export { CourseRoutes } from "./courses/routes.js"
export { AffiliateApplyRoutes } from "./public-pages/affiliate-apply.js"
export { StripeWebhookRoutes } from "./checkout/stripe-webhook.js"
export { RestToolRoutes } from "./rest/routes.js"
export { STORE_OPENAPI_PATH, StoreApiRoutes } from "./store-api/index.js"

/**
 * Every face of the tool server (MCP, REST tools, health, metadata, OAuth and settings pages, the store API,
 * GraphQL, the automation steps under `/ai`, the stores' pages and checkout (with Stripe's webhook), and the mail pages: unsubscribe links and
 * the outbox), ready to merge
 * into one router.
 */
export const ToolFacesLive = Layer.mergeAll(
  McpRoutes,
  RestToolRoutes,
  MetaRoutes,
  OAuthRoutes,
  StoreApiRoutes,
  GraphqlRoutes,
  AiStepsRoutes,
  MailRoutes,
  StorePagesRoutes,
  CheckoutRoutes,
  PaidQuestionRoutes,
  ReviewRequestRoutes,
  CourseRoutes,
  AffiliateApplyRoutes,
  StripeWebhookRoutes,
  PostFeedRoutes,
  FeedClickRoutes,
  ConnectRoutes,
  MediaRoutes,
  WorkspaceStepsRoutes
)
