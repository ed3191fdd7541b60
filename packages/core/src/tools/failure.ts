import { Schema } from "effect"
import type { DomainError, FieldProblem } from "../shared/errors.js"
import { toolJsonSchema } from "./json-schema.js"

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
