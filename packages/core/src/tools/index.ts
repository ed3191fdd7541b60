/**
 * Tools and the tool server: `defineTool`, the registry, the `ToolServer` service, failures and the spec's tool names.
 * `makeInputDecoder`/`makeAnswerEncoder` are the compiled schema walks every tool decodes and encodes with, public so
 * that their sameness with Effect Schema is checked over every real tool's schemas (adapters' compiled-schemas test).
 */
export { encodesFast, makeAnswerEncoder } from "./answer-encoder.js"
export {
  FailureStatus,
  httpStatusOf,
  ToolFailure,
  toolFailure,
  toolFailureJsonSchema,
  toolFailureOutline,
  toolFailures
} from "./failure.js"
export { groupRefusal } from "./group-access.js"
export { type ToolGroup, toolGroups } from "./groups.js"
export { decodesFast, makeInputDecoder } from "./input-decoder.js"
export type { Json, JsonObject } from "./json-schema.js"
export { outputOutline } from "./output-outline.js"
export { toInvalidInput } from "./problems.js"
export { InsufficientScope, UnknownTool } from "./refusals.js"
export {
  type ListedTool,
  makeToolRegistry,
  SELECTIONS_KEPT,
  type ToolDescriptor,
  type ToolEntry,
  ToolRegistry,
  type ToolRegistryShape,
  type Toolset
} from "./registry.js"
export { countToolFailure, toolFailuresTotal } from "./metrics.js"
export { type ToolAnswer, type ToolRefusal, ToolServer } from "./server.js"
export {
  ALL_TOOLSETS,
  groupOfToolset,
  InvalidToolSelection,
  parseDefaultToolsets,
  READONLY_HEADER,
  READONLY_QUERY,
  resolveToolSelection,
  selectedToolsets,
  selects,
  type ToolSelection,
  type ToolSelectionRequest,
  ToolsetName,
  toolsetNames,
  TOOLSETS_HEADER,
  TOOLSETS_QUERY
} from "./toolsets.js"
export { type SpecTool, specTools, specToolsByName } from "./spec-names.js"
export {
  defineTool,
  type ResolveWorkspace,
  type Tool,
  type ToolAlias,
  type ToolAnnotations,
  type ToolContext,
  type ToolSpec,
  WorkspaceIdField
} from "./tool.js"
export { toolNextSteps } from "./next-steps.js"
