import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import { OAuthClients, OAuthError } from "@svc/core/auth"
import { Effect, type Layer } from "effect"
import { parseJson, readBodyText } from "../body.js"
import { answerDefects } from "../defects.js"
import { requesterOf } from "../requester.js"
import { jsonNoStore } from "./http-util.js"
import { corsHeaders, preflight } from "./metadata.js"
import { oauthErrorResponse } from "./token.js"

const MAX_METADATA_BYTES = 64 * 1024

const withDefectsAnswered = answerDefects(() =>
  jsonNoStore(500, { error: "server_error", error_description: "the server failed; try again" }, corsHeaders)
)

/** `POST /oauth/register`: dynamic client registration (RFC 7591), open and rate-limited per caller address. */
export const OAuthRegisterRoutes: Layer.Layer<never, never, HttpLayerRouter.HttpRouter | OAuthClients> =
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      const clients = yield* OAuthClients
      const register = (request: HttpServerRequest) =>
        Effect.gen(function* () {
          const text = yield* readBodyText(request, MAX_METADATA_BYTES).pipe(
            Effect.mapError(
              (error) =>
                new OAuthError({
                  error: "invalid_client_metadata",
                  description:
                    error._tag === "BodyUnreadable"
                      ? error.reason
                      : `the body must be JSON of at most ${MAX_METADATA_BYTES} bytes`
                })
            )
          )
          const { echo } = yield* clients.register(parseJson(text), requesterOf(request))
          return jsonNoStore(201, echo, corsHeaders)
        }).pipe(Effect.catchTag("OAuthError", (error) => Effect.succeed(oauthErrorResponse(error))))
      yield* router.addAll([
        HttpLayerRouter.route("POST", "/oauth/register", (request) => withDefectsAnswered(register(request))),
        HttpLayerRouter.route("OPTIONS", "/oauth/register", Effect.succeed(preflight("POST, OPTIONS")))
      ])
    })
  )
