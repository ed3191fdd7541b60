import { SqlClient } from "@effect/sql"
import { RateLimiter } from "@svc/core"
import { Clock, Effect, Layer } from "effect"

/** `RateLimiter` in PostgreSQL: exact across any number of server instances sharing the database. */
export const RateLimiterSql = Layer.effect(
  RateLimiter,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      take: (key, limit, windowMs) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const rows = yield* sql<{ readonly wait: number | string }>`
            SELECT svc_rate_limit_take(${key}, ${now}, ${limit}, ${windowMs}) AS wait`
          const wait = Number(rows[0]?.wait ?? 0)
          return { allowed: wait === 0, retryAfterMs: wait }
        }).pipe(Effect.orDie, Effect.withSpan("RateLimiter.take"))
    }
  })
)
