import { Schema } from "effect"

/** The call names no served tool (a protocol error, not a tool failure); never counted against the rate limit. */
export class UnknownTool extends Schema.TaggedError<UnknownTool>()("UnknownTool", {
  tool: Schema.String
}) {
  override get message() {
    return `no tool named ${this.tool}; call tools/list (or GET /v1/tools) for the names`
  }
}

/**
 * An OAuth token without the write scope called a write tool. Refused before the rate limit, and answered at the
 * HTTP level (403 with an `insufficient_scope` challenge) rather than as a tool failure, so the client can step up.
 */
export class InsufficientScope extends Schema.TaggedError<InsufficientScope>()("InsufficientScope", {
  tool: Schema.String
}) {
  override get message() {
    return `${this.tool} changes data; authorize again with scope "read write"`
  }
}
