/** Calls tools through the real ToolServer, for the library tests. */
import type { Principal } from "@svc/core/auth"
import { type ToolAnswer, ToolServer } from "@svc/core/tools"
import { Effect } from "effect"

/** A tool answer with its fields open for reading in tests. */
export type Answer = ToolAnswer & Record<string, unknown>

/** Calls one tool as `principal`. */
export const call = (principal: Principal, name: string, args: unknown) =>
  Effect.flatMap(ToolServer, (server) => server.call(principal, name, args)) as Effect.Effect<
    Answer,
    unknown,
    ToolServer
  >

/** Calls one tool and answers its success body, failing the test on a tool failure. */
export const ok = <A = Record<string, unknown>>(principal: Principal, name: string, args: unknown) =>
  Effect.flatMap(call(principal, name, args), (answer) =>
    answer.ok === true
      ? Effect.succeed(answer as unknown as A)
      : Effect.dieMessage(`${name} failed: ${JSON.stringify(answer)}`)
  )
