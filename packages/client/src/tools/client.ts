import { type ToolInput, type ToolMethods, type ToolName, type ToolOutput, TOOL_NAMES } from "../generated/tools.js"
import { type CallOptions, type ClientOptions, makeRequester } from "../http/request.js"
import { mcpTransport } from "./mcp.js"
import { restTransport } from "./rest.js"
import type { ToolTransport } from "./transport.js"

/** What `createToolClient` takes. */
export interface ToolClientOptions extends ClientOptions {
  /** `"rest"` calls `POST /v1/tools/{name}`; `"mcp"` calls `tools/call` on `/mcp`. Both answer the same. Default `"rest"`. */
  readonly transport?: "rest" | "mcp"
}

/** The arguments of `call` for one tool: the input may be left out where the tool needs none. */
export type ToolCallArguments<N extends ToolName> =
  Record<string, never> extends ToolInput<N>
    ? [input?: ToolInput<N>, options?: CallOptions]
    : [input: ToolInput<N>, options?: CallOptions]

/** A client of the tools: one method per tool, named as the tool, and `call` for a name chosen at run time. */
export type ToolClient = ToolMethods<CallOptions> & {
  /** Calls a tool by name; the same as `client[name](input, options)`. */
  call<N extends ToolName>(name: N, ...args: ToolCallArguments<N>): Promise<ToolOutput<N>>
}

/**
 * Makes a client of the service's tools, e.g. `await client.svc_create_note({ markdown: "# Plan" })`. A method
 * resolves with the tool's `{ ok: true, ... }` answer and rejects with a `ToolCallError` for a failure.
 */
export const createToolClient = (options: ToolClientOptions): ToolClient => {
  if (options.transport !== undefined && options.transport !== "rest" && options.transport !== "mcp") {
    throw new TypeError(`transport must be "rest" or "mcp", not ${String(options.transport)}`)
  }
  const send = makeRequester(options)
  const transport: ToolTransport = options.transport === "mcp" ? mcpTransport(send) : restTransport(send)
  const call = (name: ToolName, input?: object, callOptions?: CallOptions) => transport(name, input, callOptions)
  // Built from the list of names rather than a Proxy: a Proxy answering every property would also answer `then`,
  // and the client would look like a promise to `await`.
  const methods = Object.fromEntries(
    TOOL_NAMES.map((name) => [name, (input?: object, callOptions?: CallOptions) => call(name, input, callOptions)])
  )
  // The one assertion: answers are checked to be tool answers (`ok: true`), and that they match the tool's
  // outputSchema is the server's contract, which the generated types are made from.
  return { ...methods, call } as ToolClient
}
