import { type Context, Effect, Metric, MetricLabel } from "effect"
import type { RateLimiter } from "./ports.js"

/** Refused takes of every rate limit, by `limit`: the part of the limiter's key before its first `:`. */
export const rateLimitRefusals = Metric.counter("svc_rate_limit_refusals_total", {
  description: "Requests refused by a rate limit, by limit (tools, store-sales-minute, oauth, connect, ...)",
  incremental: true
})

// The label sets, made once per limit: a key carries a caller or a workspace after its prefix, the label never does.
const labelsByLimit = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
const limitOf = (key: string): string => {
  const end = key.indexOf(":")
  return end === -1 ? key : key.slice(0, end)
}
const labelsOf = (limit: string): ReadonlyArray<MetricLabel.MetricLabel> => {
  let labels = labelsByLimit.get(limit)
  if (labels === undefined) {
    labels = [MetricLabel.make("limit", limit)]
    labelsByLimit.set(limit, labels)
  }
  return labels
}

/**
 * `limiter` with each refusal counted in {@link rateLimitRefusals}; every adapter of the port wraps itself in it, so a
 * refusal is counted whoever asked (a tool call, a sale, a sign-in).
 */
export const countingRefusals = (limiter: Context.Tag.Service<RateLimiter>): Context.Tag.Service<RateLimiter> => ({
  take: (key, limit, windowMs) =>
    Effect.tap(limiter.take(key, limit, windowMs), (decision) =>
      decision.allowed
        ? Effect.void
        : Metric.increment(Metric.taggedWithLabels(rateLimitRefusals, labelsOf(limitOf(key))))
    )
})
