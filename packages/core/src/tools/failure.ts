import type { DomainError, FieldProblem } from "../shared/errors.js"

/** The seven tool failure statuses of the service description. */
export type FailureStatus =
  | "auth-expired"
  | "invalid"
  | "conflict"
  | "forbidden"
  | "not-found"
  | "unreachable"
  | "missing-workspace"

/** A tool answer that did not succeed, as both faces send it. */
export interface ToolFailure {
  readonly ok: false
  readonly status: FailureStatus
  readonly message: string
  readonly errors?: ReadonlyArray<{ readonly path: string; readonly message: string }>
}

const statusOf: Record<DomainError["_tag"], FailureStatus> = {
  InvalidInput: "invalid",
  NotFound: "not-found",
  Conflict: "conflict",
  Forbidden: "forbidden",
  AuthExpired: "auth-expired",
  Unreachable: "unreachable",
  MissingWorkspace: "missing-workspace"
}

/** The failure body for a domain error. */
export const toolFailure = (error: DomainError): ToolFailure => {
  const base = { ok: false as const, status: statusOf[error._tag], message: error.message }
  return error._tag === "InvalidInput"
    ? { ...base, errors: error.errors.map((e: FieldProblem) => ({ path: e.path, message: e.message })) }
    : base
}

/** REST status codes per failure status (documented in the README). */
export const httpStatusOf: Record<FailureStatus, number> = {
  invalid: 422,
  "auth-expired": 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "missing-workspace": 404,
  unreachable: 502
}
