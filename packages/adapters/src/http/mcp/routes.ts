import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { Authenticator, Principal, ToolServer } from "@svc/core"
import { Effect, type Layer } from "effect"
import { makeToolGate } from "../auth.js"
import { jsonText, parseJson, readBodyText } from "../body.js"
import { HttpFaceSettings, PublicUrl } from "../config.js"
import { answerDefects, internalErrorMessage } from "../defects.js"
import { defaultAllowedOrigins, makeOriginCheck } from "../origin.js"
import { makeMcpDispatch } from "./dispatch.js"
import { classify, ErrorCode, errorReply, type Reply } from "./protocol.js"
import { transportRefusal } from "./transport.js"

const toResponse = (reply: Reply): HttpServerResponse.HttpServerResponse =>
  reply.body === undefined
    ? HttpServerResponse.empty({ status: reply.status, headers: reply.headers })
    : typeof reply.body !== "string"
      ? HttpServerResponse.uint8Array(reply.body, {
          status: reply.status,
          contentType: "application/json",
          headers: reply.headers
        })
      : jsonText(reply.status, reply.body, reply.headers)

const withDefectsAnswered = answerDefects((requestId) =>
  toResponse(errorReply(500, null, ErrorCode.InternalError, internalErrorMessage(requestId)))
)

/**
 * `POST /mcp`: the MCP face, stateless (no `Mcp-Session-Id`, ever) and JSON-only (never SSE).
 * Batches are refused with -32600 whatever the revision: 2025-06-18 removed them, and no client we
 * serve sends them to earlier revisions either.
 */
export const McpRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | HttpFaceSettings
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const gate = yield* makeToolGate
    const dispatch = yield* makeMcpDispatch(gate)
    const settings = yield* HttpFaceSettings
    const url = yield* PublicUrl
    const rules = {
      maxBodyBytes: settings.maxBodyBytes,
      originAllowed: makeOriginCheck(settings.allowedOrigins ?? defaultAllowedOrigins(url.origin))
    }
    const unauthorized = (message: string, challenge: string) =>
      errorReply(401, null, ErrorCode.Unauthorized, message, { headers: { "www-authenticate": challenge } })

    const reply = (principal: Principal, text: string, request: HttpServerRequest): Effect.Effect<Reply> => {
      const message = parseJson(text)
      if (message === undefined)
        return Effect.succeed(errorReply(400, null, ErrorCode.ParseError, "the body is not JSON"))
      const incoming = classify(message)
      switch (incoming.kind) {
        case "acknowledge":
          return Effect.succeed({ status: 202, body: undefined })
        case "batch":
          return Effect.succeed(
            errorReply(
              400,
              null,
              ErrorCode.InvalidRequest,
              "batches are not supported; send one JSON-RPC message per POST"
            )
          )
        case "invalid":
          return Effect.succeed(errorReply(400, incoming.id, ErrorCode.InvalidRequest, incoming.reason))
        case "request":
          return dispatch({
            principal,
            id: incoming.id,
            method: incoming.method,
            params: incoming.params,
            headerVersion: request.headers["mcp-protocol-version"]?.trim()
          })
      }
    }

    // Written with combinators rather than a generator: every step here runs on every MCP request.
    const answer = (request: HttpServerRequest): Effect.Effect<Reply> => {
      const refusal = transportRefusal(request, rules)
      if (refusal !== undefined) return Effect.succeed(refusal)
      return gate.authenticate(request).pipe(
        Effect.flatMap((principal) =>
          Effect.flatMap(readBodyText(request, rules.maxBodyBytes), (text) => reply(principal, text, request))
        ),
        Effect.catchTags({
          AuthExpired: (error) => Effect.succeed(unauthorized(error.message, gate.challengeFor(request))),
          BodyTooLarge: (error) => Effect.succeed(errorReply(413, null, ErrorCode.ServerError, error.message)),
          BodyUnreadable: (error) => Effect.succeed(errorReply(400, null, ErrorCode.ParseError, error.reason))
        })
      )
    }

    yield* router.add("*", "/mcp", (request) => withDefectsAnswered(Effect.map(answer(request), toResponse)))
  })
)
