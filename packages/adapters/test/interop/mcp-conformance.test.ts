/**
 * The MCP project's own conformance suite (`@modelcontextprotocol/conformance`) against the server, for the
 * server scenarios that need no fixture tools of the suite's own. The suite cannot send a bearer token, so it
 * talks to a loopback proxy that adds one and passes everything else (Host and Origin included) through
 * untouched, as a client behind a gateway would.
 */
import { execFile } from "node:child_process"
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import { resolve } from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"

const SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"] as const

const conformance = resolve(import.meta.dirname, "../../../../node_modules/.bin/conformance")

/** A loopback proxy to `target` adding `Authorization: Bearer <token>` to every request; closed with the scope. */
const bearerProxy = (target: string, token: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly close: () => void }>((resume) => {
      const server = createServer((incoming, outgoing) => {
        const upstream = request(
          new URL(incoming.url ?? "/", target),
          { method: incoming.method, headers: { ...incoming.headers, authorization: `Bearer ${token}` } },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(outgoing)
          }
        )
        upstream.on("error", () => outgoing.writeHead(502).end())
        incoming.pipe(upstream)
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, close: () => server.close() }))
      })
    }),
    (proxy) => Effect.sync(proxy.close)
  )

const runScenario = (url: string, scenario: string) =>
  Effect.async<{ readonly code: number; readonly output: string }>((resume) => {
    execFile(
      conformance,
      ["server", "--url", url, "--scenario", scenario],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        resume(
          Effect.succeed({
            code: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
            output: `${stdout}${stderr}`
          })
        )
    )
  })

layer(TestApp.layer, { timeout: "120 seconds", excludeTestServices: true })((it) => {
  describe("the MCP conformance suite's server scenarios", () => {
    for (const scenario of SCENARIOS) {
      it.scoped(`passes ${scenario}`, () =>
        Effect.gen(function* () {
          const app = yield* TestApp
          const user = yield* app.signUp()
          const proxy = yield* bearerProxy(app.url, user.token)
          const run = yield* runScenario(`${proxy.url}/mcp`, scenario)
          expect(run.output).toMatch(/0 failed/)
          expect(run.code, run.output).toBe(0)
        })
      )
    }
  })
})
