import { Effect } from "effect"
import { type MetricsReader, AnalyticsRepo } from "./ports.js"
import { NO_METRICS, type PostMetrics } from "./schema.js"

/**
 * The own feed's metrics: the clicks on its posts' links, counted by the feed's redirect. The feed has no likes,
 * replies, reposts, quotes or views, so those stay null. Its posts' remote ids are the post ids.
 */
export const feedMetricsReader = Effect.map(
  AnalyticsRepo,
  (repo): MetricsReader => ({
    platform: "feed",
    batchSize: 100,
    read: ({ workspaceId, remoteIds }) =>
      Effect.map(
        repo.feedClicks(workspaceId, remoteIds),
        (clicks) =>
          new Map(remoteIds.map((id): [string, PostMetrics] => [id, { ...NO_METRICS, clicks: clicks.get(id) ?? 0 }]))
      )
  })
)
