import { countingRefusals, RateLimiter } from "@svc/core/limits"
import { Clock, Effect, Layer } from "effect"
import { LeanSql } from "./lean.js"
import { withSpan } from "@svc/core/shared"

/** `RateLimiter` in PostgreSQL: exact across any number of server instances sharing the database. */
export const RateLimiterSql = Layer.effect(
  RateLimiter,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return countingRefusals({
      // Taken on every tool call of a limited credential: its span captures no stack trace.
      take: (key, limit, windowMs) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const rows = yield* lean<{ readonly wait: number | string }>`
            SELECT svc_rate_limit_take(${key}, ${now}, ${limit}, ${windowMs}) AS wait`
          const wait = Number(rows[0]?.wait ?? 0)
          return { allowed: wait === 0, retryAfterMs: wait }
        }).pipe(Effect.orDie, withSpan("RateLimiter.take", { captureStackTrace: false }))
    })
  })
)
