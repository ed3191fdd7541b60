import type { Principal } from "@svc/core/auth"
import {
  type InvalidToolSelection,
  READONLY_QUERY,
  resolveToolSelection,
  type ToolSelection,
  TOOLSETS_QUERY
} from "@svc/core/tools"
import type { Either } from "effect"
import type { FaceRequest, Reply } from "./exchange.js"

/**
 * The toolset selection of a request to `/mcp` or the REST tools: the `X-MCP-Toolsets` and `X-MCP-Readonly`
 * headers, or the `toolsets` and `readonly` query parameters (both given: they must agree), else the
 * credential's default toolsets. `undefined` when nothing narrows the caller's tools.
 */
export const toolSelectionOf = (
  request: FaceRequest,
  principal: Principal
): Either.Either<ToolSelection | undefined, InvalidToolSelection> =>
  resolveToolSelection(
    {
      toolsetsHeader: request.header("x-mcp-toolsets"),
      toolsetsQuery: request.query(TOOLSETS_QUERY),
      readOnlyHeader: request.header("x-mcp-readonly"),
      readOnlyQuery: request.query(READONLY_QUERY)
    },
    principal.toolsets
  )

/** The REST answer to a selection it cannot serve (an unknown toolset, a bad read-only flag): 400 naming the valid toolsets. */
export const invalidSelectionReply = (refused: InvalidToolSelection): Reply => ({
  status: 400,
  body: JSON.stringify({ ok: false, status: "invalid", message: refused.message, validToolsets: refused.validToolsets })
})
