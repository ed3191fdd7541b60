import { type Effect, Metric, MetricLabel } from "effect"
import type { FailureStatus } from "./failure.js"

/** Tool calls that answered a tool failure, by `tool` and `status` (one of the seven of the service description). */
export const toolFailuresTotal = Metric.counter("svc_tool_failures_total", {
  description: "Tool calls answered with a tool failure, by tool name and failure status",
  incremental: true
})

// One tagged counter per tool and status, made on its first failure: tool names are the served ones only.
const counters = new Map<string, Metric.Metric.Counter<number>>()

/** Counts one failure of `tool` with `status`. */
export const countToolFailure = (tool: string, status: FailureStatus): Effect.Effect<void> => {
  const key = `${tool} ${status}`
  let counter = counters.get(key)
  if (counter === undefined) {
    counter = Metric.taggedWithLabels(toolFailuresTotal, [
      MetricLabel.make("tool", tool),
      MetricLabel.make("status", status)
    ])
    counters.set(key, counter)
  }
  return Metric.increment(counter)
}
