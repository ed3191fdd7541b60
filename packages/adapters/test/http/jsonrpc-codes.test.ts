/**
 * The MCP face writes JSON-RPC's standard error codes out itself, so the MCP SDK stays a development dependency:
 * they must stay the numbers the SDK (and so every MCP client built on it) gives those names.
 */
import { describe, expect, it } from "@effect/vitest"
import { ErrorCode as SdkErrorCode } from "@modelcontextprotocol/sdk/types.js"
import { ErrorCode } from "../../src/http/mcp/protocol.js"

describe("the MCP face's JSON-RPC error codes", () => {
  it("are the MCP SDK's numbers for the standard errors", () => {
    for (const name of ["ParseError", "InvalidRequest", "MethodNotFound", "InvalidParams", "InternalError"] as const) {
      expect(ErrorCode[name], name).toBe(SdkErrorCode[name])
    }
  })
})
