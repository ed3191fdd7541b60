import { Effect, Either, Encoding, Schema } from "effect"
import { PLATFORMS } from "../scheduling/platforms.js"
import { invalid } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"
import { Cursor, Limit } from "../shared/paging.js"
import { isCalendarDay, now, Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import {
  type AnalyticsPost,
  type AnalyticsSummary,
  type ComparedFigures,
  METRICS,
  type PlatformFigures,
  POST_SORTS,
  type PostSort,
  type SortedKey
} from "./schema.js"
import { Analytics } from "./service.js"

const DAY_MS = 86_400_000
/** The longest period asked for at once. */
export const PERIOD_MAX_DAYS = 365
/** The longest text excerpt a listed post carries. */
const TEXT_EXCERPT = 280

// A metric is a number or null (the platform gives none); written compactly for the tool list.
const Figure = Schema.NullOr(Schema.Number).annotations({ jsonSchema: { type: ["number", "null"] } })
const PlatformName = Schema.Literal(...PLATFORMS)
const Day = (what: string) =>
  Schema.String.pipe(Schema.maxLength(10)).annotations({ description: `${what}, YYYY-MM-DD (UTC).` })

/** `YYYY-MM-DD` as the start of that day (UTC); `invalid` names `field`. */
const dayStart = (field: string, text: string) =>
  isCalendarDay(text)
    ? Either.right(new Date(`${text}T00:00:00.000Z`))
    : Either.left(invalid(field, `${field} "${excerpt(text)}" is not a day YYYY-MM-DD; e.g. "2026-11-01"`))

/** The period [from, to) a call names: `days` up to now, or the days `from` through `to`. */
const periodOf = (input: {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly days?: number | undefined
}) =>
  Effect.gen(function* () {
    const at = yield* now
    if (input.days !== undefined && (input.from !== undefined || input.to !== undefined)) {
      return yield* invalid("days", "give days, or from and to, not both")
    }
    if (input.from === undefined && input.to === undefined) {
      const days = input.days ?? 28
      return { from: new Date(at.getTime() - days * DAY_MS), to: at }
    }
    if (input.from === undefined) return yield* invalid("from", "give from with to (YYYY-MM-DD)")
    const from = yield* dayStart("from", input.from)
    const to = input.to === undefined ? at : new Date((yield* dayStart("to", input.to)).getTime() + DAY_MS)
    if (to.getTime() <= from.getTime()) return yield* invalid("to", "to must be on or after from")
    if (to.getTime() - from.getTime() > PERIOD_MAX_DAYS * DAY_MS) {
      return yield* invalid("from", `a period is at most ${PERIOD_MAX_DAYS} days`)
    }
    return { from, to }
  })

const FigureRow = Schema.Struct({
  platform: Schema.Literal("all", ...PLATFORMS).annotations({ description: "all: every platform together." }),
  metric: Schema.Literal("postsPublished", ...METRICS),
  value: Figure,
  previous: Figure.annotations({ description: "The period before, same length." }),
  changePercent: Figure.annotations({ description: "Change vs previous, %; null if previous is 0 or null." })
})

const figureRows = (platform: "all" | (typeof PLATFORMS)[number], figures: ComparedFigures) => [
  { platform, metric: "postsPublished" as const, ...figures.postsPublished },
  ...METRICS.map((metric) => ({ platform, metric, ...figures.metrics[metric] }))
]

const summaryRecord = (summary: AnalyticsSummary) => ({
  from: summary.from,
  to: summary.to,
  previousFrom: summary.previousFrom,
  metricsAt: summary.metricsAt,
  figures: [...figureRows("all", summary.totals), ...summary.platforms.flatMap((p) => figureRows(p.platform, p))]
})

const metricFields = {
  likes: Figure,
  replies: Figure,
  reposts: Figure,
  quotes: Figure,
  views: Figure,
  clicks: Figure.annotations({ description: "Own feed: link clicks via our redirect." })
}

const PlatformRecord = Schema.Struct({
  platform: PlatformName,
  url: Schema.NullOr(Schema.String),
  postedAt: Timestamp,
  metricsAt: Schema.NullOr(Timestamp).annotations({ description: "Latest sample; null before the first." }),
  ...metricFields
})

const PostRecord = Schema.Struct({
  postId: Schema.String.annotations({ description: "Post id (post_…)." }),
  text: Schema.String.annotations({ description: `First ${TEXT_EXCERPT} characters.` }),
  publishedAt: Timestamp,
  metricsAt: Schema.NullOr(Timestamp),
  ...metricFields,
  engagement: Figure.annotations({ description: "likes+replies+reposts+quotes." }),
  platforms: Schema.Array(PlatformRecord).annotations({ description: "Latest metrics per platform." })
})

const platformRecord = (p: PlatformFigures): typeof PlatformRecord.Type => ({
  platform: p.platform,
  url: p.url,
  postedAt: p.postedAt,
  metricsAt: p.metricsAt,
  ...p.metrics
})

const postRecord = (post: AnalyticsPost): typeof PostRecord.Type => {
  const times = post.platforms.flatMap((p) => (p.metricsAt === null ? [] : [p.metricsAt.getTime()]))
  return {
    postId: post.postId,
    text: post.text.length > TEXT_EXCERPT ? `${post.text.slice(0, TEXT_EXCERPT - 1)}…` : post.text,
    publishedAt: post.publishedAt,
    metricsAt: times.length === 0 ? null : new Date(Math.max(...times)),
    ...post.totals,
    engagement: post.engagement,
    platforms: post.platforms.map(platformRecord)
  }
}

/** A sorted list's cursor: the sort and order it belongs to, and the last row's sort key and id. */
const encodeSortedCursor = (sort: PostSort, order: string, key: SortedKey) =>
  Encoding.encodeBase64Url(JSON.stringify([sort, order, key.key, key.id]))

const decodeSortedCursor = (sort: PostSort, order: string, cursor: string) => {
  const bad = invalid(
    "cursor",
    "cursor is not one of this sort and order; pass nextCursor unchanged with the same sort"
  )
  const text = Encoding.decodeBase64UrlString(cursor)
  if (Either.isLeft(text)) return Either.left(bad)
  try {
    const parsed: unknown = JSON.parse(text.right)
    if (
      Array.isArray(parsed) &&
      parsed.length === 4 &&
      parsed[0] === sort &&
      parsed[1] === order &&
      typeof parsed[2] === "number" &&
      Number.isFinite(parsed[2]) &&
      typeof parsed[3] === "string" &&
      parsed[3].length > 0
    ) {
      return Either.right<SortedKey>({ key: parsed[2], id: parsed[3] })
    }
  } catch {
    // answered below
  }
  return Either.left(bad)
}

/** Analytics' tools: a period's figures, and the published posts with their metrics. */
export const analyticsTools = Effect.gen(function* () {
  const analytics = yield* Analytics

  return [
    defineTool({
      name: "svc_get_analytics",
      title: "Get analytics",
      group: "Scheduling",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Get totals and per-platform figures (posts published, likes, replies, reposts, quotes, views, clicks) of posts published in a period, vs the period before. From stored samples; null where no platform gives a metric. Free.",
      input: {
        days: Schema.optional(
          Schema.Int.pipe(Schema.between(1, PERIOD_MAX_DAYS)).annotations({
            description: "Last N days up to now, 1 to 365; default 28."
          })
        ),
        from: Schema.optional(Day("First day")),
        to: Schema.optional(Day("Last day, inclusive; default today"))
      },
      output: {
        from: Timestamp,
        to: Timestamp.annotations({ description: "End of the period (exclusive)." }),
        previousFrom: Timestamp.annotations({ description: "Start of the period compared with." }),
        metricsAt: Schema.NullOr(Timestamp).annotations({ description: "Newest sample; null if none yet." }),
        figures: Schema.Array(FigureRow).annotations({ description: "all first, then each platform." })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const { from, to } = yield* periodOf(input)
          return summaryRecord(yield* analytics.summary(id, from, to))
        })
    }),
    defineTool({
      name: "svc_list_analytics_posts",
      title: "List analytics posts",
      group: "Scheduling",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List published posts with their latest metrics, in total and per platform (url, postedAt, metricsAt). Sort by publishedAt or a metric; filter by platform and days published. Paged. Free.",
      input: {
        sort: Schema.optional(
          Schema.Literal(...POST_SORTS).annotations({ description: "Default publishedAt; null metrics sort last." })
        ),
        order: Schema.optional(Schema.Literal("desc", "asc").annotations({ description: "Default desc." })),
        platform: Schema.optional(PlatformName.annotations({ description: "Only this platform's figures." })),
        from: Schema.optional(Day("Published on or after")),
        to: Schema.optional(Day("Published on or before")),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        posts: Schema.Array(PostRecord).annotations({ description: "Published posts in the order asked." }),
        nextCursor: Schema.optional(Schema.String.annotations({ description: "Cursor of the next page, if any." }))
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const sort = input.sort ?? "publishedAt"
          const order = input.order ?? "desc"
          const from = input.from === undefined ? undefined : yield* dayStart("from", input.from)
          const to = input.to === undefined ? undefined : new Date((yield* dayStart("to", input.to)).getTime() + DAY_MS)
          const after = input.cursor === undefined ? undefined : yield* decodeSortedCursor(sort, order, input.cursor)
          const page = yield* analytics.listPosts(id, {
            platform: input.platform,
            from,
            to,
            sort,
            order,
            limit: input.limit ?? 25,
            after
          })
          return {
            posts: page.rows.map(postRecord),
            ...(page.next ? { nextCursor: encodeSortedCursor(sort, order, page.next) } : {})
          }
        })
    })
  ]
})
