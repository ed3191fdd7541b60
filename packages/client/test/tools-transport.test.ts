/**
 * The tools client's waiting, deadlines and refusals, against a local HTTP server that answers as scripted: the
 * real server's rate limit lasts a minute, and it never holds a request open or answers with an event stream.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { SvcConnectionError, SvcTimeoutError } from "../src/http/request.js"
import { createToolClient, TOOL_NAMES, ToolCallError } from "../src/tools/index.js"

type Script = (request: IncomingMessage, body: string, response: ServerResponse) => void

let script: Script = (_request, _body, response) => response.end()
const received: Array<{ readonly path: string; readonly body: string; readonly at: number }> = []
const server = createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString()
  })
  request.on("end", () => {
    received.push({ path: request.url ?? "", body, at: Date.now() })
    script(request, body, response)
  })
})
let baseUrl = ""

beforeAll(async () => {
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((closed) => server.close(closed))
})

const answerJson = (response: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify(body))
}

const success = { ok: true, workspaces: [] }

/** Answers as svc does on either face: the tool's answer, or the rate limit with `Retry-After`. */
const answer = (request: IncomingMessage, body: string, response: ServerResponse, limited: boolean) => {
  const retryAfter = { "retry-after": "1" }
  if (request.url === "/mcp") {
    const { id } = JSON.parse(body) as { id: number }
    if (limited) {
      return answerJson(
        response,
        429,
        { jsonrpc: "2.0", id, error: { code: -32000, message: "slow down", data: { retryAfterSeconds: 1 } } },
        retryAfter
      )
    }
    return answerJson(response, 200, { jsonrpc: "2.0", id, result: { content: [], structuredContent: success } })
  }
  if (limited) return answerJson(response, 429, { ok: false, status: "rate-limited", message: "slow down" }, retryAfter)
  return answerJson(response, 200, success)
}

const transports = ["rest", "mcp"] as const

describe("the tools client's transports", () => {
  it("has one method per tool, and no `then`, so awaiting the client gives the client", async () => {
    const client = createToolClient({ baseUrl, token: "t" })
    for (const name of TOOL_NAMES) expect(typeof client[name]).toBe("function")
    expect("then" in client).toBe(false)
    expect(await Promise.resolve(client)).toBe(client)
  })

  describe.each(transports)("over %s", (transport) => {
    it("waits out a 429 for its Retry-After and sends the call again", async () => {
      received.length = 0
      script = (request, body, response) => answer(request, body, response, received.length === 1)
      const client = createToolClient({ baseUrl, token: "t", transport, retry: { attempts: 2, maxDelayMs: 2_000 } })
      expect(await client.svc_list_workspaces()).toEqual(success)
      expect(received).toHaveLength(2)
      const [first, second] = received
      expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950)
      expect(second?.body).toBe(first?.body)
    })

    it("fails with rate-limited once the retries are spent", async () => {
      received.length = 0
      script = (request, body, response) => answer(request, body, response, true)
      const client = createToolClient({ baseUrl, token: "t", transport, retry: { attempts: 1, maxDelayMs: 2_000 } })
      const error = await client.svc_list_workspaces().catch((rejected: unknown) => rejected)
      expect(error).toBeInstanceOf(ToolCallError)
      expect(error).toMatchObject({ tool: "svc_list_workspaces", status: "rate-limited", httpStatus: 429 })
      expect(received).toHaveLength(2)
    })

    it("fails with rate-limited at once when Retry-After is longer than the budget allows", async () => {
      received.length = 0
      script = (request, body, response) => answer(request, body, response, true)
      const client = createToolClient({ baseUrl, token: "t", transport, retry: { maxDelayMs: 500 } })
      await expect(client.svc_list_workspaces()).rejects.toMatchObject({ status: "rate-limited" })
      expect(received).toHaveLength(1)
    })

    it("fails with SvcTimeoutError when the server holds the call past the deadline", async () => {
      script = () => {} // never answers
      const client = createToolClient({ baseUrl, token: "t", transport, timeoutMs: 200 })
      const started = Date.now()
      await expect(client.svc_list_workspaces()).rejects.toBeInstanceOf(SvcTimeoutError)
      expect(Date.now() - started).toBeLessThan(2_000)
    })

    it("rejects with the signal's reason when the caller aborts", async () => {
      script = () => {}
      const client = createToolClient({ baseUrl, token: "t", transport })
      const controller = new AbortController()
      const reason = new Error("the user left")
      const call = client.svc_list_workspaces({}, { signal: controller.signal })
      setTimeout(() => controller.abort(reason), 50)
      await expect(call).rejects.toBe(reason)
    })
  })

  it("refuses an MCP answer sent as an event stream with a clear SvcConnectionError", async () => {
    script = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" })
      response.write("event: message\n")
      // The stream stays open: the client must not wait for its end.
    }
    const client = createToolClient({ baseUrl, token: "t", transport: "mcp", timeoutMs: 5_000 })
    const error = await client.svc_list_workspaces().catch((rejected: unknown) => rejected)
    expect(error).toBeInstanceOf(SvcConnectionError)
    expect(String(error)).toContain("text/event-stream")
  })

  it("sends the stateless MCP revision's tools/call with the arguments", async () => {
    received.length = 0
    let headers: IncomingMessage["headers"] = {}
    script = (request, body, response) => {
      headers = request.headers
      answer(request, body, response, false)
    }
    await createToolClient({ baseUrl, token: "key", transport: "mcp" }).svc_create_note({ markdown: "m" })
    expect(headers).toMatchObject({ authorization: "Bearer key", "mcp-protocol-version": "2026-07-28" })
    expect(headers.accept).toContain("text/event-stream")
    expect(JSON.parse(received[0]?.body ?? "")).toMatchObject({
      jsonrpc: "2.0",
      method: "tools/call",
      params: { name: "svc_create_note", arguments: { markdown: "m" } }
    })
  })
})
