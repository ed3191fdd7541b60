import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { Workspace } from "@svc/core/accounts"
import { allows, type Principal } from "@svc/core/auth"
import { answerFailure, type DomainFailure, excerpt, type FailureTable } from "@svc/core/shared"
import { ToolServer, toolGroups, toolNextSteps } from "@svc/core/tools"
import { Data, Effect } from "effect"
import { insufficientScopeChallenge, makeToolGate, resourceMetadataUrl } from "../auth.js"
import { jsonText } from "../body.js"
import { PublicUrl } from "../config.js"
import { answerDefects, internalErrorMessage } from "../defects.js"
import type { FaceRequest } from "../exchange.js"

/**
 * A request the automation steps turn away, with the store API's error body `{ ok: false, error, message, errors? }`
 * (and `retry_after_seconds` on a 429).
 */
export class StepRefusal extends Data.TaggedError("StepRefusal")<{
  readonly status: number
  readonly error: string
  readonly message: string
  readonly extra?: Readonly<Record<string, unknown>> | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}> {}

/** A JSON answer of the automation steps. */
export const stepJson = (status: number, body: unknown, headers?: Readonly<Record<string, string>>) =>
  jsonText(status, JSON.stringify(body), headers)

/** The answer to a refusal. */
export const refusalResponse = (refusal: StepRefusal): HttpServerResponse.HttpServerResponse =>
  stepJson(
    refusal.status,
    { ok: false, error: refusal.error, message: refusal.message, ...refusal.extra },
    refusal.headers
  )

// Core messages may name what the caller sent; a long value is cut to an excerpt, as the store API does.
const MESSAGE_LENGTH = 500

const refusal = (status: number, error: string, message: string) =>
  new StepRefusal({ status, error, message: excerpt(message, MESSAGE_LENGTH) })

/**
 * The automation steps' failure table: the store API's codes (a store refusal as the store API answers it), and
 * 502 `unreachable` as the tools map it.
 */
export const stepRefusals = {
  InvalidInput: (error) =>
    new StepRefusal({
      status: 422,
      error: "invalid_field",
      message: excerpt(error.message, MESSAGE_LENGTH),
      extra: { errors: error.errors.map((problem) => ({ path: problem.path, message: problem.message })) }
    }),
  BadListRequest: (error) => refusal(400, "bad_request", error.message),
  NotFound: (error) => refusal(404, "not_found", error.message),
  MissingWorkspace: (error) => refusal(404, "not_found", error.message),
  Forbidden: (error) => refusal(403, "forbidden", error.message),
  StoreAccessDenied: (error) =>
    error.code === "plan"
      ? refusal(402, "plan_required", error.message)
      : new StepRefusal({
          status: 403,
          error: "forbidden",
          message: excerpt(error.message, MESSAGE_LENGTH),
          extra: { code: error.code }
        }),
  Conflict: (error) => refusal(409, "conflict", error.message),
  AuthExpired: (error) => refusal(401, "unauthorized", error.message),
  Unreachable: (error) => refusal(502, "unreachable", error.message),
  RateLimited: (error) =>
    new StepRefusal({
      status: 429,
      error: "rate_limited",
      message: excerpt(error.message, MESSAGE_LENGTH),
      extra: { retry_after_seconds: error.retryAfterSeconds },
      headers: { "retry-after": String(error.retryAfterSeconds) }
    })
} satisfies FailureTable<StepRefusal>

/** A refusal with response headers added (a challenge, say). */
const withHeaders = (refusal: StepRefusal, headers: Readonly<Record<string, string>>): StepRefusal =>
  new StepRefusal({
    status: refusal.status,
    error: refusal.error,
    message: refusal.message,
    extra: refusal.extra,
    headers: { ...refusal.headers, ...headers }
  })

/** A core failure as an automation-step refusal. */
export const domainRefusal: (error: DomainFailure) => StepRefusal = answerFailure(stepRefusals, toolNextSteps)

/** The tool groups whose access part an automation step checks, and how its refusal names them. */
const STEP_GROUPS = {
  "Custom AI": { noun: "Custom AIs", action: "asking a Custom AI" },
  Routines: { noun: "routines", action: "changing routines" }
} as const

/** The tool group a step belongs to (its access part decides who may call it). */
export type StepGroup = keyof typeof STEP_GROUPS

/**
 * Builds the automation steps' caller check: the bearer token as the tools take it (an API key `svc_pat_…` or an
 * OAuth token), the step's group's access part at the level the step needs (a write needs edit access, and an
 * OAuth token the `write` scope), one call from the caller's per-minute tool limit, then the workspace by the
 * tools' rule.
 */
export const makeStepGate = Effect.gen(function* () {
  const gate = yield* makeToolGate
  const tools = yield* ToolServer
  const url = yield* PublicUrl

  const principalOf = (request: FaceRequest, group: StepGroup, write: boolean): Effect.Effect<Principal, StepRefusal> =>
    gate.authenticate(request).pipe(
      Effect.catchTags({
        AuthExpired: (error) =>
          Effect.fail(withHeaders(domainRefusal(error), { "www-authenticate": gate.challengeFor(request) })),
        ScopeNotGranted: (refused) =>
          Effect.fail(
            new StepRefusal({
              status: 403,
              error: "forbidden",
              message: refused.message,
              headers: { "www-authenticate": gate.scopeRefusedChallenge(refused) }
            })
          )
      }),
      Effect.filterOrFail(
        (principal) => allows(principal.access, toolGroups[group].part, write ? "edit" : "read"),
        (principal) => {
          const { noun, action } = STEP_GROUPS[group]
          return new StepRefusal({
            status: 403,
            error: "forbidden",
            message: write
              ? `${action} changes data and this credential may only read ${noun}; use a key with edit access (or an OAuth token with the write scope)`
              : `this credential has no access to ${noun}`,
            headers:
              write && principal.credential.kind === "oauth"
                ? {
                    "www-authenticate": insufficientScopeChallenge(
                      "mcp",
                      "read write",
                      `${action} needs the write scope`,
                      resourceMetadataUrl(url)
                    )
                  }
                : undefined
          })
        }
      )
    )

  /** The caller of a step request, or why it is turned away (401, 403, then 429 past the tool-call limit). */
  const authorize = (
    request: FaceRequest,
    options: { readonly group: StepGroup; readonly write: boolean }
  ): Effect.Effect<Principal, StepRefusal> =>
    Effect.tap(principalOf(request, options.group, options.write), (principal) =>
      Effect.mapError(tools.admit(principal), domainRefusal)
    )

  /** The workspace a step acts in: `workspaceId` when the credential reaches it, else its default (404 otherwise). */
  const workspaceOf = (principal: Principal, workspaceId: string | undefined): Effect.Effect<Workspace, StepRefusal> =>
    Effect.mapError(tools.workspaceOf(principal, workspaceId), domainRefusal)

  return { authorize, workspaceOf } as const
})

const withDefectsAnswered = answerDefects((requestId) =>
  stepJson(500, { ok: false, error: "internal", message: internalErrorMessage(requestId) })
)

/** Runs a step handler: refusals become their answers, defects a 500 with a request id. */
export const answerStep = <R>(
  handler: Effect.Effect<HttpServerResponse.HttpServerResponse, StepRefusal, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  withDefectsAnswered(Effect.catchTag(handler, "StepRefusal", (refusal) => Effect.succeed(refusalResponse(refusal))))
