import { countingRefusals, RateLimiter } from "@svc/core/limits"
import { Clock, Effect, Layer } from "effect"

/** `RateLimiter` in this process's memory: exact, for a single server on the embedded database. */
export const RateLimiterMemory = Layer.sync(RateLimiter, () => {
  // Per key, the times of the last `limit` admitted calls, oldest first.
  const logs = new Map<string, Array<number>>()
  let sweepAt = 0
  return countingRefusals({
    take: (key, limit, windowMs) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        if (now >= sweepAt) {
          // Forget idle keys now and then, so memory follows active callers, not every caller ever.
          for (const [k, log] of logs) if ((log[log.length - 1] ?? 0) <= now - windowMs) logs.delete(k)
          sweepAt = now + windowMs
        }
        const log = logs.get(key) ?? []
        while (log.length > 0 && (log[0] ?? 0) <= now - windowMs) log.shift()
        if (log.length >= limit) {
          logs.set(key, log)
          return { allowed: false, retryAfterMs: (log[log.length - limit] ?? now) + windowMs - now }
        }
        log.push(now)
        logs.set(key, log)
        return { allowed: true, retryAfterMs: 0 }
      })
  })
})
