import type { Platform } from "../scheduling/platforms.js"

/** The metrics a published post is measured by. */
export const METRICS = ["likes", "replies", "reposts", "quotes", "views", "clicks"] as const
export type MetricName = (typeof METRICS)[number]

/**
 * One reading of a post's metrics on one platform. Each is null when the platform does not give it (Bluesky gives no
 * views, Mastodon no views or quotes before 4.5, the own feed only clicks): never invented, never a zero in its place.
 */
export type PostMetrics = { readonly [K in MetricName]: number | null }

/** Metrics with every field null: a platform that measures nothing. */
export const NO_METRICS: PostMetrics = {
  likes: null,
  replies: null,
  reposts: null,
  quotes: null,
  views: null,
  clicks: null
}

/** A posted delivery whose metrics are due, held by one worker until `leaseUntil`. */
export interface ClaimedFetch {
  readonly deliveryId: string
  readonly workspaceId: string
  readonly postId: string
  readonly platform: Platform
  /** The connected account it went out on (null for the own feed). */
  readonly socialAccountId: string | null
  /** The network's id of the post (an `at://` URI, a status id; the post id on the own feed). */
  readonly remoteId: string
  readonly postedAt: Date
  /** Failed fetches in a row before this one. */
  readonly failures: number
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** What a worker records of a fetch it holds, releasing its claim. */
export interface FetchRecord {
  /** The sample taken, when the platform answered for the post. */
  readonly sample: { readonly takenAt: Date; readonly metrics: PostMetrics } | null
  /** When to fetch again; null: never (the post is past the schedule, or gone). */
  readonly nextFetchAt: Date | null
  readonly failures: number
  /** Why the last fetch failed or why fetching stopped; null after a success. */
  readonly error: string | null
}

/** The schedule's steps: a post is fetched every `everyMs` until it is `untilMs` old. */
export const FETCH_SCHEDULE: ReadonlyArray<{ readonly untilMs: number; readonly everyMs: number }> = [
  { untilMs: 86_400_000, everyMs: 15 * 60_000 },
  { untilMs: 7 * 86_400_000, everyMs: 3_600_000 },
  { untilMs: 30 * 86_400_000, everyMs: 86_400_000 },
  { untilMs: 90 * 86_400_000, everyMs: 7 * 86_400_000 }
]

/** A post older than this is not fetched again: its last sample stays its figures. */
export const FETCH_STOP_AFTER_MS = 90 * 86_400_000

/**
 * When a post published at `postedAt` is fetched next after a fetch at `at`: every 15 minutes (`firstDayEveryMs`) in
 * its first day, hourly to day 7, daily to day 30, weekly to day 90, then never (null); the last fetch is the one at or
 * after day 90.
 */
export const nextFetchAt = (postedAt: Date, at: Date, firstDayEveryMs?: number): Date | null => {
  const age = at.getTime() - postedAt.getTime()
  if (age >= FETCH_STOP_AFTER_MS) return null
  const index = FETCH_SCHEDULE.findIndex((s) => age < s.untilMs)
  const step = FETCH_SCHEDULE[index < 0 ? FETCH_SCHEDULE.length - 1 : index]
  const everyMs = index === 0 && firstDayEveryMs !== undefined ? firstDayEveryMs : (step?.everyMs ?? 7 * 86_400_000)
  return new Date(Math.min(at.getTime() + everyMs, postedAt.getTime() + FETCH_STOP_AFTER_MS))
}

/** The wait after `failures` failed fetches in a row: 5 minutes doubling, at most 6 hours. */
export const fetchBackoffMs = (failures: number): number => Math.min(6 * 3_600_000, 5 * 60_000 * 2 ** (failures - 1))

/** A post's figures on one platform: its latest sample. */
export interface PlatformFigures {
  readonly platform: Platform
  readonly url: string | null
  readonly postedAt: Date
  /** When the latest sample was taken; null before the first. */
  readonly metricsAt: Date | null
  readonly metrics: PostMetrics
}

/** A published post with its latest figures per platform, and the value it was sorted by. */
export interface AnalyticsPost {
  readonly postId: string
  readonly text: string
  /** When it first went out. */
  readonly publishedAt: Date
  readonly platforms: ReadonlyArray<PlatformFigures>
  /** The post's totals over its platforms (null where none gives the metric). */
  readonly totals: PostMetrics
  /** Likes + replies + reposts + quotes over its platforms (null when none gives any). */
  readonly engagement: number | null
  /** The sort key of the list that answered it (for the next page's cursor). */
  readonly sortKey: number
}

/** The sorts of the posts list. */
export const POST_SORTS = ["publishedAt", "likes", "replies", "reposts", "views", "clicks", "engagement"] as const
export type PostSort = (typeof POST_SORTS)[number]

/** Where a sorted page starts: after the row with this sort key and post id. */
export interface SortedKey {
  readonly key: number
  readonly id: string
}

/** Which published posts a list keeps, and in what order. */
export interface AnalyticsPostQuery {
  readonly platform?: Platform | undefined
  /** First went out at or after. */
  readonly from?: Date | undefined
  /** First went out before. */
  readonly to?: Date | undefined
  readonly sort: PostSort
  readonly order: "asc" | "desc"
  readonly limit: number
  readonly after?: SortedKey | undefined
}

/** Sums over the posts published in a period, on one platform or all (null where no post gives the metric). */
export interface PeriodFigures {
  readonly postsPublished: number
  readonly metrics: PostMetrics
}

/** A figure of a period beside the period before. */
export interface Compared {
  readonly value: number | null
  readonly previous: number | null
  /** (value − previous) / previous, in percent with one decimal; null when previous is 0 or null, or value null. */
  readonly changePercent: number | null
}

/** The figures of one platform (or `all`) in a period compared with the period before. */
export interface ComparedFigures {
  readonly postsPublished: Compared
  readonly metrics: { readonly [K in MetricName]: Compared }
}

/** What `svc_get_analytics` answers. */
export interface AnalyticsSummary {
  readonly from: Date
  readonly to: Date
  readonly previousFrom: Date
  readonly totals: ComparedFigures
  readonly platforms: ReadonlyArray<{ readonly platform: Platform } & ComparedFigures>
  /** When the newest sample among these posts was taken (null when none has one). */
  readonly metricsAt: Date | null
}

/** Compares two figures. */
export const compare = (value: number | null, previous: number | null): Compared => ({
  value,
  previous,
  changePercent:
    value === null || previous === null || previous === 0
      ? null
      : Math.round(((value - previous) / previous) * 1000) / 10
})
