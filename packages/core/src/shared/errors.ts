import { Schema } from "effect"
import { NextStep } from "./next-step.js"

// `next`: where the caller finds what it needs, said by each face in its own terms (see `next-step.ts`).
const next = Schema.optional(NextStep)

/** One problem with one input field: `path` is dotted (`media.0.url`), empty for the whole input. */
export class FieldProblem extends Schema.Class<FieldProblem>("FieldProblem")({
  path: Schema.String,
  message: Schema.String,
  next
}) {}

/** The input breaks a rule; the caller must change it before trying again. */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  message: Schema.String,
  errors: Schema.Array(FieldProblem),
  next
}) {}

/** The thing named does not exist, or exists where the caller cannot see it. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: Schema.String,
  next
}) {}

/** The change clashes with the current state (a duplicate, a stale edit). */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  message: Schema.String,
  next
}) {}

/** The caller is known but not allowed to do this (access level, scope, plan). */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String,
  reason: Schema.optional(Schema.Literal("access", "scope", "plan"))
}) {}

/** The credentials are missing, wrong, expired or revoked. */
export class AuthExpired extends Schema.TaggedError<AuthExpired>()("AuthExpired", {
  message: Schema.String
}) {}

/** An outside system the call needs did not answer. */
export class Unreachable extends Schema.TaggedError<Unreachable>()("Unreachable", {
  message: Schema.String
}) {}

/** The caller has no workspace to default to. */
export class MissingWorkspace extends Schema.TaggedError<MissingWorkspace>()("MissingWorkspace", {
  message: Schema.String
}) {}

/** The store refuses the credential: its access, its kind or its plan does not allow the call. */
export class StoreAccessDenied extends Schema.TaggedError<StoreAccessDenied>()("StoreAccessDenied", {
  message: Schema.String,
  /**
   * `plan`: the account is below the Starter plan; `api_key_access`: the key's store part is off, or
   * read-only for a change; `automation_connection`: an OAuth connection may not change products.
   */
  code: Schema.Literal("plan", "api_key_access", "automation_connection")
}) {}

/** A query parameter of a list is wrong (the store API answers 400, the spec's "a list field is wrong"). */
export class BadListRequest extends Schema.TaggedError<BadListRequest>()("BadListRequest", {
  message: Schema.String,
  next
}) {}

/** The domain errors a tool handler and most use cases fail with (a subset of `DomainFailure`). */
export type DomainError = InvalidInput | NotFound | Conflict | Forbidden | AuthExpired | Unreachable | MissingWorkspace

/** Shorthand for a one-field `InvalidInput`. */
export const invalid = (path: string, message: string, next?: NextStep): InvalidInput =>
  next === undefined
    ? new InvalidInput({ message, errors: [new FieldProblem({ path, message })] })
    : new InvalidInput({ message, errors: [new FieldProblem({ path, message, next })], next })

/**
 * `error` with each problem's path renamed, for a face whose fields are named apart from the use case's
 * (`custom_ai_id` beside `customAIId`); messages and next steps are kept.
 */
export const renamePaths = (error: InvalidInput, rename: (path: string) => string): InvalidInput =>
  new InvalidInput({
    message: error.message,
    errors: error.errors.map((problem) => new FieldProblem({ ...problem, path: rename(problem.path) })),
    next: error.next
  })
