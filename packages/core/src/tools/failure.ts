import { Schema } from "effect"
import { answerFailure, type DomainFailure, type FailureTable } from "../shared/failures.js"
import { toolJsonSchema } from "./json-schema.js"
import { toolNextSteps } from "./next-steps.js"

/** The seven tool failure statuses of the service description. */
export const FailureStatus = Schema.Literal(
  "invalid",
  "auth-expired",
  "forbidden",
  "not-found",
  "conflict",
  "missing-workspace",
  "unreachable"
).annotations({
  description:
    "invalid: fix the input. auth-expired: reconnect. conflict, forbidden, not-found, unreachable, missing-workspace: tell the user."
})
export type FailureStatus = typeof FailureStatus.Type

/** A tool answer that did not succeed, as both faces send it. */
export const ToolFailure = Schema.Struct({
  ok: Schema.Literal(false).annotations({ description: "Always false on failure." }),
  status: FailureStatus,
  message: Schema.String.annotations({ description: "What went wrong and what to do next." }),
  errors: Schema.optional(
    Schema.Array(
      Schema.Struct({
        path: Schema.String.annotations({
          description: "Dotted path of the field (media.0.url); empty for the whole input."
        }),
        message: Schema.String.annotations({ description: "What is wrong with the field." })
      })
    ).annotations({ description: "With invalid: one entry per bad field." })
  )
}).annotations({
  description: "A tool call that could not be fulfilled. Fix the input on invalid; never retry it unchanged."
})
export type ToolFailure = typeof ToolFailure.Type

/** JSON Schema (2020-12) of a tool failure, derived from `ToolFailure`; OpenAPI embeds it. */
export const toolFailureJsonSchema = toolJsonSchema(ToolFailure)

/**
 * The failure branch of every MCP `outputSchema`, in few bytes: it is repeated in each entry of `tools/list`.
 * Clients (the official SDK among them) check a failure's `structuredContent` against `outputSchema` too, so
 * each schema must admit every `ToolFailure`. This branch names the fields; what they hold is said once, in the
 * server's instructions, and the success branch's `ok: true` tells the two apart. The budget test checks it.
 */
export const toolFailureOutline = { required: ["ok", "status", "message"] } as const

const failure = (status: FailureStatus, message: string): ToolFailure => ({ ok: false, status, message })

/**
 * The tools face's failure table (MCP and REST answer the same body; REST adds `httpStatusOf[status]`). A store
 * limit inside a tool (sales or access emails per minute) is a `conflict` with the wait in its message: the
 * per-minute limit of tool calls itself is refused by the protocol (429) before a tool runs, not here.
 */
export const toolFailures = {
  InvalidInput: (error) => ({
    ...failure("invalid", error.message),
    errors: error.errors.map((e) => ({ path: e.path, message: e.message }))
  }),
  BadListRequest: (error) => ({ ...failure("invalid", error.message), errors: [{ path: "", message: error.message }] }),
  NotFound: (error) => failure("not-found", error.message),
  Conflict: (error) => failure("conflict", error.message),
  Forbidden: (error) => failure("forbidden", error.message),
  StoreAccessDenied: (error) => failure("forbidden", error.message),
  AuthExpired: (error) => failure("auth-expired", error.message),
  Unreachable: (error) => failure("unreachable", error.message),
  MissingWorkspace: (error) => failure("missing-workspace", error.message),
  RateLimited: (error) => failure("conflict", `${error.message} (retry after ${error.retryAfterSeconds} s)`)
} satisfies FailureTable<ToolFailure>

/** The failure body for a domain failure. */
export const toolFailure: (failure: DomainFailure) => ToolFailure = answerFailure(toolFailures, toolNextSteps)

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
