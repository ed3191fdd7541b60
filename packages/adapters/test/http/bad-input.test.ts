import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DEFAULT_MAX_BODY_BYTES } from "../../src/http/index.js"
import { FACES, sendVia, TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { jsonOf, mcpHeaders, rpc } from "./requests.js"

/** `{"markdown":"Bo??b"}` with the two `?` replaced by bytes that are not UTF-8 (the probe's `Bo\uFFFD\uFFFDb`). */
const notUtf8 = (json: string): Uint8Array<ArrayBuffer> => {
  const bytes = new TextEncoder().encode(json)
  const at = bytes.indexOf(0x3f)
  bytes.set([0xff, 0xfe], at)
  return bytes
}

const post = (url: string, headers: Record<string, string>, body: string | Uint8Array<ArrayBuffer> | undefined) =>
  new Request(url, { method: "POST", headers, ...(body === undefined ? {} : { body }) })

layer(TestApp.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `bad input on every face (${engineName})`,
  (it) => {
    for (const face of FACES) {
      describe(`the tool faces (${face})`, () => {
        it.effect("REST requires JSON: text/plain or no type with a body answers 415; no body needs no type", () =>
          Effect.gen(function* () {
            const app = yield* TestApp
            const { token } = yield* app.signUp()
            const send = sendVia(app, face)
            const url = `${app.url}/v1/tools/svc_create_note`
            const auth = { authorization: `Bearer ${token}` }
            const body = JSON.stringify({ markdown: "# typed?" })
            for (const headers of [{ ...auth, "content-type": "text/plain" }, auth]) {
              const refused = yield* Effect.promise(() => send(post(url, headers, new TextEncoder().encode(body))))
              expect(refused.status).toBe(415)
              expect(yield* Effect.promise(() => jsonOf(refused))).toEqual({
                ok: false,
                status: "invalid",
                message: expect.stringContaining("Content-Type: application/json")
              })
            }
            // No body at all: nothing to type; the tool answers (here: its required field is missing).
            const empty = yield* Effect.promise(() => send(post(url, auth, undefined)))
            expect(empty.status).toBe(422)
            const typed = yield* Effect.promise(() =>
              send(post(url, { ...auth, "content-type": "application/json; charset=utf-8" }, body))
            )
            expect(typed.status).toBe(200)
          })
        )

        it.effect("REST and MCP quote at most a short excerpt of a bad value, a field name or a tool name", () =>
          Effect.gen(function* () {
            const app = yield* TestApp
            const { token } = yield* app.signUp()
            const send = sendVia(app, face)
            const huge = "q".repeat(600_000)
            const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
            const answers = yield* Effect.promise(() =>
              Promise.all([
                send(post(`${app.url}/v1/tools/svc_create_note`, headers, JSON.stringify({ markdown: 7, [huge]: 1 }))),
                send(post(`${app.url}/v1/tools/svc_get_note_markdown`, headers, JSON.stringify({ noteId: huge }))),
                send(
                  post(
                    `${app.url}/mcp`,
                    mcpHeaders(token),
                    JSON.stringify(rpc("tools/call", { name: huge, arguments: {} }))
                  )
                ),
                send(post(`${app.url}/mcp`, mcpHeaders(token), JSON.stringify(rpc(huge))))
              ])
            )
            expect(answers.map((answer) => answer.status)).toEqual([422, expect.any(Number), 200, 200])
            for (const answer of answers) {
              const text = yield* Effect.promise(() => answer.text())
              expect(text.length).toBeLessThan(2_000)
              expect(text).not.toContain("q".repeat(130))
            }
          })
        )

        it.effect("REST and MCP refuse a body that is not UTF-8 with 400", () =>
          Effect.gen(function* () {
            const app = yield* TestApp
            const { token } = yield* app.signUp()
            const send = sendVia(app, face)
            const rest = yield* Effect.promise(() =>
              send(
                post(
                  `${app.url}/v1/tools/svc_create_note`,
                  { authorization: `Bearer ${token}`, "content-type": "application/json" },
                  notUtf8('{"markdown":"Bo??b"}')
                )
              )
            )
            expect(rest.status).toBe(400)
            expect(yield* Effect.promise(() => jsonOf(rest))).toEqual({
              ok: false,
              status: "invalid",
              message: "the request body is not UTF-8 text"
            })
            const mcp = yield* Effect.promise(() =>
              send(
                post(
                  `${app.url}/mcp`,
                  mcpHeaders(token),
                  notUtf8(
                    JSON.stringify(rpc("tools/call", { name: "svc_create_note", arguments: { markdown: "Bo??b" } }))
                  )
                )
              )
            )
            expect(mcp.status).toBe(400)
            expect(JSON.stringify(yield* Effect.promise(() => jsonOf(mcp)))).toContain("not UTF-8 text")
          })
        )
      })
    }

    describe("the store API on the Node server", () => {
      it.effect("refuses a body that is not UTF-8 (400), too large (413) or nested too deep (422), never a 500", () =>
        Effect.gen(function* () {
          const app = yield* TestApp
          const { token } = yield* app.signUp({ plan: "starter" })
          const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
          const url = `${app.url}/store-app/v1/customers`
          const broken = yield* Effect.promise(() =>
            fetch(post(url, headers, notUtf8('{"product":"p","email":"bob@example.com","name":"Bo??b"}')))
          )
          expect(broken.status).toBe(400)
          expect(yield* Effect.promise(() => jsonOf(broken))).toEqual({
            ok: false,
            error: "bad_request",
            message: "the request body is not UTF-8 text"
          })
          const large = yield* Effect.promise(() =>
            fetch(post(url, headers, `{"name":"${"x".repeat(DEFAULT_MAX_BODY_BYTES)}"}`))
          )
          expect(large.status).toBe(413)
          expect(yield* Effect.promise(() => jsonOf(large))).toMatchObject({
            ok: false,
            error: "payload_too_large",
            message: expect.stringContaining(`${DEFAULT_MAX_BODY_BYTES} bytes`)
          })
          const deep = yield* Effect.promise(() =>
            fetch(post(`${app.url}/store-app/v1/sales`, headers, `{"name":${"[".repeat(10_000)}${"]".repeat(10_000)}}`))
          )
          expect(deep.status).toBe(422)
          expect(yield* Effect.promise(() => jsonOf(deep))).toMatchObject({ ok: false, error: "invalid_field" })
          // A well-formed body sent in chunks (no Content-Length) is read and decoded as before.
          const chunked = yield* Effect.promise(() =>
            fetch(url, {
              method: "POST",
              headers,
              body: new ReadableStream({
                start(controller) {
                  controller.enqueue(new TextEncoder().encode('{"product":"prod_missing",'))
                  controller.enqueue(new TextEncoder().encode('"email":"bob@example.com","name":"Bo\u00e9b"}'))
                  controller.close()
                }
              }),
              duplex: "half"
            } as RequestInit)
          )
          expect(chunked.status).toBe(200)
          expect(yield* Effect.promise(() => jsonOf(chunked))).toMatchObject({
            ok: false,
            status: "rejected",
            reason: "product_not_found"
          })
          // The server still answers well-formed calls on the same port.
          const me = yield* Effect.promise(() => fetch(`${app.url}/store-app/v1/me`, { headers }))
          expect(me.status).toBe(200)
        })
      )
    })

    describe("the OAuth endpoints", () => {
      it.effect("refuse a registration or a token form that is not UTF-8 with 400, saying so", () =>
        Effect.gen(function* () {
          const app = yield* TestApp
          const registered = yield* Effect.promise(() =>
            fetch(
              post(
                `${app.url}/oauth/register`,
                { "content-type": "application/json" },
                notUtf8('{"client_name":"Bo??b","redirect_uris":["http://127.0.0.1:9/cb"]}')
              )
            )
          )
          expect(registered.status).toBe(400)
          expect(yield* Effect.promise(() => jsonOf(registered))).toMatchObject({
            error: "invalid_client_metadata",
            error_description: "the request body is not UTF-8 text"
          })
          const token = yield* Effect.promise(() =>
            fetch(
              post(
                `${app.url}/oauth/token`,
                { "content-type": "application/x-www-form-urlencoded" },
                notUtf8("grant_type=authorization_code&code=Bo??b")
              )
            )
          )
          expect(token.status).toBe(400)
          expect(yield* Effect.promise(() => jsonOf(token))).toMatchObject({
            error: "invalid_request",
            error_description: "the request body is not UTF-8 text"
          })
        })
      )
    })
  }
)
