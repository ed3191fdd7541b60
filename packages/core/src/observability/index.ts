/**
 * What the core measures beyond its areas: the work queues' gauges and their port. Counters of one area live with it
 * (`svc_tool_failures_total` in tools, `svc_rate_limit_refusals_total` in limits); every metric is an Effect `Metric`
 * in the global registry, which the server exports (docs/metrics.md).
 */
export {
  refreshWorkQueueGauges,
  WorkQueueGauges,
  type WorkQueueReading,
  workQueueDepth,
  workQueueExpiredLeases,
  workQueueOldestSeconds
} from "./work-queues.js"
