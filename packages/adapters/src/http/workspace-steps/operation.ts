import type { ToolGroup } from "@svc/core/tools"
import type { Schema } from "effect"

/** A path parameter of a step, for its OpenAPI entry. */
export interface PathParameter {
  readonly name: string
  readonly description: string
}

/**
 * One workspace step as the OpenAPI document shows it: where it is, the tool group whose rules it follows (none:
 * any valid token), what it reads and what it answers. The same schemas decode and encode the step itself.
 */
export interface StepOperation {
  readonly method: "get" | "post"
  /** The path in OpenAPI's syntax (`/api/items/{item_id}/reference`). */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly description: string
  readonly group: ToolGroup | null
  readonly write: boolean
  readonly pathParameters?: ReadonlyArray<PathParameter>
  /** A struct of the query's fields (each one parameter). */
  readonly query?: Schema.Schema.AnyNoContext
  readonly body?: Schema.Schema.AnyNoContext
  readonly answer: Schema.Schema.AnyNoContext
}
