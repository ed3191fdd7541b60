import type { Authenticator } from "@svc/core/auth"
import { type AuthExpired, excerpt } from "@svc/core/shared"
import {
  type FailureStatus,
  httpStatusOf,
  type ToolAnswer,
  type ToolFailure,
  ToolServer,
  toolFailure
} from "@svc/core/tools"
import { Effect, Either } from "effect"
import { makeToolGate } from "../auth.js"
import { declaresTooLarge, isJsonObject, parseJson } from "../body.js"
import { HttpFaceSettings, type PublicUrl } from "../config.js"
import { answerDefects, internalErrorMessage } from "../defects.js"
import type { FaceRequest, Reply } from "../exchange.js"
import { isJsonContent } from "../mcp/transport.js"
import { invalidSelectionReply, toolSelectionOf } from "../toolsets.js"

/** `POST /v1/tools/:name`: the tool name from the path and the request in, the reply out. */
export type RestToolEndpoint = (name: string, request: FaceRequest) => Effect.Effect<Reply>

const json = (status: number, body: object, headers?: Readonly<Record<string, string>>): Reply =>
  headers === undefined ? { status, body: JSON.stringify(body) } : { status, body: JSON.stringify(body), headers }

const failure = (httpStatus: number, status: FailureStatus, message: string) =>
  json(httpStatus, { ok: false, status, message })

/** The 401 of the REST face (the tools' failure table's body), with the same `WWW-Authenticate` challenge as `/mcp`. */
export const unauthorizedReply = (error: AuthExpired, challenge: string): Reply =>
  json(httpStatusOf["auth-expired"], toolFailure(error), { "www-authenticate": challenge })

const isFailure = (answer: ToolAnswer): answer is ToolFailure => answer.ok === false

const withDefectsAnswered = answerDefects((requestId) =>
  json(500, { ok: false, error: "internal", message: internalErrorMessage(requestId) })
)

/** The 415 of a body sent without a JSON `Content-Type`. */
const notJsonReply = failure(
  415,
  "invalid",
  "send the tool's arguments as a JSON object with Content-Type: application/json"
)

/**
 * The REST answer to a rate-limited call: the REST failure shape with `status: "rate-limited"` (a refusal of the
 * HTTP face, not one of the seven tool failure statuses) and `Retry-After`.
 */
export const rateLimitedReply = (message: string, retryAfterSeconds: number): Reply =>
  json(429, { ok: false, status: "rate-limited", message }, { "retry-after": String(retryAfterSeconds) })

/**
 * Builds the REST tool call. Tool failures answer with the HTTP code of their status (core's `httpStatusOf`);
 * the tool server's refusals are not tool failures: an unknown name answers 404, an OAuth token without the
 * write scope 403 with an `insufficient_scope` challenge, and the rate limit 429
 * `{ ok: false, status: "rate-limited", message }` with `Retry-After`. Checks run cheapest first, and only a well-formed call of a
 * real tool counts against the rate limit.
 */
export const makeRestToolEndpoint: Effect.Effect<
  RestToolEndpoint,
  never,
  ToolServer | Authenticator | PublicUrl | HttpFaceSettings
> = Effect.gen(function* () {
  const gate = yield* makeToolGate
  const tools = yield* ToolServer
  const { maxBodyBytes } = yield* HttpFaceSettings

  const call = (name: string, request: FaceRequest): Effect.Effect<Reply> => {
    if (declaresTooLarge(request.header("content-length"), maxBodyBytes)) {
      return Effect.succeed(failure(413, "invalid", `the request body is larger than ${maxBodyBytes} bytes`))
    }
    return gate.authenticate(request).pipe(
      Effect.flatMap((principal) =>
        Effect.flatMap(request.readBody(maxBodyBytes), (text) => {
          const empty = text.trim() === ""
          // A body must be sent as JSON, as on `/mcp`: text sent as `text/plain` (or with no type) was read as
          // arguments all the same. A call without a body needs no type; it is the same as `{}`. Checked on the
          // body itself: a web `Request` made in-process carries no `Content-Length` to tell.
          if (!empty && !isJsonContent(request.header("content-type"))) return Effect.succeed(notJsonReply)
          const args = empty ? {} : parseJson(text)
          if (!isJsonObject(args)) {
            return Effect.succeed(
              failure(400, "invalid", "the body must be a JSON object of the tool's arguments, or empty")
            )
          }
          const selection = toolSelectionOf(request, principal)
          if (Either.isLeft(selection)) return Effect.succeed(invalidSelectionReply(selection.left))
          return Effect.map(
            tools.call(principal, name, args, selection.right),
            (answer): Reply => ({
              status: isFailure(answer) ? httpStatusOf[answer.status] : 200,
              body: JSON.stringify(answer),
              route: name
            })
          )
        })
      ),
      Effect.catchTags({
        AuthExpired: (error) => Effect.succeed(unauthorizedReply(error, gate.challengeFor(request))),
        BodyTooLarge: (error) => Effect.succeed(failure(413, "invalid", error.message)),
        BodyUnreadable: (error) => Effect.succeed(failure(400, "invalid", error.reason)),
        UnknownTool: (unknown) =>
          Effect.succeed(
            failure(404, "not-found", `no tool named ${excerpt(unknown.tool)}; GET /v1/tools lists the names`)
          ),
        ScopeNotGranted: (refused) =>
          Effect.succeed(
            json(
              403,
              { ok: false, status: "forbidden", message: refused.message },
              { "www-authenticate": gate.scopeRefusedChallenge(refused) }
            )
          ),
        InsufficientScope: (refused) =>
          Effect.succeed(
            json(
              403,
              { ok: false, status: "forbidden", message: refused.message },
              { "www-authenticate": gate.scopeChallenge(refused) }
            )
          ),
        RateLimited: (limited) =>
          Effect.succeed({ ...rateLimitedReply(limited.message, limited.retryAfterSeconds), route: name })
      })
    )
  }
  return (name, request) => withDefectsAnswered(call(name, request))
})
