import { Schema } from "effect"

/** One problem with one input field: `path` is dotted (`media.0.url`), empty for the whole input. */
export class FieldProblem extends Schema.Class<FieldProblem>("FieldProblem")({
  path: Schema.String,
  message: Schema.String
}) {}

/** The input breaks a rule; the caller must change it before trying again. */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  message: Schema.String,
  errors: Schema.Array(FieldProblem)
}) {}

/** The thing named does not exist, or exists where the caller cannot see it. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: Schema.String
}) {}

/** The change clashes with the current state (a duplicate, a stale edit). */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  message: Schema.String
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

/** Every declared domain error a use case may fail with. */
export type DomainError = InvalidInput | NotFound | Conflict | Forbidden | AuthExpired | Unreachable | MissingWorkspace

/** Shorthand for a one-field `InvalidInput`. */
export const invalid = (path: string, message: string): InvalidInput =>
  new InvalidInput({ message, errors: [new FieldProblem({ path, message })] })
