import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import type { ToolServer } from "@svc/core/tools"
import { Effect, type Layer } from "effect"
import type { HttpFaceSettings, PublicUrl } from "../config.js"
import { platformFaceRequest, replyResponse } from "../exchange.js"
import { makeMcpEndpoint } from "./endpoint.js"

/**
 * `/mcp` on the platform's router, for backends that embed the faces in their own Effect HTTP server. The
 * svc server itself answers `/mcp` on its `node:http` lane (`lanes.ts`) with the same endpoint.
 */
export const McpRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | HttpFaceSettings
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const endpoint = yield* makeMcpEndpoint
    yield* router.add("*", "/mcp", (request) => Effect.map(endpoint(platformFaceRequest(request)), replyResponse))
  })
)
