import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FACES, type Face, sendVia, TestApp, type WebHandler } from "../support/app.js"
import { DEFECT_DETAIL, dyingToolName, toolThatDies } from "../support/defect-tool.js"
import { errorOf, mcpPost, rpc } from "./requests.js"

/** The real core with a 2 KiB body cap, so the 413 rule is cheap to reach, and one tool that dies (see defect-tool.ts). */
const app = TestApp.layerWith({ settings: { maxBodyBytes: 2048 }, extraTools: toolThatDies })

/** What a transport test needs: the handler, its public base URL and the API key of a fresh account. */
interface Transport {
  readonly send: WebHandler
  readonly base: string
  readonly token: string
}

/** Runs async test bodies against this file's service, served as `face`, each with a key of its own. */
const transportOver = (face: Face) => (body: (transport: Transport) => Promise<void>) =>
  Effect.gen(function* () {
    const app = yield* TestApp
    const { token } = yield* app.signUp()
    yield* Effect.promise(() => body({ send: sendVia(app, face), base: app.url, token }))
  })

const ping = rpc("ping")

layer(app, { excludeTestServices: true, timeout: "60 seconds" })((it) => {
  for (const face of FACES) {
    const withTransport = transportOver(face)
    describe(`POST /mcp transport rules (${face})`, () => {
      it.effect("answers GET and DELETE with 405 and Allow: POST", () =>
        withTransport(async ({ send, base, token }) => {
          for (const method of ["GET", "DELETE"]) {
            const response = await send(
              new Request(`${base}/mcp`, { method, headers: { authorization: `Bearer ${token}` } })
            )
            expect(response.status).toBe(405)
            expect(response.headers.get("allow")).toBe("POST")
          }
        })
      )

      it.effect("refuses an Origin that is not allowed with 403, before looking at the token", () =>
        withTransport(async ({ send, base }) => {
          const response = await send(mcpPost(base, ping, { headers: { origin: "https://evil.example" } }))
          expect(response.status).toBe(403)
        })
      )

      it.effect("lets through the public origin and local development origins on any port", () =>
        withTransport(async ({ send, base, token }) => {
          for (const origin of [base, "http://localhost:6274", "http://127.0.0.1:3000"]) {
            const response = await send(mcpPost(base, ping, { token, headers: { origin } }))
            expect(response.status).toBe(200)
          }
        })
      )

      it.scoped("takes a configured Origin allow-list instead of the defaults, with :* for any port", () =>
        Effect.gen(function* () {
          const { makeHandler, url: base, signUp } = yield* TestApp
          const send = yield* makeHandler({
            settings: { allowedOrigins: ["https://app.example.com", "http://localhost:*"] }
          })
          const { token } = yield* signUp()
          const statusFor = (origin: string) =>
            Effect.promise(() => send(mcpPost(base, ping, { token, headers: { origin } })).then((r) => r.status))
          expect(yield* statusFor("https://app.example.com")).toBe(200)
          expect(yield* statusFor("http://localhost:6274")).toBe(200)
          expect(yield* statusFor("https://app.example.com:8443")).toBe(403)
          expect(yield* statusFor(base)).toBe(403)
          expect(yield* Effect.promise(() => send(mcpPost(base, ping, { token })).then((r) => r.status))).toBe(200)
        })
      )

      it.effect("needs application/json or */* in Accept (406), and takes a missing Accept as anything", () =>
        withTransport(async ({ send, base, token }) => {
          expect((await send(mcpPost(base, ping, { token, headers: { accept: "text/event-stream" } }))).status).toBe(
            406
          )
          expect((await send(mcpPost(base, ping, { token, headers: { accept: "*/*" } }))).status).toBe(200)
          expect((await send(mcpPost(base, ping, { token, headers: { accept: undefined } }))).status).toBe(200)
        })
      )

      it.effect("needs Content-Type application/json (415)", () =>
        withTransport(async ({ send, base, token }) => {
          expect((await send(mcpPost(base, ping, { token, headers: { "content-type": "text/plain" } }))).status).toBe(
            415
          )
          const charset = await send(
            mcpPost(base, ping, { token, headers: { "content-type": "application/json; charset=utf-8" } })
          )
          expect(charset.status).toBe(200)
        })
      )

      it.effect("refuses a body over the cap with 413, whether Content-Length announces it or not", () =>
        withTransport(async ({ send, base, token }) => {
          const big = { ...ping, params: { padding: "x".repeat(4096) } }
          if (face === "platform router") {
            // The web handler believes the header; nothing is read past it.
            const announced = await send(mcpPost(base, ping, { token, headers: { "content-length": "5000" } }))
            expect(announced.status).toBe(413)
            const unannounced = await send(mcpPost(base, big, { token }))
            expect(unannounced.status).toBe(413)
          } else {
            // Over the network fetch announces a text body's length, and streams a stream's body chunked.
            const announced = await send(mcpPost(base, big, { token }))
            expect(announced.status).toBe(413)
            // `duplex` is Node's (undici's) request option; the DOM's RequestInit does not name it.
            const streamed: RequestInit & { readonly duplex: "half" } = {
              method: "POST",
              headers: mcpPost(base, big, { token }).headers,
              body: new Blob([JSON.stringify(big)]).stream(),
              duplex: "half"
            }
            const chunked = new Request(`${base}/mcp`, streamed)
            expect(chunked.headers.get("content-length")).toBeNull()
            const unannounced = await send(chunked)
            expect(unannounced.status).toBe(413)
          }
        })
      )

      it.effect("refuses an unsupported MCP-Protocol-Version header with 400 and lists the versions it speaks", () =>
        withTransport(async ({ send, base, token }) => {
          const response = await send(mcpPost(base, ping, { token, headers: { "mcp-protocol-version": "1999-01-01" } }))
          expect(response.status).toBe(400)
          const error = await errorOf(response)
          expect(error.code).toBe(-32022)
          expect(error.data).toMatchObject({
            requested: "1999-01-01",
            supported: expect.arrayContaining(["2025-11-25", "2026-07-28"])
          })
        })
      )

      it.effect("answers a missing or wrong bearer token with 401, the resource-metadata challenge and -32001", () =>
        withTransport(async ({ send, base, token }) => {
          const metadata = `resource_metadata="${base}/.well-known/oauth-protected-resource"`
          const missing = await send(mcpPost(base, ping, { token: undefined }))
          expect(missing.status).toBe(401)
          expect(missing.headers.get("www-authenticate")).toBe(`Bearer realm="mcp", ${metadata}`)
          expect((await errorOf(missing)).code).toBe(-32001)
          // A request that carried a token also hears why it was refused (RFC 6750 §3.1).
          for (const wrong of ["not-a-token", `${token}x`]) {
            const response = await send(mcpPost(base, ping, { token: wrong }))
            expect(response.status).toBe(401)
            const challenge = response.headers.get("www-authenticate")
            expect(challenge).toMatch(/^Bearer realm="mcp", /)
            expect(challenge).toContain('error="invalid_token"')
            expect(challenge).toContain(metadata)
            expect((await errorOf(response)).code).toBe(-32001)
          }
        })
      )

      it.effect("ignores a token in the query string and reads the Bearer scheme in any case", () =>
        withTransport(async ({ send, base, token }) => {
          const inQuery = mcpPost(base, ping)
          const response = await send(new Request(`${base}/mcp?access_token=${token}`, inQuery))
          expect(response.status).toBe(401)
          const lowerCase = await send(mcpPost(base, ping, { headers: { authorization: `bearer ${token}` } }))
          expect(lowerCase.status).toBe(200)
        })
      )

      it.effect("answers a body that is not JSON with -32700 and HTTP 400", () =>
        withTransport(async ({ send, base, token }) => {
          const response = await send(mcpPost(base, "{not json", { token }))
          expect(response.status).toBe(400)
          expect(await errorOf(response)).toMatchObject({ code: -32700 })
        })
      )

      it.effect("refuses batches and broken envelopes with -32600", () =>
        withTransport(async ({ send, base, token }) => {
          const batch = await send(mcpPost(base, [ping, rpc("ping", undefined, 2)], { token }))
          expect(batch.status).toBe(400)
          expect((await errorOf(batch)).code).toBe(-32600)
          const noVersion = await send(mcpPost(base, { id: 7, method: "ping" }, { token }))
          expect(noVersion.status).toBe(400)
          expect(await noVersion.json()).toMatchObject({ id: 7, error: { code: -32600 } })
        })
      )

      it.effect("acknowledges notifications (and stray responses) with 202 and an empty body", () =>
        withTransport(async ({ send, base, token }) => {
          for (const message of [
            { jsonrpc: "2.0", method: "notifications/initialized" },
            { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
            { jsonrpc: "2.0", id: 3, result: {} }
          ]) {
            const response = await send(mcpPost(base, message, { token }))
            expect(response.status).toBe(202)
            expect(await response.text()).toBe("")
          }
        })
      )

      it.effect("answers JSON, never an event stream, and never issues a session id", () =>
        withTransport(async ({ send, base, token }) => {
          const initialize = rpc("initialize", {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "1" }
          })
          const response = await send(mcpPost(base, initialize, { token }))
          expect(response.status).toBe(200)
          expect(response.headers.get("content-type")).toMatch(/^application\/json/)
          expect(response.headers.get("mcp-session-id")).toBeNull()
        })
      )

      it.effect("turns a defect into -32603 with a request id and no internals", () =>
        Effect.flatMap(dyingToolName, (name) =>
          withTransport(async ({ send, base, token }) => {
            const response = await send(mcpPost(base, rpc("tools/call", { name, arguments: {} }), { token }))
            expect(response.status).toBe(500)
            const text = await response.text()
            expect(text).not.toContain(DEFECT_DETAIL)
            const { error } = JSON.parse(text) as { error: { code: number; message: string } }
            expect(error.code).toBe(-32603)
            expect(error.message).toMatch(/internal error \(request id [0-9a-f-]{36}\)/)
          })
        )
      )
    })
  }
})
