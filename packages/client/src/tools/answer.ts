// Decoding what the server sends back for a tool call, shared by both transports: answers are checked here, at
// the edge, so a method's promise only ever resolves with `{ ok: true, ... }` or rejects with a typed error.
import { SvcConnectionError } from "../http/request.js"
import { ToolCallError, type ToolFailureStatus, type ToolFieldError } from "./error.js"

const FAILURE_STATUSES: ReadonlyArray<string> = [
  "invalid",
  "forbidden",
  "not-found",
  "conflict",
  "missing-workspace",
  "auth-expired",
  "unreachable",
  "rate-limited"
] satisfies ReadonlyArray<ToolFailureStatus>

/** A JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isFailureStatus = (value: unknown): value is ToolFailureStatus =>
  typeof value === "string" && FAILURE_STATUSES.includes(value)

const fieldErrorsOf = (value: unknown): ReadonlyArray<ToolFieldError> =>
  Array.isArray(value)
    ? value.flatMap((entry: unknown) =>
        isObject(entry) && typeof entry.path === "string" && typeof entry.message === "string"
          ? [{ path: entry.path, message: entry.message }]
          : []
      )
    : []

/** The `ToolCallError` a `{ ok: false, status, message, errors? }` body stands for; `undefined` for any other body. */
export const toolFailureOf = (tool: string, body: unknown, httpStatus?: number): ToolCallError | undefined => {
  if (!isObject(body) || body.ok !== false || !isFailureStatus(body.status)) return undefined
  return new ToolCallError({
    tool,
    status: body.status,
    message: typeof body.message === "string" ? body.message : body.status,
    errors: fieldErrorsOf(body.errors),
    httpStatus
  })
}

/** A tool's successful answer, or the error the body stands for. */
export const toolAnswerOf = (tool: string, body: unknown, httpStatus?: number): object => {
  if (isObject(body) && body.ok === true) return body
  throw (
    toolFailureOf(tool, body, httpStatus) ??
    new SvcConnectionError(`the answer to ${tool} is neither a tool answer nor a tool failure`)
  )
}

/** The error for an answer that is no tool answer at all (a 500 with a request id, a proxy's page). */
export const unexpectedAnswer = (tool: string, status: number, body: unknown): SvcConnectionError => {
  const said = isObject(body) && typeof body.message === "string" ? `: ${body.message}` : ""
  return new SvcConnectionError(`the server answered ${status} to ${tool}${said}`)
}
