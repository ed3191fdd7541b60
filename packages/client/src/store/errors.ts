// The store API's error answers as classes, one per status the contract declares, so a caller can
// `catch (e) { if (e instanceof StoreNotFoundError) ... }`, or, wrapping a call in `Effect.tryPromise`, match them
// with `Effect.catchTag("StoreNotFoundError", ...)`: each has a `_tag`, its class name. The body is kept as the
// server sent it.
import type { ErrorBody } from "./types.js"

/** A field the server refused, as a 422 lists it. */
export type FieldProblem = ErrorBody<"FieldProblem">

/** One field of an answer body, if the body is an object that has it. */
const field = (body: unknown, name: string): unknown =>
  typeof body === "object" && body !== null && name in body
    ? (body as Readonly<Record<string, unknown>>)[name]
    : undefined

/** Any error answer of the store API: the HTTP status, the body's `error` code, its message and the body itself. */
export class StoreApiError extends Error {
  override readonly name: string = "StoreApiError"
  /** The class name, for `Effect.catchTag` (each subclass names itself). */
  readonly _tag: string = "StoreApiError"
  /** The body's `error`, e.g. `not_found`; `http_<status>` when the body has none (an answer from a proxy). */
  readonly code: string
  constructor(
    readonly status: number,
    readonly body: unknown
  ) {
    const message = field(body, "message")
    const code = field(body, "error")
    super(typeof message === "string" ? message : `the store API answered ${status}`)
    this.code = typeof code === "string" ? code : `http_${status}`
  }
}

/** 400: a query parameter or the request itself is wrong (e.g. `limit` outside 1 to 100). */
export class StoreBadRequestError extends StoreApiError {
  override readonly name = "StoreBadRequestError"
  override readonly _tag = "StoreBadRequestError"
}

/** 401: no token, or the token is unknown, expired or revoked. */
export class StoreUnauthorizedError extends StoreApiError {
  override readonly name = "StoreUnauthorizedError"
  override readonly _tag = "StoreUnauthorizedError"
}

/** 402: the store's plan does not include the store API. */
export class StorePlanRequiredError extends StoreApiError {
  override readonly name = "StorePlanRequiredError"
  override readonly _tag = "StorePlanRequiredError"
}

/**
 * 403: the credential cannot do that. `code` is the body's precise reason: `api_key_access` (the key's Store access is
 * off, or Read for a change) or `automation_connection` (an automation connection cannot change products).
 */
export class StoreForbiddenError extends StoreApiError {
  override readonly name = "StoreForbiddenError"
  override readonly _tag = "StoreForbiddenError"
  override readonly code: ErrorBody<"StoreForbidden">["code"] | `http_${number}`
  constructor(status: number, body: unknown) {
    super(status, body)
    const reason = field(body, "code")
    this.code = reason === "api_key_access" || reason === "automation_connection" ? reason : `http_${status}`
  }
}

/** 404: no product, sale, person or webhook with that id in this store. */
export class StoreNotFoundError extends StoreApiError {
  override readonly name = "StoreNotFoundError"
  override readonly _tag = "StoreNotFoundError"
}

/** 409: it already exists, or the change clashes with the current state. */
export class StoreConflictError extends StoreApiError {
  override readonly name = "StoreConflictError"
  override readonly _tag = "StoreConflictError"
}

/** 413: the request body is over the server's limit. */
export class StorePayloadTooLargeError extends StoreApiError {
  override readonly name = "StorePayloadTooLargeError"
  override readonly _tag = "StorePayloadTooLargeError"
}

/** 422: body fields are missing, of the wrong type, unknown or not allowed; `errors` names each. */
export class StoreInvalidError extends StoreApiError {
  override readonly name = "StoreInvalidError"
  override readonly _tag = "StoreInvalidError"
  readonly errors: ReadonlyArray<FieldProblem>
  constructor(status: number, body: unknown) {
    super(status, body)
    const errors = field(body, "errors")
    this.errors = Array.isArray(errors) ? errors.filter(isFieldProblem) : []
  }
}

/** 429: too many calls, and waiting was not possible within the retry budget or the deadline. */
export class StoreRateLimitedError extends StoreApiError {
  override readonly name = "StoreRateLimitedError"
  override readonly _tag = "StoreRateLimitedError"
  /** How long the server asked to wait (a minute on most store limits); undefined when it did not say. */
  readonly retryAfterSeconds: number | undefined
  constructor(status: number, body: unknown, headers?: Headers) {
    super(status, body)
    const fromBody = field(body, "retry_after_seconds")
    const fromHeader = Number(headers?.get("retry-after") ?? Number.NaN)
    this.retryAfterSeconds =
      typeof fromBody === "number" ? fromBody : Number.isFinite(fromHeader) ? fromHeader : undefined
  }
}

/** 500: a failure on the server; its message quotes a request id to report. */
export class StoreInternalError extends StoreApiError {
  override readonly name = "StoreInternalError"
  override readonly _tag = "StoreInternalError"
}

/** Every error a store API call fails with, one `_tag` each, for `Effect.tryPromise`'s `catch`. */
export type StoreApiErrors =
  | StoreBadRequestError
  | StoreUnauthorizedError
  | StorePlanRequiredError
  | StoreForbiddenError
  | StoreNotFoundError
  | StoreConflictError
  | StorePayloadTooLargeError
  | StoreInvalidError
  | StoreRateLimitedError
  | StoreInternalError
  | StoreUnexpectedStatusError

/** Any other status, which the contract does not declare: a 502 or 503 from a proxy in front of the server, say. */
export class StoreUnexpectedStatusError extends StoreApiError {
  override readonly name = "StoreUnexpectedStatusError"
  override readonly _tag = "StoreUnexpectedStatusError"
}

const isFieldProblem = (value: unknown): value is FieldProblem =>
  typeof value === "object" &&
  value !== null &&
  "path" in value &&
  typeof value.path === "string" &&
  "message" in value &&
  typeof value.message === "string"

const byStatus: Readonly<Record<number, new (status: number, body: unknown) => StoreApiErrors>> = {
  400: StoreBadRequestError,
  401: StoreUnauthorizedError,
  402: StorePlanRequiredError,
  403: StoreForbiddenError,
  404: StoreNotFoundError,
  409: StoreConflictError,
  413: StorePayloadTooLargeError,
  422: StoreInvalidError,
  500: StoreInternalError
}

/** The typed error of an error answer; a status the contract does not declare is a `StoreUnexpectedStatusError`. */
export const storeApiError = (status: number, body: unknown, headers?: Headers): StoreApiErrors => {
  if (status === 429) return new StoreRateLimitedError(status, body, headers)
  const ErrorClass = byStatus[status] ?? StoreUnexpectedStatusError
  return new ErrorClass(status, body)
}
