/**
 * An agent's first write often says "tomorrow" or "next Monday": the MCP instructions it reads before any call
 * carry the date and time they were given at (from `Clock`) and the time zone the tools speak, so it need not guess.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { makeToolGate } from "../../src/http/auth.js"
import { PublicUrl } from "../../src/http/config.js"
import { makeMcpDispatch } from "../../src/http/mcp/dispatch.js"
import type { Reply } from "../../src/http/mcp/protocol.js"
import { signUp, testCoreLayer } from "../support/core.js"

const instructionsOf = (reply: Reply): string => {
  if (typeof reply.body !== "string") throw new Error("initialize and server/discover answer text")
  return (JSON.parse(reply.body) as { result: { instructions: string } }).result.instructions
}

const stateless = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }

layer(Layer.merge(testCoreLayer(), PublicUrl.layer("http://localhost:8787")), { timeout: "60 seconds" })(
  "the date in the MCP instructions",
  (it) => {
    describe("initialize and server/discover", () => {
      it.effect("say the date, weekday and UTC time of the answer, and that times are UTC", () =>
        Effect.gen(function* () {
          const dispatch = yield* makeMcpDispatch(yield* makeToolGate)
          const { principal } = yield* signUp()
          const ask = (method: string, params: Record<string, unknown>) =>
            dispatch({
              principal,
              selection: undefined,
              id: 1,
              method,
              params,
              headerVersion: undefined,
              acceptEncoding: undefined
            })
          yield* TestClock.setTime(Date.UTC(2026, 10, 20, 23, 58))
          const first = instructionsOf(yield* ask("initialize", { protocolVersion: "2025-11-25", capabilities: {} }))
          expect(first).toContain("When this was sent it was Friday 2026-11-20, 23:58 UTC.")
          expect(first).toContain("Answers give times in UTC (ISO 8601)")
          // The rest of the text is kept per served list; the date is not, so it never goes stale with it.
          yield* TestClock.adjust("3 minutes")
          const next = instructionsOf(yield* ask("server/discover", stateless))
          expect(next).toContain("When this was sent it was Saturday 2026-11-21, 00:01 UTC.")
          expect(next.replace(/When this was sent.*$/, "")).toBe(first.replace(/When this was sent.*$/, ""))
        })
      )
    })
  }
)
