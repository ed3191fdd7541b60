import { Effect } from "effect"
import { invalid } from "../../shared/errors.js"
import { parseInstant } from "../../shared/list-query.js"

/** The named periods of the overview, in days. */
export const OVERVIEW_PERIODS = { "7d": 7, "30d": 30, "90d": 90, "365d": 365 } as const
export type OverviewPeriod = keyof typeof OVERVIEW_PERIODS

/** What the overview is asked for: a named period ending now, or `[from, to)`. */
export type OverviewRequest =
  | { readonly kind: "named"; readonly period: OverviewPeriod }
  | { readonly kind: "range"; readonly from: Date; readonly to: Date }

/**
 * The overview tool's `period`, `from` and `to` (ISO text) as the request: a named period (default 30d), or both
 * times read. The range's own rules (order, length) are the overview's.
 */
export const readOverviewRequest = (input: {
  readonly period?: OverviewPeriod | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}) =>
  Effect.gen(function* () {
    if (input.from === undefined && input.to === undefined) {
      const named: OverviewRequest = { kind: "named", period: input.period ?? "30d" }
      return named
    }
    if (input.period !== undefined) return yield* invalid("period", "give period, or from and to, not both")
    if (input.from === undefined) return yield* invalid("from", "from is needed with to")
    if (input.to === undefined) return yield* invalid("to", "to is needed with from")
    const from = parseInstant(input.from)
    if (from === undefined) return yield* invalid("from", "from must be an ISO date or time (2026-11-01)")
    const to = parseInstant(input.to)
    if (to === undefined) return yield* invalid("to", "to must be an ISO date or time (2026-12-01)")
    const range: OverviewRequest = { kind: "range", from, to }
    return range
  })
