import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { excerpt, shortProblemMessage } from "@svc/core/shared"
import { StoreFieldProblem } from "@svc/core/store-api"
import { Cause, Effect, Option } from "effect"
import { internalErrorMessage } from "../defects.js"

const body = (status: number, value: Readonly<Record<string, unknown>>) =>
  HttpServerResponse.unsafeJson(value, { status })

interface DecodeIssue {
  readonly path?: ReadonlyArray<unknown>
  readonly message?: string
}

// The platform answers a request that fails its schema with its own `HttpApiDecodeError` body; the
// store API promises `{ ok: false, error, message }`, so that one answer is rewritten here.
const decodeIssues = (response: HttpServerResponse.HttpServerResponse): ReadonlyArray<DecodeIssue> | undefined => {
  if (response.status !== 400 || response.body._tag !== "Uint8Array") return undefined
  try {
    const parsed = JSON.parse(new TextDecoder().decode(response.body.body)) as {
      readonly _tag?: unknown
      readonly issues?: ReadonlyArray<DecodeIssue>
    }
    return parsed._tag === "HttpApiDecodeError" ? (parsed.issues ?? []) : undefined
  } catch {
    return undefined
  }
}

// A 429 body carries `retry_after_seconds`; clients and proxies look for the standard header too.
const withRetryAfter = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  if (response.status !== 429 || response.body._tag !== "Uint8Array") return response
  try {
    const parsed = JSON.parse(new TextDecoder().decode(response.body.body)) as {
      readonly retry_after_seconds?: unknown
    }
    return typeof parsed.retry_after_seconds === "number"
      ? HttpServerResponse.setHeader(response, "retry-after", String(parsed.retry_after_seconds))
      : response
  } catch {
    return response
  }
}

const isBodyDecodeFailure = (cause: Cause.Cause<unknown>): boolean =>
  Option.exists(Cause.dieOption(cause), (defect) => {
    const error = defect as { readonly _tag?: unknown; readonly reason?: unknown }
    return error._tag === "RequestError" && error.reason === "Decode"
  })

// A field that may also be null or left out fails each member of its union, so the platform reports one issue per
// member ("Expected a number between 1 and 100, actual 500; Expected null, actual 500; Expected undefined, …").
// One problem per path reads better: the first informative issue, noting that null is also taken.
const NULL_OR_ABSENT = /^Expected (null|undefined)\b/

const problemsByPath = (issues: ReadonlyArray<DecodeIssue>): Array<{ path: string; message: string }> => {
  const byPath = new Map<string, { first: string; messages: Array<string>; nullable: boolean }>()
  for (const issue of issues) {
    const path = (issue.path ?? []).map(String).join(".")
    const message = shortProblemMessage(issue.message ?? "is not allowed")
    const entry = byPath.get(path) ?? { first: message, messages: [], nullable: false }
    byPath.set(path, entry)
    const nullMember = NULL_OR_ABSENT.exec(message)
    if (nullMember !== null) entry.nullable ||= nullMember[1] === "null"
    else if (!entry.messages.includes(message)) entry.messages.push(message)
  }
  // An optional list or object whose item is wrong fails the item (`tags.0`) and, as a whole, the absent member
  // (`tags`: "Expected undefined"); the item says what to fix.
  const paths = [...byPath.keys()]
  const explained = (path: string) =>
    paths.some((other) => other.startsWith(path === "" ? "" : `${path}.`) && other !== path)
  return tidyProblems(
    [...byPath]
      .filter(([path, { messages }]) => messages.length > 0 || !explained(path))
      .map(([path, { first, messages, nullable }]) => ({
        path,
        message: messages.length === 0 ? first : `${oneOf(messages)}${nullable ? " (or null)" : ""}`
      }))
  )
}

const EXPECTED = /^Expected (.+), actual (.+)$/s

// The members of a union of literals each report "Expected "sale", actual "x""; said once: Expected "sale" |
// "renewal", actual "x". Other mixes are kept whole, one after the other.
const oneOf = (messages: ReadonlyArray<string>): string => {
  const parts = messages.map((message) => EXPECTED.exec(message))
  const actual = parts[0]?.[2]
  if (messages.length < 2 || parts.some((part) => part === null || part[2] !== actual)) return messages.join("; or ")
  return `Expected ${parts.map((part) => part?.[1]).join(" | ")}, actual ${actual}`
}

/** How many problems an answer lists; a body of thousands of bad fields is not answered field by field. */
export const MAX_PROBLEMS = 50

/** How many problems the `message` of an `invalid_field` answer spells out before counting the rest. */
const PROBLEMS_IN_MESSAGE = 5

// Paths are field names, and a caller may send any; a long one is quoted as an excerpt like any other value.
const PATH_LENGTH = 120

/**
 * Problems as an answer carries them: at most {@link MAX_PROBLEMS}, each path and message short (a value the caller
 * sent is quoted as an excerpt, never whole).
 */
export const tidyProblems = (
  errors: ReadonlyArray<{ readonly path: string; readonly message: string }>
): Array<StoreFieldProblem> =>
  errors.slice(0, MAX_PROBLEMS).map(
    (problem) =>
      new StoreFieldProblem({
        path: excerpt(problem.path, PATH_LENGTH),
        message: shortProblemMessage(problem.message)
      })
  )

/** The `message` of an `invalid_field` answer: its first problems, each after its path, and how many more. */
export const problemsMessage = (errors: ReadonlyArray<{ readonly path: string; readonly message: string }>): string => {
  const shown = tidyProblems(errors.slice(0, PROBLEMS_IN_MESSAGE))
    // A message that already names its field (`limit must be a whole number …`) is not prefixed with it again.
    .map((e) => (e.path === "" || e.message.startsWith(`${e.path} `) ? e.message : `${e.path}: ${e.message}`))
    .join("; ")
  return errors.length > PROBLEMS_IN_MESSAGE ? `${shown} (and ${errors.length - PROBLEMS_IN_MESSAGE} more)` : shown
}

/**
 * Shapes the answers the HttpApi machinery makes on its own: schema failures (400 for a query or path,
 * 422 for a body, each problem in `errors`), a body that is not JSON (400), `Retry-After` on a 429, and
 * defects (500 with a request id, the cause logged under it, never a stack).
 */
export const StoreResponses = HttpLayerRouter.middleware((effect) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const write = request.method !== "GET" && request.method !== "HEAD"
    const response = yield* effect
    const issues = decodeIssues(response)
    if (issues === undefined) return withRetryAfter(response)
    const errors = problemsByPath(issues)
    const message = problemsMessage(errors)
    return write
      ? body(422, { ok: false, error: "invalid_field", message, errors })
      : body(400, { ok: false, error: "bad_request", message })
  }).pipe(
    Effect.catchAllCause((cause) => {
      if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
      if (isBodyDecodeFailure(cause)) {
        return Effect.succeed(
          body(400, {
            ok: false,
            error: "bad_request",
            message: "the body must be a JSON object (Content-Type: application/json)"
          })
        )
      }
      const requestId = crypto.randomUUID()
      return Effect.logError("store API request failed with a defect", cause).pipe(
        Effect.annotateLogs({ requestId }),
        Effect.as(body(500, { ok: false, error: "internal", message: internalErrorMessage(requestId) }))
      )
    })
  )
)
