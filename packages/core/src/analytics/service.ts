import { Effect } from "effect"
import type { Platform } from "../scheduling/platforms.js"
import { withSpan } from "../shared/spans.js"
import { AnalyticsRepo } from "./ports.js"
import {
  type AnalyticsPostQuery,
  type AnalyticsSummary,
  type ComparedFigures,
  compare,
  NO_METRICS,
  type PeriodFigures
} from "./schema.js"

const EMPTY: PeriodFigures = { postsPublished: 0, metrics: NO_METRICS }

const compareFigures = (value: PeriodFigures, previous: PeriodFigures): ComparedFigures => ({
  postsPublished: compare(value.postsPublished, previous.postsPublished),
  metrics: {
    likes: compare(value.metrics.likes, previous.metrics.likes),
    replies: compare(value.metrics.replies, previous.metrics.replies),
    reposts: compare(value.metrics.reposts, previous.metrics.reposts),
    quotes: compare(value.metrics.quotes, previous.metrics.quotes),
    views: compare(value.metrics.views, previous.metrics.views),
    clicks: compare(value.metrics.clicks, previous.metrics.clicks)
  }
})

/**
 * The analytics of a workspace's own published posts, from the stored samples: a period's figures beside the period
 * before, and the posts with their latest metrics. Reads only what the fetch worker stored; never calls a network.
 */
export class Analytics extends Effect.Service<Analytics>()("svc/analytics/Analytics", {
  effect: Effect.gen(function* () {
    const repo = yield* AnalyticsRepo

    /** The figures of the posts published in [from, to), compared with those of the period of the same length before. */
    const summary = (workspaceId: string, from: Date, to: Date): Effect.Effect<AnalyticsSummary> =>
      Effect.gen(function* () {
        const previousFrom = new Date(from.getTime() - (to.getTime() - from.getTime()))
        const [current, before] = yield* Effect.all([
          repo.periodFigures(workspaceId, from, to),
          repo.periodFigures(workspaceId, previousFrom, from)
        ])
        const platforms = [...new Set<Platform>([...current.platforms, ...before.platforms].map((p) => p.platform))]
        const of = (rows: typeof current.platforms, platform: Platform) =>
          rows.find((row) => row.platform === platform) ?? EMPTY
        return {
          from,
          to,
          previousFrom,
          totals: compareFigures(current.all, before.all),
          platforms: platforms.map((platform) => ({
            platform,
            ...compareFigures(of(current.platforms, platform), of(before.platforms, platform))
          })),
          metricsAt: current.metricsAt
        }
      }).pipe(withSpan("Analytics.summary"))

    /** A page of published posts with their latest metrics per platform. */
    const listPosts = (workspaceId: string, query: AnalyticsPostQuery) =>
      repo.listPosts(workspaceId, query).pipe(withSpan("Analytics.listPosts", { attributes: { sort: query.sort } }))

    return { summary, listPosts }
  })
}) {}
