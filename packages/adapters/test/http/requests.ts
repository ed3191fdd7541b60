/** Builders for requests to the tool faces, so tests say what differs from a well-formed call. */

/** The headers a conforming MCP client sends with a JSON-RPC POST. */
export const mcpHeaders = (token: string | undefined): Record<string, string> => ({
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
})

/** A `POST /mcp` carrying `body` (JSON-encoded unless already text), with headers overridden as given. */
export const mcpPost = (
  base: string,
  body: unknown,
  options: { readonly token?: string | undefined; readonly headers?: Record<string, string | undefined> } = {}
): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries({ ...mcpHeaders(options.token), ...options.headers })) {
    if (value !== undefined) headers.set(name, value)
  }
  return new Request(`${base}/mcp`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body)
  })
}

/** A JSON-RPC request object. */
export const rpc = (method: string, params?: Record<string, unknown>, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params === undefined ? {} : { params })
})

/** The JSON body of a response, typed loosely for assertions. */
export const jsonOf = async (response: Response): Promise<Record<string, unknown>> =>
  (await response.json()) as Record<string, unknown>

/** A JSON-RPC result (failing the test when the answer is an error). */
export const resultOf = async (response: Response): Promise<Record<string, unknown>> => {
  const body = await jsonOf(response)
  if (!("result" in body)) throw new Error(`expected a result, got ${JSON.stringify(body)}`)
  return body.result as Record<string, unknown>
}

/** A JSON-RPC error object. */
export const errorOf = async (response: Response): Promise<{ code: number; message: string; data?: unknown }> => {
  const body = await jsonOf(response)
  if (!("error" in body)) throw new Error(`expected an error, got ${JSON.stringify(body)}`)
  return body.error as { code: number; message: string; data?: unknown }
}

/** A `POST /v1/tools/<name>` with a bearer token and a body given as text or JSON (omitted when undefined). */
export const restCall = (base: string, name: string, body: unknown, token: string | undefined): Request =>
  new Request(`${base}/v1/tools/${name}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  })
