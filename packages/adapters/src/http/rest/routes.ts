import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import {
  type Authenticator,
  type FailureStatus,
  httpStatusOf,
  type ToolAnswer,
  type ToolFailure,
  ToolServer
} from "@svc/core"
import { Effect, type Layer } from "effect"
import { makeToolGate } from "../auth.js"
import { declaresTooLarge, isJsonObject, jsonText, parseJson, readBodyText } from "../body.js"
import { HttpFaceSettings, PublicUrl } from "../config.js"
import { answerDefects, internalErrorMessage } from "../defects.js"
import { makeToolListingEncoder } from "./listing.js"
import { makeToolsOpenApi } from "./openapi.js"

const json = jsonText

const failureResponse = (httpStatus: number, status: FailureStatus, message: string) =>
  json(httpStatus, JSON.stringify({ ok: false, status, message }))

const isFailure = (answer: ToolAnswer): answer is ToolFailure => answer.ok === false

const withDefectsAnswered = answerDefects((requestId) =>
  json(500, JSON.stringify({ ok: false, error: "internal", message: internalErrorMessage(requestId) }))
)

/**
 * The REST form of the tools: `POST /v1/tools/:name`, `GET /v1/tools` and `GET /v1/openapi.json`.
 * Tool failures answer with the HTTP code of their status (core's `httpStatusOf`); a refused rate
 * limit is not a tool failure and answers 429 `{ ok: false, error: "rate_limited", message }`.
 */
export const RestToolRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | HttpFaceSettings
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const gate = yield* makeToolGate
    const tools = yield* ToolServer
    const { maxBodyBytes } = yield* HttpFaceSettings
    const url = yield* PublicUrl
    const openApiJson = JSON.stringify(makeToolsOpenApi(tools.registry.tools, url))
    const encodeListing = makeToolListingEncoder()

    const unauthorized = (message: string, challenge: string) =>
      json(401, JSON.stringify({ ok: false, status: "auth-expired", message }), { "www-authenticate": challenge })

    // Checks run cheapest first, and only a well-formed call of a real tool counts against the rate limit.
    const callTool = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        if (declaresTooLarge(request, maxBodyBytes)) {
          return failureResponse(413, "invalid", `the request body is larger than ${maxBodyBytes} bytes`)
        }
        const principal = yield* gate.authenticate(request)
        const { name } = yield* HttpLayerRouter.params
        if (name === undefined || tools.registry.find(name) === undefined) {
          return failureResponse(404, "not-found", `no tool named ${name}; GET /v1/tools lists the names`)
        }
        const text = yield* readBodyText(request, maxBodyBytes)
        const args = text.trim() === "" ? {} : parseJson(text)
        if (!isJsonObject(args)) {
          return failureResponse(400, "invalid", "the body must be a JSON object of the tool's arguments, or empty")
        }
        const scopeChallenge = gate.scopeChallenge(principal, name)
        if (scopeChallenge !== undefined) {
          const message = `${name} changes data; authorize again with scope "read write"`
          return json(403, JSON.stringify({ ok: false, status: "forbidden", message }), {
            "www-authenticate": scopeChallenge
          })
        }
        yield* gate.admit(principal)
        const answer = yield* tools.call(principal, name, args)
        return json(isFailure(answer) ? httpStatusOf[answer.status] : 200, JSON.stringify(answer))
      }).pipe(
        Effect.catchTags({
          AuthExpired: (error) => Effect.succeed(unauthorized(error.message, gate.challengeFor(request))),
          BodyTooLarge: (error) => Effect.succeed(failureResponse(413, "invalid", error.message)),
          BodyUnreadable: (error) => Effect.succeed(failureResponse(400, "invalid", error.reason)),
          RateLimited: (limited) =>
            Effect.succeed(
              json(429, JSON.stringify({ ok: false, error: "rate_limited", message: limited.message }), {
                "retry-after": String(limited.retryAfterSeconds)
              })
            ),
          UnknownTool: (unknown) => Effect.succeed(failureResponse(404, "not-found", unknown.message))
        })
      )

    const listTools = (request: HttpServerRequest) =>
      gate.authenticate(request).pipe(
        Effect.map((principal) => json(200, encodeListing(tools.list(principal)))),
        Effect.catchTag("AuthExpired", (error) =>
          Effect.succeed(unauthorized(error.message, gate.challengeFor(request)))
        )
      )

    yield* router.addAll([
      HttpLayerRouter.route("POST", "/v1/tools/:name", (request) => withDefectsAnswered(callTool(request))),
      HttpLayerRouter.route("GET", "/v1/tools", (request) => withDefectsAnswered(listTools(request))),
      // Public and the same for everyone, so browser tools (Swagger UI, editors) may fetch it from anywhere.
      HttpLayerRouter.route(
        "GET",
        "/v1/openapi.json",
        Effect.succeed(json(200, openApiJson, { "access-control-allow-origin": "*" }))
      )
    ])
  })
)
