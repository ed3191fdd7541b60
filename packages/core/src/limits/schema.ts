import { Schema } from "effect"

/** Too many calls; retry after the given number of seconds. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  message: Schema.String,
  retryAfterSeconds: Schema.Int
}) {}

/** Tool calls a credential may make per minute, shared between REST and MCP. */
export const TOOL_CALLS_PER_MINUTE = 120
