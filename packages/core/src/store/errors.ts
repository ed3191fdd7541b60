import { Schema } from "effect"

/** The store API refuses the credential: its access, its kind or its plan does not allow the call. */
export class StoreAccessDenied extends Schema.TaggedError<StoreAccessDenied>()("StoreAccessDenied", {
  message: Schema.String,
  /**
   * `plan`: the account is below the Starter plan; `api_key_access`: the key's store part is off, or
   * read-only for a change; `automation_connection`: an OAuth connection may not change products.
   */
  code: Schema.Literal("plan", "api_key_access", "automation_connection")
}) {}

/** A query parameter of a list is wrong (answered 400, the spec's "a list field is wrong"). */
export class BadListRequest extends Schema.TaggedError<BadListRequest>()("BadListRequest", {
  message: Schema.String
}) {}
