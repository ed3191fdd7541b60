/** Analytics of the workspace's own published posts: metric samples, the fetch schedule and worker, the tools. */
export { AnalyticsFetching, type FetchOptions, groupByAccount } from "./fetching.js"
export { checkFeedLink, FEED_LINK_URL_MAX, feedLinkPath, isFeedLinkTarget, signFeedLink } from "./feed-links.js"
export { feedMetricsReader } from "./feed-reader.js"
export { AnalyticsLive, AnalyticsPortsLive } from "./layer.js"
export {
  AnalyticsRepo,
  type FetchClaim,
  type MetricSample,
  MetricsFailure,
  type MetricsReader,
  MetricsReaders,
  type MetricsRequest,
  type PeriodRows
} from "./ports.js"
export * from "./schema.js"
export { Analytics } from "./service.js"
export { analyticsTools, PERIOD_MAX_DAYS } from "./tools.js"
export {
  AnalyticsWorkerLive,
  type AnalyticsWorkerOptions,
  claimDueFetches,
  DEFAULT_ANALYTICS_WORKER,
  fetchDueMetrics,
  runAnalyticsWorker
} from "./worker.js"
