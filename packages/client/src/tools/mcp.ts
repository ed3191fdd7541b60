// The client side of MCP `tools/call` over Streamable HTTP, written on `fetch` rather than with the official MCP
// SDK: the SDK pulls in zod and server-side code far beyond the Promise entry's 25 KB browser budget, and a tool
// call is one JSON-RPC request and its JSON answer.
import { type CallOptions, type Requester, SvcConnectionError } from "../http/request.js"
import { ToolCallError } from "./error.js"
import { isObject, toolAnswerOf, toolFailureOf, unexpectedAnswer } from "./answer.js"
import type { ToolTransport } from "./transport.js"

/**
 * The stateless revision: every request names its version (header and `_meta`), so there is no `initialize`
 * round trip and no session to keep, which suits a client that may be one of many short-lived callers.
 */
const PROTOCOL_VERSION = "2026-07-28"
const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"

/** JSON-RPC's "invalid params", which svc answers to a `tools/call` naming no tool it serves. */
const INVALID_PARAMS = -32602

const headers = {
  // Streamable HTTP clients must accept both; svc only ever answers JSON, and an event stream is refused below.
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": PROTOCOL_VERSION
}

// A JSON-RPC error, as the status a `ToolCallError` carries. The HTTP code tells the refusals of the HTTP layer
// apart (they share the code -32000); the parameters this client builds are always well-formed, so the one
// "invalid params" left for `tools/call` is a tool name the server does not serve, as REST's 404.
const refusalOf = (tool: string, httpStatus: number, error: Readonly<Record<string, unknown>>): Error => {
  const message = typeof error.message === "string" ? error.message : `error ${String(error.code)}`
  const status =
    httpStatus === 401
      ? "auth-expired"
      : httpStatus === 403
        ? "forbidden"
        : httpStatus === 429
          ? "rate-limited"
          : httpStatus === 413
            ? "invalid"
            : error.code === INVALID_PARAMS
              ? "not-found"
              : undefined
  if (status === undefined) {
    return new SvcConnectionError(
      `the MCP server refused ${tool} (${String(error.code)}, HTTP ${httpStatus}): ${message}`
    )
  }
  return new ToolCallError({ tool, status, message, httpStatus: httpStatus === 200 ? undefined : httpStatus })
}

/** Tools over MCP: a JSON-RPC `tools/call` per call, posted to `/mcp`; the answer is the result's `structuredContent`. */
export const mcpTransport = (send: Requester): ToolTransport => {
  let nextId = 1
  return async (tool: string, input: object | undefined, options?: CallOptions): Promise<object> => {
    const id = nextId++
    const answer = await send(
      {
        method: "POST",
        path: "/mcp",
        headers,
        body: {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: tool, arguments: input ?? {}, _meta: { [META_PROTOCOL_VERSION]: PROTOCOL_VERSION } }
        }
      },
      options
    )
    const body = answer.body
    if (!isObject(body) || body.jsonrpc !== "2.0") throw unexpectedAnswer(tool, answer.status, body)
    if (isObject(body.error)) throw refusalOf(tool, answer.status, body.error)
    if (body.id !== id || !isObject(body.result)) throw unexpectedAnswer(tool, answer.status, body)
    const content = body.result.structuredContent
    if (body.result.isError === true) {
      throw (
        toolFailureOf(tool, content) ??
        new SvcConnectionError(`the MCP server answered ${tool} with an error and no tool failure`)
      )
    }
    return toolAnswerOf(tool, content)
  }
}
