import { Context, type Effect } from "effect"

/** The answer to one request for a slot. */
export interface RateDecision {
  readonly allowed: boolean
  /** When refused: how long until a slot frees up. */
  readonly retryAfterMs: number
}

/**
 * Sliding-window rate limits: at most `limit` takes per `windowMs` for one key, counted
 * exactly (a log of the last `limit` takes), so no burst at a window edge gets through.
 */
export class RateLimiter extends Context.Tag("svc/limits/RateLimiter")<
  RateLimiter,
  {
    readonly take: (key: string, limit: number, windowMs: number) => Effect.Effect<RateDecision>
  }
>() {}
