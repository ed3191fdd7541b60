import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, type Layer } from "effect"
import { PublicUrl, type PublicUrlShape } from "./config.js"
import { currentAuthUrl } from "./oauth/config.js"

/** The protected-resource metadata (RFC 9728) of the tool server; `auth` is the authorization server. */
export const protectedResourceMetadata = (url: PublicUrlShape, auth: PublicUrlShape = url) => ({
  resource: `${url.base}/mcp`,
  authorization_servers: [auth.base],
  bearer_methods_supported: ["header"],
  scopes_supported: ["read", "write"],
  resource_name: "svc"
})

// Browser-based MCP clients read the metadata cross-origin before they hold any credential.
const corsHeaders = { "access-control-allow-origin": "*" }
const preflightHeaders = {
  ...corsHeaders,
  "access-control-allow-methods": "GET, OPTIONS",
  "access-control-allow-headers": "mcp-protocol-version",
  "access-control-max-age": "86400"
}

const METADATA_PATHS = ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"] as const

/**
 * `GET /health` (`{ ok: true, mode: "stateless" }`) and the protected-resource metadata, at the root
 * and at the `/mcp` suffix clients derive from the resource URL (RFC 9728 §3.1).
 */
export const MetaRoutes: Layer.Layer<never, never, HttpLayerRouter.HttpRouter | PublicUrl> = HttpLayerRouter.use(
  (router) =>
    Effect.gen(function* () {
      const url = yield* PublicUrl
      const auth = yield* currentAuthUrl
      const health = HttpServerResponse.text(JSON.stringify({ ok: true, mode: "stateless" }), {
        contentType: "application/json"
      })
      const metadata = HttpServerResponse.text(JSON.stringify(protectedResourceMetadata(url, auth)), {
        contentType: "application/json",
        headers: corsHeaders
      })
      const preflight = HttpServerResponse.empty({ status: 204, headers: preflightHeaders })
      yield* router.addAll([
        HttpLayerRouter.route("GET", "/health", Effect.succeed(health)),
        ...METADATA_PATHS.flatMap((path) => [
          HttpLayerRouter.route("GET", path, Effect.succeed(metadata)),
          HttpLayerRouter.route("OPTIONS", path, Effect.succeed(preflight))
        ])
      ])
    })
)
