import { Effect } from "effect"
import type { Principal } from "../auth/schema.js"
import { creditsOf, RESEARCH_TOOL_COSTS } from "../credits/costs.js"
import { Credits } from "../credits/service.js"
import { Ids } from "../shared/ports.js"

/**
 * Charges research calls: each outside-data tool costs its price in the credits ledger before it asks anything, and
 * the charge is released when the call fails, so a failed call costs nothing. Reading one's own library is free.
 */
export const makeResearchCharging = Effect.gen(function* () {
  const credits = yield* Credits
  const ids = yield* Ids

  /** Runs `work` as a charged call of `tool`; its answer gains `creditsCharged`. */
  const charged = <A extends object, E, R>(tool: string, principal: Principal, work: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const tenths = RESEARCH_TOOL_COSTS[tool] ?? 0
      const callId = yield* ids.make("rsc_")
      yield* credits.charge({ accountId: principal.accountId, callId, tenths, reason: `research: ${tool}` })
      const answer = yield* work.pipe(
        Effect.onError(() => (tenths === 0 ? Effect.void : credits.release(principal.accountId, callId)))
      )
      return { ...answer, creditsCharged: creditsOf(tenths) }
    })

  return { charged } as const
})
