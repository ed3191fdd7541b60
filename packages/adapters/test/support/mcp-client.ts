/** The official MCP SDK client, as the end-to-end tests connect it to the test server. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"

/** An official SDK client connected to `<url>/mcp` with a bearer token, closed with the scope. */
export const connectMcpClient = (url: string, token: string, name = "svc-e2e") =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name, version: "1.0.0" })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } }
        })
      )
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )
