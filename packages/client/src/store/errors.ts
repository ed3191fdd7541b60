// The store API's error answers as classes, one per status the contract declares, so a caller can
// `catch (e) { if (e instanceof StoreNotFoundError) ... }`. The body is kept as the server sent it.
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
}

/** 401: no token, or the token is unknown, expired or revoked. */
export class StoreUnauthorizedError extends StoreApiError {
  override readonly name = "StoreUnauthorizedError"
}

/** 402: the store's plan does not include the store API. */
export class StorePlanRequiredError extends StoreApiError {
  override readonly name = "StorePlanRequiredError"
}

/**
 * 403: the credential cannot do that. `code` is the body's precise reason: `api_key_access` (the key's Store access is
 * off, or Read for a change) or `automation_connection` (an automation connection cannot change products).
 */
export class StoreForbiddenError extends StoreApiError {
  override readonly name = "StoreForbiddenError"
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
}

/** 409: it already exists, or the change clashes with the current state. */
export class StoreConflictError extends StoreApiError {
  override readonly name = "StoreConflictError"
}

/** 413: the request body is over the server's limit. */
export class StorePayloadTooLargeError extends StoreApiError {
  override readonly name = "StorePayloadTooLargeError"
}

/** 422: body fields are missing, of the wrong type, unknown or not allowed; `errors` names each. */
export class StoreInvalidError extends StoreApiError {
  override readonly name = "StoreInvalidError"
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
}

const isFieldProblem = (value: unknown): value is FieldProblem =>
  typeof value === "object" &&
  value !== null &&
  "path" in value &&
  typeof value.path === "string" &&
  "message" in value &&
  typeof value.message === "string"

const byStatus: Readonly<Record<number, new (status: number, body: unknown) => StoreApiError>> = {
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

/** The typed error of an error answer; statuses the contract does not declare get the base class. */
export const storeApiError = (status: number, body: unknown, headers?: Headers): StoreApiError => {
  if (status === 429) return new StoreRateLimitedError(status, body, headers)
  const ErrorClass = byStatus[status] ?? StoreApiError
  return new ErrorClass(status, body)
}
