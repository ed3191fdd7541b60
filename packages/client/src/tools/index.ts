// The tools client of `@svc/client`: one method per tool, over the REST face or MCP.
export { type ToolCallArguments, type ToolClient, type ToolClientOptions, createToolClient } from "./client.js"
export { ToolCallError, type ToolCallErrorFields, type ToolFailureStatus, type ToolFieldError } from "./error.js"
export type { ToolInput, ToolName, ToolOutput } from "../generated/tools.js"
export { TOOL_NAMES } from "../generated/tools.js"
