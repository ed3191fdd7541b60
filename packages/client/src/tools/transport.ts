import type { CallOptions } from "../http/request.js"

/**
 * How a tool call travels: resolves with the tool's `{ ok: true, ... }` answer, rejects with a `ToolCallError` for
 * a failure, or the requester's `SvcTimeoutError`, `SvcConnectionError` or the caller's abort reason.
 */
export type ToolTransport = (tool: string, input: object | undefined, options?: CallOptions) => Promise<object>
