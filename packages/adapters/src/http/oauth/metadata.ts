import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, type Layer } from "effect"
import { PublicUrl, type PublicUrlShape } from "../config.js"
import { currentAuthUrl, oauthEndpoints, storeResource } from "./config.js"

/** The authorization-server metadata (RFC 8414). */
export const authorizationServerMetadata = (auth: PublicUrlShape) => {
  const endpoints = oauthEndpoints(auth)
  return {
    issuer: endpoints.issuer,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    registration_endpoint: endpoints.registration,
    revocation_endpoint: endpoints.revocation,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    scopes_supported: ["read", "write", "store"],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${auth.base}/settings`
  }
}

/**
 * The protected-resource metadata (RFC 9728) of the store API: its own resource and the scopes that reach it
 * (`store` alone, or `read` for GETs and `write` for changes).
 */
export const storeResourceMetadata = (url: PublicUrlShape, auth: PublicUrlShape) => ({
  resource: storeResource(url),
  authorization_servers: [auth.base],
  bearer_methods_supported: ["header"],
  scopes_supported: ["store", "read", "write"],
  resource_name: "svc store API"
})

/** Cross-origin headers for documents and endpoints that browser-based clients call before holding a credential. */
export const corsHeaders = { "access-control-allow-origin": "*" } as const

/** The answer to a CORS preflight (the MCP clients' `mcp-protocol-version` header allowed). */
export const preflight = (methods: string) =>
  HttpServerResponse.empty({
    status: 204,
    headers: {
      ...corsHeaders,
      "access-control-allow-methods": methods,
      "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
      "access-control-max-age": "86400"
    }
  })

const jsonDocument = (body: unknown) =>
  HttpServerResponse.text(JSON.stringify(body), { contentType: "application/json", headers: corsHeaders })

/**
 * `GET /.well-known/oauth-authorization-server` (and its path-inserted form when the issuer has a path,
 * RFC 8414 §3) and the store API's protected-resource document.
 */
export const OAuthMetadataRoutes: Layer.Layer<never, never, HttpLayerRouter.HttpRouter | PublicUrl> =
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      const url = yield* PublicUrl
      const auth = yield* currentAuthUrl
      const issuerPath = new URL(auth.base).pathname.replace(/\/+$/, "")
      const serverPaths = [
        "/.well-known/oauth-authorization-server",
        ...(issuerPath === "" ? [] : [`/.well-known/oauth-authorization-server${issuerPath}`])
      ] as const
      const serverDocument = jsonDocument(authorizationServerMetadata(auth))
      const storeDocument = jsonDocument(storeResourceMetadata(url, auth))
      const storePath = `/.well-known/oauth-protected-resource${new URL(storeResource(url)).pathname}` as `/${string}`
      yield* router.addAll([
        ...serverPaths.flatMap((path) => [
          HttpLayerRouter.route("GET", path as `/${string}`, Effect.succeed(serverDocument)),
          HttpLayerRouter.route("OPTIONS", path as `/${string}`, Effect.succeed(preflight("GET, OPTIONS")))
        ]),
        HttpLayerRouter.route("GET", storePath, Effect.succeed(storeDocument)),
        HttpLayerRouter.route("OPTIONS", storePath, Effect.succeed(preflight("GET, OPTIONS")))
      ])
    })
  )
