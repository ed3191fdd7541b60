import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { StoreApi } from "@svc/core/store-api"
import { Effect, Layer } from "effect"
import { StoreBodyLimits } from "./body.js"
import { StoreHandlersLive } from "./handlers.js"
import { StoreResponses } from "./responses.js"
import { StoreAuthLive } from "./security.js"

/** Where the store API's OpenAPI file is served (no credential needed). */
export const STORE_OPENAPI_PATH = "/store-app/v1/openapi.json"

/**
 * The store API (`/store-app/v1/*`, contract `StoreApi` in core) on the shared router, with its
 * OpenAPI file. Needs the core's store services and `Authenticator`.
 */
// Any other path or method under the prefix answers the API's own 404 body, not the router's empty one.
const UnknownStoreRoute = HttpLayerRouter.add(
  "*",
  "/store-app/v1/*",
  Effect.succeed(
    HttpServerResponse.unsafeJson(
      { ok: false, error: "not_found", message: "no such store API route; see /store-app/v1/openapi.json" },
      { status: 404 }
    )
  )
)

export const StoreApiRoutes = Layer.merge(
  HttpLayerRouter.addHttpApi(StoreApi, { openapiPath: STORE_OPENAPI_PATH }).pipe(
    Layer.provide(StoreHandlersLive),
    Layer.provide(StoreAuthLive),
    Layer.provide(StoreResponses.layer),
    Layer.provide(StoreBodyLimits.layer),
    // The API builder asks for a platform (ETags, files) it never uses for JSON routes.
    Layer.provide(HttpServer.layerContext)
  ),
  UnknownStoreRoute
)
