import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { errorOf, mcpHeaders, rpc } from "./requests.js"

const MiB = 1024 * 1024

/** `fetch` against the Node server, as a network client sees it. */
const post = (url: string, init: RequestInit & { readonly duplex?: "half" }) =>
  Effect.promise(() => fetch(`${url}/mcp`, { method: "POST", ...init }))

/** A body streamed in chunks, so it travels without Content-Length (chunked encoding). */
const streamed = (bytes: number): ReadableStream<Uint8Array> => {
  const chunk = new TextEncoder().encode(
    `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(64 * 1024)}`
  )
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close()
      controller.enqueue(chunk)
      sent += chunk.byteLength
    }
  })
}

layer(TestApp.layer, { timeout: "60 seconds", excludeTestServices: true })((it) => {
  describe("POST /mcp transport rules over the network", () => {
    it.effect("405 for GET and DELETE, with Allow: POST", () =>
      Effect.gen(function* () {
        const { url } = yield* TestApp
        for (const method of ["GET", "DELETE"]) {
          const response = yield* Effect.promise(() => fetch(`${url}/mcp`, { method }))
          expect(response.status).toBe(405)
          expect(response.headers.get("allow")).toBe("POST")
        }
      })
    )

    it.effect("403 for a foreign Origin, 406 without JSON in Accept, 415 without a JSON Content-Type", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp()
        const body = JSON.stringify(rpc("ping"))
        const foreign = yield* post(url, {
          headers: { ...mcpHeaders(token), origin: "https://attacker.example" },
          body
        })
        expect(foreign.status).toBe(403)
        const sse = yield* post(url, { headers: { ...mcpHeaders(token), accept: "text/event-stream" }, body })
        expect(sse.status).toBe(406)
        const form = yield* post(url, {
          headers: { ...mcpHeaders(token), "content-type": "application/x-www-form-urlencoded" },
          body
        })
        expect(form.status).toBe(415)
        const fine = yield* post(url, { headers: { ...mcpHeaders(token), origin: url }, body })
        expect(fine.status).toBe(200)
      })
    )

    it.effect("413 for a body over 1 MiB, announced by Content-Length or streamed without one", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp()
        const announced = yield* post(url, { headers: mcpHeaders(token), body: "x".repeat(MiB + 1) })
        expect(announced.status).toBe(413)
        const chunked = yield* post(url, {
          headers: mcpHeaders(token),
          body: streamed(MiB + 64 * 1024),
          duplex: "half"
        })
        expect(chunked.status).toBe(413)
      })
    )

    it.effect("400 for an unsupported MCP-Protocol-Version header, 401 with the challenge without a bearer", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp()
        const body = JSON.stringify(rpc("ping"))
        const old = yield* post(url, { headers: { ...mcpHeaders(token), "mcp-protocol-version": "2024-01-01" }, body })
        expect(old.status).toBe(400)
        const anonymous = yield* post(url, { headers: mcpHeaders(undefined), body })
        expect(anonymous.status).toBe(401)
        expect(anonymous.headers.get("www-authenticate")).toBe(
          `Bearer realm="mcp", resource_metadata="${url}/.well-known/oauth-protected-resource"`
        )
        expect((yield* Effect.promise(() => errorOf(anonymous))).code).toBe(-32001)
        const inQuery = yield* Effect.promise(() =>
          fetch(`${url}/mcp?access_token=${token}`, { method: "POST", headers: mcpHeaders(undefined), body })
        )
        expect(inQuery.status).toBe(401)
      })
    )

    it.effect("-32700 for bad JSON, -32600 for a batch, 202 for a notification, no session id ever", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp()
        const broken = yield* post(url, { headers: mcpHeaders(token), body: '{"jsonrpc":' })
        expect(broken.status).toBe(400)
        expect((yield* Effect.promise(() => errorOf(broken))).code).toBe(-32700)
        const batch = yield* post(url, { headers: mcpHeaders(token), body: JSON.stringify([rpc("ping")]) })
        expect((yield* Effect.promise(() => errorOf(batch))).code).toBe(-32600)
        const note = yield* post(url, {
          headers: mcpHeaders(token),
          body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
        })
        expect(note.status).toBe(202)
        expect(yield* Effect.promise(() => note.text())).toBe("")
        const init = yield* post(url, {
          headers: mcpHeaders(token),
          body: JSON.stringify(
            rpc("initialize", {
              protocolVersion: "2025-11-25",
              capabilities: {},
              clientInfo: { name: "t", version: "1" }
            })
          )
        })
        expect(init.headers.get("mcp-session-id")).toBeNull()
        expect(init.headers.get("content-type")).toMatch(/^application\/json/)
      })
    )
  })
})
