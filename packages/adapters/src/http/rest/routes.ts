import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { ToolServer } from "@svc/core/tools"
import { Effect, Either, type Layer } from "effect"
import { makeToolGate } from "../auth.js"
import { jsonText } from "../body.js"
import { type HttpFaceSettings, PublicUrl } from "../config.js"
import { answerDefects, internalErrorMessage } from "../defects.js"
import { type FaceRequest, platformFaceRequest, replyResponse } from "../exchange.js"
import { invalidSelectionReply, toolSelectionOf } from "../toolsets.js"
import { makeRestToolEndpoint, unauthorizedReply } from "./endpoint.js"
import { makeToolListingEncoder } from "./listing.js"
import { makeToolsOpenApi } from "./openapi.js"

const withDefectsAnswered = answerDefects((requestId) =>
  jsonText(500, JSON.stringify({ ok: false, error: "internal", message: internalErrorMessage(requestId) }))
)

/**
 * The REST form of the tools: `POST /v1/tools/:name`, `GET /v1/tools` and `GET /v1/openapi.json`. The svc
 * server answers `POST /v1/tools/:name` on its `node:http` lane (`lanes.ts`) with the same endpoint; the
 * route here serves backends that embed the faces in their own Effect HTTP server.
 */
export const RestToolRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | HttpFaceSettings
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const gate = yield* makeToolGate
    const tools = yield* ToolServer
    const url = yield* PublicUrl
    const callTool = yield* makeRestToolEndpoint
    const openApiJson = JSON.stringify(makeToolsOpenApi(tools.registry.tools, url))
    const encodeListing = makeToolListingEncoder()

    const listTools = (request: FaceRequest) =>
      gate.authenticate(request).pipe(
        Effect.map((principal) => {
          const selection = toolSelectionOf(request, principal)
          return Either.isLeft(selection)
            ? replyResponse(invalidSelectionReply(selection.left))
            : jsonText(200, encodeListing(tools.list(principal, selection.right)))
        }),
        Effect.catchTags({
          AuthExpired: (error) => Effect.succeed(replyResponse(unauthorizedReply(error, gate.challengeFor(request)))),
          ScopeNotGranted: (refused) =>
            Effect.succeed(
              jsonText(403, JSON.stringify({ ok: false, status: "forbidden", message: refused.message }), {
                "www-authenticate": gate.scopeRefusedChallenge(refused)
              })
            )
        })
      )

    yield* router.addAll([
      HttpLayerRouter.route("POST", "/v1/tools/:name", (request) =>
        Effect.flatMap(HttpLayerRouter.params, ({ name }) =>
          Effect.map(callTool(name ?? "", platformFaceRequest(request)), replyResponse)
        )
      ),
      HttpLayerRouter.route("GET", "/v1/tools", (request) =>
        withDefectsAnswered(listTools(platformFaceRequest(request)))
      ),
      // Public and the same for everyone, so browser tools (Swagger UI, editors) may fetch it from anywhere.
      HttpLayerRouter.route(
        "GET",
        "/v1/openapi.json",
        Effect.succeed(jsonText(200, openApiJson, { "access-control-allow-origin": "*" }))
      )
    ])
  })
)
