import type { RateLimited } from "@svc/core/limits"
import { answerFailure, type DomainFailure, excerpt, type FailureTable } from "@svc/core/shared"
import { storeApiNextSteps } from "@svc/core/store-api"
import type { FailureStatus, ToolFailure } from "@svc/core/tools"
import { GraphQLError } from "graphql"
import { tidyProblems } from "../store-api/responses.js"

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

/**
 * How GraphQL answers a domain failure: as a tool failure (a query field throws it as an error with `extensions.code`
 * and `status`; a store mutation returns it as its `ToolFailure` result), or at the HTTP level on any field (401 with
 * a challenge, 429 with `Retry-After`).
 */
export type GraphqlFailure =
  | { readonly _tag: "Failure"; readonly failure: ToolFailure }
  | { readonly _tag: "Unauthenticated"; readonly message: string }
  | { readonly _tag: "RateLimited"; readonly limited: RateLimited }

const failure = (status: FailureStatus, message: string): GraphqlFailure => ({
  _tag: "Failure",
  failure: { ok: false, status, message }
})

/** The GraphQL face's failure table, with the statuses the tool faces give the same failures. */
export const graphqlFailures = {
  InvalidInput: (error) => ({
    _tag: "Failure",
    failure: {
      ok: false,
      status: "invalid",
      message: error.message,
      errors: tidyProblems(error.errors).map(({ path, message }) => ({ path, message }))
    }
  }),
  BadListRequest: (error) => failure("invalid", error.message),
  NotFound: (error) => failure("not-found", error.message),
  Conflict: (error) => failure("conflict", error.message),
  Forbidden: (error) => failure("forbidden", error.message),
  StoreAccessDenied: (error) => failure("forbidden", error.message),
  Unreachable: (error) => failure("unreachable", error.message),
  MissingWorkspace: (error) => failure("missing-workspace", error.message),
  AuthExpired: (error) => ({ _tag: "Unauthenticated", message: error.message }),
  RateLimited: (limited) => ({ _tag: "RateLimited", limited })
} satisfies FailureTable<GraphqlFailure>

/** How GraphQL answers a domain failure. */
export const graphqlFailure: (error: DomainFailure) => GraphqlFailure = answerFailure(
  graphqlFailures,
  storeApiNextSteps
)

/** A domain failure as the error a field throws; `challenge` is the `WWW-Authenticate` of a 401. */
export const graphqlError = (error: DomainFailure, challenge: string): GraphQLError => {
  const answer = graphqlFailure(error)
  switch (answer._tag) {
    case "Failure":
      return failureError(answer.failure)
    case "Unauthenticated":
      return unauthenticatedError(answer.message, challenge)
    case "RateLimited":
      return rateLimitedError(answer.limited)
  }
}
