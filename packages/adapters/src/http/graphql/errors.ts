import type { RateLimited } from "@svc/core/limits"
import { excerpt } from "@svc/core/shared"
import type { FailureStatus, ToolFailure } from "@svc/core/tools"
import { GraphQLError } from "graphql"

/**
 * The `extensions.code` of each refusal a GraphQL error carries, beside `extensions.status`, which is the tool
 * failure status of the same refusal on the other faces.
 */
export const codeOfStatus: Record<FailureStatus, string> = {
  invalid: "BAD_USER_INPUT",
  "auth-expired": "UNAUTHENTICATED",
  forbidden: "FORBIDDEN",
  "not-found": "NOT_FOUND",
  conflict: "CONFLICT",
  "missing-workspace": "MISSING_WORKSPACE",
  unreachable: "UNREACHABLE"
}

const MESSAGE_LENGTH = 500

/**
 * A failure of a query field (mutations answer failures as `ToolFailure` results instead). Field problems of
 * `invalid` go under `extensions.errors` as `{ path, message }`.
 */
export const failureError = (
  failure: Omit<ToolFailure, "ok">,
  http?: { status: number; headers?: Record<string, string> }
) =>
  new GraphQLError(excerpt(failure.message, MESSAGE_LENGTH), {
    extensions: {
      code: codeOfStatus[failure.status],
      status: failure.status,
      ...(failure.errors === undefined ? {} : { errors: failure.errors }),
      ...(http === undefined ? {} : { http })
    }
  })

/** A missing, expired or foreign bearer token: HTTP 401 with the same challenge as the other faces. */
export const unauthenticatedError = (message: string, challenge: string) =>
  failureError({ status: "auth-expired", message }, { status: 401, headers: { "WWW-Authenticate": challenge } })

/** Past the per-minute limit: HTTP 429 with `Retry-After`, and `extensions.retryAfterSeconds`. */
export const rateLimitedError = (limited: RateLimited) =>
  new GraphQLError(limited.message, {
    extensions: {
      code: "RATE_LIMITED",
      retryAfterSeconds: limited.retryAfterSeconds,
      http: { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } }
    }
  })
