import type { Authenticator, Principal, ScopeNotGranted } from "@svc/core/auth"
import type { AuthExpired } from "@svc/core/shared"
import type { ToolServer } from "@svc/core/tools"
import { Effect, Either } from "effect"
import { makeToolGate } from "../auth.js"
import { type BodyError, parseJson } from "../body.js"
import { HttpFaceSettings, PublicUrl } from "../config.js"
import { answerDefects, internalErrorMessage } from "../defects.js"
import type { FaceRequest, Reply } from "../exchange.js"
import { defaultAllowedOrigins, makeOriginCheck } from "../origin.js"
import { toolSelectionOf } from "../toolsets.js"
import { makeMcpDispatch } from "./dispatch.js"
import { classify, ErrorCode, errorReply } from "./protocol.js"
import { transportRefusal } from "./transport.js"

/** The MCP endpoint: one request in, its reply out; defects become a 500 with a request id. */
export type McpEndpoint = (request: FaceRequest) => Effect.Effect<Reply>

const withDefectsAnswered = answerDefects((requestId) =>
  errorReply(500, null, ErrorCode.InternalError, internalErrorMessage(requestId))
)

/**
 * Builds the `/mcp` endpoint: stateless (no `Mcp-Session-Id`, ever) and JSON-only (never SSE). Batches are
 * refused with -32600 whatever the revision: 2025-06-18 removed them, and no client we serve sends them to
 * earlier revisions either.
 */
export const makeMcpEndpoint: Effect.Effect<
  McpEndpoint,
  never,
  ToolServer | Authenticator | PublicUrl | HttpFaceSettings
> = Effect.gen(function* () {
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

  // One handler for every failure rather than `catchTags`: its object of named arrows was built on every request,
  // and where the code is compiled with esbuild's keepNames (tsx, so a backend that embeds us under tsx) each arrow
  // costs a `defineProperty` (bench CPU profile). `svc` runs tsc's output, which adds no such wrappers.
  const failureReply = (error: AuthExpired | ScopeNotGranted | BodyError, request: FaceRequest): Reply => {
    switch (error._tag) {
      case "AuthExpired":
        return unauthorized(error.message, gate.challengeFor(request))
      case "ScopeNotGranted":
        return errorReply(403, null, ErrorCode.ServerError, error.message, {
          headers: { "www-authenticate": gate.scopeRefusedChallenge(error) }
        })
      case "BodyTooLarge":
        return errorReply(413, null, ErrorCode.ServerError, error.message)
      case "BodyUnreadable":
        return errorReply(400, null, ErrorCode.ParseError, error.reason)
    }
  }

  const reply = (principal: Principal, text: string, request: FaceRequest): Effect.Effect<Reply> => {
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
      case "request": {
        const selection = toolSelectionOf(request, principal)
        if (Either.isLeft(selection)) {
          return Effect.succeed(
            errorReply(400, incoming.id, ErrorCode.InvalidRequest, selection.left.message, {
              data: { validToolsets: selection.left.validToolsets }
            })
          )
        }
        return dispatch({
          principal,
          selection: selection.right,
          id: incoming.id,
          method: incoming.method,
          params: incoming.params,
          headerVersion: request.header("mcp-protocol-version")?.trim(),
          acceptEncoding: request.header("accept-encoding")
        })
      }
    }
  }

  // Written with combinators rather than a generator: every step here runs on every MCP request.
  return (request) => {
    const refusal = transportRefusal(request, rules)
    if (refusal !== undefined) return Effect.succeed(refusal)
    return withDefectsAnswered(
      gate.authenticate(request).pipe(
        Effect.flatMap((principal) =>
          Effect.flatMap(request.readBody(rules.maxBodyBytes), (text) => reply(principal, text, request))
        ),
        Effect.catchAll((error) => Effect.succeed(failureReply(error, request)))
      )
    )
  }
})
