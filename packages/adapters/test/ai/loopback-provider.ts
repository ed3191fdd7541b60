import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** One request the loopback provider received. */
export interface SeenRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: unknown
}

export type Route = (request: SeenRequest, response: ServerResponse) => void

/**
 * A language-model provider on loopback: each route answers in the documented wire format of its API, and every
 * request is kept so a test can check what was sent.
 */
export const startLoopbackProvider = async (routes: Record<string, Route>) => {
  const seen: Array<SeenRequest> = []
  const open = new Set<ServerResponse>()
  const server: Server = createServer((request, response) => {
    let text = ""
    request.on("data", (chunk: Buffer) => {
      text += chunk.toString()
    })
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://loopback").pathname
      const body: unknown = text.length > 0 ? JSON.parse(text) : undefined
      const seenRequest = { method: request.method ?? "GET", path, headers: request.headers, body }
      seen.push(seenRequest)
      open.add(response)
      response.on("close", () => open.delete(response))
      const route = routes[`${request.method} ${path}`]
      if (route === undefined) {
        response.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"no such route"}}')
        return
      }
      route(seenRequest, response)
    })
  })
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((closed) => {
        for (const response of open) response.destroy()
        server.closeAllConnections()
        server.close(() => closed())
      })
  }
}

/** Answers with JSON and a status. */
export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Route =>
  (_request, response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body))
  }
