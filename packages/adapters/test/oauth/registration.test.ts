/**
 * Dynamic client registration (RFC 7591) and the discovery documents, over HTTP: redirect URI rules,
 * defaults, ignored unknown fields, CORS for browser-based clients, and the per-caller rate limit
 * (the last test here, as it uses up this file's allowance).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { register } from "./support.js"

const client = (redirectUris: ReadonlyArray<string>, extra: Record<string, unknown> = {}) => ({
  client_name: "Registrar",
  redirect_uris: redirectUris,
  token_endpoint_auth_method: "none",
  ...extra
})

layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
  describe("discovery documents", () => {
    it.effect(
      "serve RFC 8414 and RFC 9728 documents to any origin, with preflights allowing mcp-protocol-version",
      () =>
        Effect.gen(function* () {
          const app = yield* TestApp
          yield* Effect.promise(async () => {
            for (const path of [
              "/.well-known/oauth-authorization-server",
              "/.well-known/oauth-protected-resource",
              "/.well-known/oauth-protected-resource/mcp",
              "/.well-known/oauth-protected-resource/store-app/v1"
            ]) {
              const response = await fetch(`${app.url}${path}`, { headers: { origin: "https://claude.ai" } })
              expect(response.status).toBe(200)
              expect(response.headers.get("access-control-allow-origin")).toBe("*")
              const preflight = await fetch(`${app.url}${path}`, {
                method: "OPTIONS",
                headers: { origin: "https://claude.ai", "access-control-request-headers": "mcp-protocol-version" }
              })
              expect(preflight.status).toBe(204)
              expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version")
            }
            const mcp = (await (await fetch(`${app.url}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<
              string,
              unknown
            >
            expect(mcp).toMatchObject({
              resource: `${app.url}/mcp`,
              authorization_servers: [app.url],
              scopes_supported: ["read", "write"]
            })
            const store = (await (
              await fetch(`${app.url}/.well-known/oauth-protected-resource/store-app/v1`)
            ).json()) as Record<string, unknown>
            expect(store).toMatchObject({
              resource: `${app.url}/store-app/v1`,
              authorization_servers: [app.url],
              scopes_supported: ["store", "read", "write"]
            })
          })
        })
    )
  })

  describe("registration", () => {
    it.effect("answers 201 with the metadata, a client id and its issue time; public clients get no secret", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const { status, body } = yield* Effect.promise(() =>
          register(
            app.url,
            client(["cursor://anysphere.cursor-retrieval/oauth/callback"], { software_id: "ignored", logo_uri: 7 })
          )
        )
        expect(status).toBe(201)
        expect(body).toMatchObject({
          client_name: "Registrar",
          redirect_uris: ["cursor://anysphere.cursor-retrieval/oauth/callback"],
          token_endpoint_auth_method: "none",
          grant_types: ["authorization_code"],
          response_types: ["code"]
        })
        expect(String(body.client_id)).toMatch(/^client_/)
        expect(typeof body.client_id_issued_at).toBe("number")
        expect(body.client_secret).toBeUndefined()
        expect(body.software_id).toBeUndefined()
      })
    )

    it.effect("gives a confidential client (the RFC 7591 default method) a secret that never expires", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const { status, body } = yield* Effect.promise(() =>
          register(app.url, {
            redirect_uris: ["https://app.example.com/cb"],
            grant_types: ["authorization_code", "refresh_token"]
          })
        )
        expect(status).toBe(201)
        expect(body.token_endpoint_auth_method).toBe("client_secret_basic")
        expect(String(body.client_secret)).toMatch(/^svc_ocs_/)
        expect(body.client_secret_expires_at).toBe(0)
      })
    )

    it.effect.each([
      ["javascript:", "javascript:alert(1)"],
      ["data:", "data:text/html,hi"],
      ["file:", "file:///etc/passwd"],
      ["http on a public host", "http://app.example.com/cb"],
      ["a fragment", "https://app.example.com/cb#frag"],
      ["a relative URI", "/callback"]
    ] as const)("refuses a redirect URI with %s", ([, uri]) =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const { status, body } = yield* Effect.promise(() => register(app.url, client([uri])))
        expect(status).toBe(400)
        expect(body.error).toBe("invalid_redirect_uri")
        expect(typeof body.error_description).toBe("string")
      })
    )

    it.effect("accepts https, loopback http on any port and private-use schemes", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const { status } = yield* Effect.promise(() =>
          register(
            app.url,
            client([
              "https://app.example.com/cb",
              "http://127.0.0.1/cb",
              "http://localhost:3000/cb",
              "http://[::1]:9/cb",
              "vscode://auth/cb"
            ])
          )
        )
        expect(status).toBe(201)
      })
    )

    it.effect("refuses metadata it cannot honour", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        yield* Effect.promise(async () => {
          expect((await register(app.url, client([]))).body.error).toBe("invalid_redirect_uri")
          expect(
            (await register(app.url, client(["https://a.example/cb"], { grant_types: ["implicit"] }))).body.error
          ).toBe("invalid_client_metadata")
          expect(
            (await register(app.url, client(["https://a.example/cb"], { response_types: ["token"] }))).body.error
          ).toBe("invalid_client_metadata")
          expect(
            (
              await register(
                app.url,
                client(["https://a.example/cb"], { token_endpoint_auth_method: "private_key_jwt" })
              )
            ).body.error
          ).toBe("invalid_client_metadata")
          const notJson = await fetch(`${app.url}/oauth/register`, { method: "POST", body: "{" })
          expect(notJson.status).toBe(400)
          // PostgreSQL stores no NUL in text: such a name is refused as metadata, not failed in the database.
          const nul = await register(app.url, client(["https://a.example/cb"], { client_name: "Agent\u0000" }))
          expect(nul.status).toBe(400)
          expect(nul.body).toMatchObject({
            error: "invalid_client_metadata",
            error_description: "client_name must not contain the NUL character (\\u0000)"
          })
          const half = await register(app.url, client(["https://a.example/cb"], { client_name: "Agent\ud800" }))
          expect(half.status).toBe(400)
          expect(half.body).toMatchObject({ error: "invalid_client_metadata" })
          expect(String(half.body.error_description)).toContain("client_name must be well-formed Unicode")
        })
      })
    )

    it.effect("is rate-limited per caller: a flood answers 429 with Retry-After", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const statuses = yield* Effect.promise(async () => {
          const answers: Array<Response> = []
          for (let i = 0; i < 25; i++) {
            answers.push(
              await fetch(`${app.url}/oauth/register`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify(client(["https://a.example/cb"]))
              })
            )
          }
          return answers
        })
        const limited = statuses.find((response) => response.status === 429)
        expect(limited).toBeDefined()
        expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0)
        expect(
          ((yield* Effect.promise(() => limited?.json() ?? Promise.resolve({}))) as { error?: string }).error
        ).toBe("temporarily_unavailable")
      })
    )
  })
})
