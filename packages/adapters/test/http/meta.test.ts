import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"

/** Sends a request for `path` (with `init`) to the test app and answers the response. */
const fetchPath = (path: string, init?: RequestInit) =>
  Effect.flatMap(TestApp, ({ handler, url }) => Effect.promise(() => handler(new Request(`${url}${path}`, init))))

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)

layer(TestApp.layer, { excludeTestServices: true, timeout: "60 seconds" })((it) => {
  describe("health and protected-resource metadata", () => {
    it.effect("reports a stateless server on /health", () =>
      Effect.gen(function* () {
        const response = yield* fetchPath("/health")
        expect(response.status).toBe(200)
        expect(yield* json(response)).toEqual({ ok: true, mode: "stateless" })
      })
    )

    it.effect.each(["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"])(
      "serves the RFC 9728 document at %s to any origin",
      (path) =>
        Effect.gen(function* () {
          const { url } = yield* TestApp
          const response = yield* fetchPath(path, { headers: { origin: "https://claude.ai" } })
          expect(response.status).toBe(200)
          expect(response.headers.get("access-control-allow-origin")).toBe("*")
          expect(yield* json(response)).toEqual({
            resource: `${url}/mcp`,
            authorization_servers: [url],
            bearer_methods_supported: ["header"],
            scopes_supported: ["read", "write"],
            resource_name: "svc"
          })
        })
    )

    it.effect("answers a CORS preflight that asks for the mcp-protocol-version header", () =>
      Effect.gen(function* () {
        const response = yield* fetchPath("/.well-known/oauth-protected-resource", {
          method: "OPTIONS",
          headers: { origin: "https://claude.ai", "access-control-request-headers": "mcp-protocol-version" }
        })
        expect(response.status).toBe(204)
        expect(response.headers.get("access-control-allow-origin")).toBe("*")
        expect(response.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version")
      })
    )
  })
})
