/**
 * What research tools compute from posts they read: engagement, its median and spread, posting cadence in a time
 * zone, posts ranked against their creator's own median, topics, formats, and creators side by side. Pure: every
 * function answers from its arguments alone.
 */
import { Either, Schema } from "effect"
import type { InvalidInput } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"
import { Timestamp } from "../shared/time.js"
import { Creator, PostFormat, type PostMetrics, ResearchPlatform, type SocialPost } from "./schema.js"
import { PostingCadence, postingCadence, publishedMillis } from "./cadence.js"
import { Topic, topics } from "./topics.js"

export { checkedTimeZone, PostingCadence, postingCadence, publishedMillis, WEEKDAYS, Weekday } from "./cadence.js"
export { Topic, topics } from "./topics.js"

// ---------------------------------------------------------------------------------------------------------------
// Engagement and its spread
// ---------------------------------------------------------------------------------------------------------------

/**
 * A post's engagement: likes + replies + reposts + quotes, of those the network gives. Views are left out (networks
 * count them too differently to compare). Null when the network gives none of the four (RSS articles, for one).
 */
export const engagementOf = (metrics: PostMetrics): number | null => {
  const counts = [metrics.likes, metrics.replies, metrics.reposts, metrics.quotes].filter(
    (count): count is number => count !== null
  )
  return counts.length === 0 ? null : counts.reduce((sum, count) => sum + count, 0)
}

/**
 * The `p`-th quantile (0 to 1) of sorted values by linear interpolation between closest ranks: position
 * h = (n − 1)·p, value x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋+1 − x⌊h⌋) (Hyndman & Fan type 7, NumPy's default, PERCENTILE.INC).
 */
const quantileOfSorted = (sorted: ReadonlyArray<number>, p: number): number | null => {
  if (sorted.length === 0) return null
  const h = (sorted.length - 1) * p
  const below = sorted[Math.floor(h)]!
  const above = sorted[Math.ceil(h)]!
  return below + (h - Math.floor(h)) * (above - below)
}

const ascending = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)

/** The median (the mean of the middle two for an even count); null for no values. */
export const medianOf = (values: ReadonlyArray<number>): number | null => quantileOfSorted(ascending(values), 0.5)

/** How values spread: see {@link spreadOf}. */
export const Spread = Schema.Struct({
  count: Schema.Int.annotations({ description: "Values (posts) measured." }),
  median: Schema.NullOr(Schema.Number).annotations({ description: "Median; null with no values." }),
  p25: Schema.NullOr(Schema.Number).annotations({ description: "25th percentile (linear interpolation)." }),
  p75: Schema.NullOr(Schema.Number).annotations({ description: "75th percentile (linear interpolation)." }),
  iqr: Schema.NullOr(Schema.Number).annotations({ description: "Interquartile range, p75 − p25." }),
  min: Schema.NullOr(Schema.Number).annotations({ description: "Smallest value." }),
  max: Schema.NullOr(Schema.Number).annotations({ description: "Largest value." })
}).annotations({ description: "Median and spread; percentiles by linear interpolation between closest ranks." })
export type Spread = typeof Spread.Type

/**
 * Median, quartiles (linear interpolation between closest ranks, as {@link medianOf}), interquartile range,
 * smallest and largest value; every figure null for no values.
 */
export const spreadOf = (values: ReadonlyArray<number>): Spread => {
  const sorted = ascending(values)
  const p25 = quantileOfSorted(sorted, 0.25)
  const p75 = quantileOfSorted(sorted, 0.75)
  return {
    count: sorted.length,
    median: quantileOfSorted(sorted, 0.5),
    p25,
    p75,
    iqr: p25 === null || p75 === null ? null : p75 - p25,
    min: sorted[0] ?? null,
    max: sorted.at(-1) ?? null
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Posts against their creator's median
// ---------------------------------------------------------------------------------------------------------------

const round2 = (value: number) => Math.round(value * 100) / 100

/** A post with its engagement and its ratio to its creator's median engagement. */
export interface RankedPost {
  readonly post: SocialPost
  readonly engagement: number | null
  /** engagement / max(median, 1), unrounded; null when the post (or every post) has no engagement. */
  readonly ratio: number | null
}

// Larger first, null last.
const descending = (a: number | null, b: number | null): number =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a

/** Best first: ratio, then engagement, then newest, then id; a missing figure or time sorts last. */
const byRank = (a: RankedPost, b: RankedPost): number =>
  descending(a.ratio, b.ratio) ||
  descending(a.engagement, b.engagement) ||
  descending(publishedMillis(a.post), publishedMillis(b.post)) ||
  (a.post.id < b.post.id ? -1 : a.post.id > b.post.id ? 1 : 0)

/**
 * One creator's posts ranked against that creator's median engagement (over the posts given that have engagement).
 * `ratio` = engagement / max(median, 1): counts are whole numbers, so a median of 0 (or 0.5) divides by 1 instead
 * of making every liked post infinitely better; a post with 0 engagement then has ratio 0. Sorted by ratio, then
 * engagement, most first, then newest; posts without engagement last, with ratio null.
 */
export const rankByOwnMedian = (
  posts: ReadonlyArray<SocialPost>
): { readonly median: number | null; readonly ranked: ReadonlyArray<RankedPost> } => {
  const engagements = posts.map((post) => engagementOf(post.metrics))
  const median = medianOf(engagements.filter((value): value is number => value !== null))
  const ranked = posts.map((post, i) => {
    const engagement = engagements[i] ?? null
    return { post, engagement, ratio: engagement === null || median === null ? null : engagement / Math.max(median, 1) }
  })
  return { median, ranked: ranked.sort(byRank) }
}

/** The longest excerpt of a post's text in an answer. */
export const POST_EXCERPT_MAX = 280
/** The longest first line taken as a post's title. */
export const FIRST_LINE_TITLE_MAX = 120

/**
 * A post's title: its own when not blank; else, with `firstLineAsTitle` (for networks without titles, such as
 * Bluesky), the first non-blank line of its text, cut to 120 characters; else null.
 */
export const titleOf = (post: SocialPost, firstLineAsTitle: boolean): string | null => {
  const own = post.title?.trim() ?? ""
  if (own !== "") return own
  if (!firstLineAsTitle) return null
  const line = post.text.split(/\r?\n/u).find((candidate) => candidate.trim() !== "")
  return line === undefined ? null : excerpt(line.trim(), FIRST_LINE_TITLE_MAX - 1)
}

const ratioField = Schema.NullOr(Schema.Number).annotations({
  description:
    "Engagement divided by the creator's median engagement (at least 1), rounded to 0.01; null without engagement."
})

/** A post as ranked answers show it. */
export const RankedPostView = Schema.Struct({
  platform: Schema.String.annotations({ description: "Network of the post." }),
  id: Schema.String.annotations({ description: "The network's id of the post." }),
  url: Schema.NullOr(Schema.String).annotations({ description: "Public address, or null." }),
  author: Schema.String.annotations({ description: "Author handle; empty when unknown." }),
  title: Schema.NullOr(Schema.String).annotations({
    description: "Title (or first line, where asked); null when none."
  }),
  excerpt: Schema.String.annotations({ description: `Start of the text, at most ${POST_EXCERPT_MAX} characters.` }),
  format: PostFormat,
  createdAt: Schema.NullOr(Timestamp).annotations({ description: "When it was published, or null when unknown." }),
  engagement: Schema.NullOr(Schema.Int).annotations({
    description: "Likes + replies + reposts + quotes (views excluded); null when the network gives none."
  }),
  creatorMedian: Schema.NullOr(Schema.Number).annotations({
    description: "Median engagement of the creator's posts read; null when none has engagement."
  }),
  ratio: ratioField
}).annotations({ description: "A post ranked against its creator's own median engagement." })
export type RankedPostView = typeof RankedPostView.Type

const viewOf = (ranked: RankedPost, median: number | null, firstLineAsTitle: boolean): RankedPostView => ({
  platform: ranked.post.platform,
  id: ranked.post.id,
  url: ranked.post.url,
  author: ranked.post.author.handle,
  title: titleOf(ranked.post, firstLineAsTitle),
  excerpt: excerpt(ranked.post.text.trim(), POST_EXCERPT_MAX - 1),
  format: ranked.post.format,
  createdAt: ranked.post.createdAt,
  engagement: ranked.engagement,
  creatorMedian: median,
  ratio: ranked.ratio === null ? null : round2(ranked.ratio)
})

/** Posts that studies of titles take: those with a title (see {@link titleOf}). */
export const hasTitle =
  (firstLineAsTitle: boolean) =>
  (post: SocialPost): boolean =>
    titleOf(post, firstLineAsTitle) !== null

/** Posts that studies of carousels take: several images (a carousel) or a document (PDF, slides). */
export const isCarouselOrDocument = (post: SocialPost): boolean =>
  post.format === "carousel" || post.format === "document" || (post.format === "image" && post.mediaCount > 1)

/** How {@link outperformers} picks and shows posts. */
export interface OutperformerOptions {
  /** The posts studied; the median is still taken over all of their creator's posts. */
  readonly predicate: (post: SocialPost) => boolean
  /** The smallest ratio to a creator's median a post needs (e.g. 2: twice the median). */
  readonly minRatio: number
  /** The most posts answered. */
  readonly limit: number
  /** Shows a post's first line as its title when it has none (see {@link titleOf}). */
  readonly firstLineAsTitle?: boolean | undefined
}

/**
 * Across several creators (each group is one creator's posts), the posts that `predicate` picks whose engagement
 * is at least `minRatio` times THEIR creator's median (taken over all that creator's posts), best ratio first (then
 * engagement, then newest), at most `limit`.
 */
export const outperformers = (
  groups: ReadonlyArray<ReadonlyArray<SocialPost>>,
  options: OutperformerOptions
): ReadonlyArray<RankedPostView> =>
  groups
    .flatMap((posts) => {
      const { median, ranked } = rankByOwnMedian(posts)
      return ranked
        .filter((entry) => entry.ratio !== null && entry.ratio >= options.minRatio && options.predicate(entry.post))
        .map((entry) => ({ entry, median }))
    })
    .sort((a, b) => byRank(a.entry, b.entry))
    .slice(0, Math.max(0, options.limit))
    .map(({ entry, median }) => viewOf(entry, median, options.firstLineAsTitle ?? false))

// ---------------------------------------------------------------------------------------------------------------
// One creator's analysis
// ---------------------------------------------------------------------------------------------------------------

/** Posts of one format and their median engagement. */
export const FormatFigures = Schema.Struct({
  format: PostFormat,
  posts: Schema.Int.annotations({ description: "Posts of this format read." }),
  medianEngagement: Schema.NullOr(Schema.Number).annotations({
    description: "Median engagement of those posts; null when none has engagement."
  })
}).annotations({ description: "One format's share and median engagement." })
export type FormatFigures = typeof FormatFigures.Type

/** Posts per format, most used first (ties in the order of `PostFormat`), with each format's median engagement. */
export const formatFigures = (posts: ReadonlyArray<SocialPost>): ReadonlyArray<FormatFigures> =>
  PostFormat.literals
    .map((format) => {
      const ofFormat = posts.filter((post) => post.format === format)
      const engagements = ofFormat.map((post) => engagementOf(post.metrics)).filter((value) => value !== null)
      return { format, posts: ofFormat.length, medianEngagement: medianOf(engagements) }
    })
    .filter((figures) => figures.posts > 0)
    .sort((a, b) => b.posts - a.posts)

/** The topics an analysis shows when the caller names no number. */
export const ANALYSIS_TOPICS = 20

/** What one creator's posts show. */
export const CreatorAnalysis = Schema.Struct({
  creator: Creator,
  sampleSize: Schema.Int.annotations({ description: "Posts read and analysed." }),
  dated: Schema.Int.annotations({ description: "Posts with a publication time." }),
  undated: Schema.Int.annotations({ description: "Posts without one (left out of cadence and dates)." }),
  from: Schema.NullOr(Timestamp).annotations({ description: "Oldest post's time; null when none is dated." }),
  to: Schema.NullOr(Timestamp).annotations({ description: "Newest post's time; null when none is dated." }),
  cadence: PostingCadence,
  engagement: Schema.NullOr(Spread).annotations({
    description: "Engagement (likes + replies + reposts + quotes) of the posts that have it; null when none has."
  }),
  topPosts: Schema.Array(RankedPostView).annotations({
    description: "Posts with the best ratio to the creator's median engagement, best first."
  }),
  formats: Schema.Array(FormatFigures).annotations({ description: "Posts per format, most used first." }),
  topics: Schema.Array(Topic).annotations({ description: "Commonest terms of titles and texts, most posts first." }),
  notes: Schema.Array(Schema.String).annotations({ description: "What the figures lack, and why." })
}).annotations({ description: "A creator's cadence, engagement, top posts, formats and topics." })
export type CreatorAnalysis = typeof CreatorAnalysis.Type

const postsHave = (count: number) => (count === 1 ? "1 post has" : `${count} posts have`)

/** A post's words for topics: its title and its text. */
export const postWords = (post: SocialPost): string => (post.title === null ? post.text : `${post.title}\n${post.text}`)

/**
 * The analysis of one creator's posts: cadence in `timeZone` (a bad zone is `invalid` on `timeZone`), engagement
 * median and spread, the `top` posts by ratio to the creator's median, formats, and the `topicLimit` topics.
 */
export const analyzeCreator = (
  creator: Creator,
  posts: ReadonlyArray<SocialPost>,
  timeZone: string,
  top: number,
  topicLimit: number = ANALYSIS_TOPICS
): Either.Either<CreatorAnalysis, InvalidInput> =>
  Either.map(postingCadence(posts, timeZone), (cadence) => {
    const { median, ranked } = rankByOwnMedian(posts)
    const engagements = ranked.flatMap((entry) => (entry.engagement === null ? [] : [entry.engagement]))
    const times = posts.flatMap((post) => {
      const millis = publishedMillis(post)
      return millis === null ? [] : [millis]
    })
    const notes: Array<string> = []
    if (posts.length === 0) notes.push("No posts were read: every figure is empty.")
    else if (engagements.length === 0) {
      notes.push("No post has engagement counts (the network gives none, as for RSS articles): posts are not ranked.")
    } else if (engagements.length < posts.length) {
      notes.push(
        `${postsHave(posts.length - engagements.length)} no engagement counts: left out of the engagement figures.`
      )
    }
    if (cadence.undated > 0) notes.push(`${postsHave(cadence.undated)} no publication time: left out of the cadence.`)
    return {
      creator,
      sampleSize: posts.length,
      dated: cadence.dated,
      undated: cadence.undated,
      from: times.length === 0 ? null : new Date(times.reduce((a, b) => Math.min(a, b))),
      to: times.length === 0 ? null : new Date(times.reduce((a, b) => Math.max(a, b))),
      cadence,
      engagement: engagements.length === 0 ? null : spreadOf(engagements),
      topPosts: ranked
        .filter((entry) => entry.ratio !== null)
        .slice(0, Math.max(0, top))
        .map((entry) => viewOf(entry, median, false)),
      formats: formatFigures(posts),
      topics: topics(posts.map(postWords), topicLimit),
      notes
    }
  })

// ---------------------------------------------------------------------------------------------------------------
// Creators side by side
// ---------------------------------------------------------------------------------------------------------------

const rank = Schema.NullOr(Schema.Int).annotations({
  description: "Rank among the creators compared, 1 = highest (ties share a rank); null without the figure."
})

/** One creator's row in a comparison. */
export const CreatorComparisonRow = Schema.Struct({
  platform: ResearchPlatform,
  creatorId: Schema.String.annotations({ description: "The network's id of the creator." }),
  handle: Schema.String.annotations({ description: "Handle." }),
  name: Schema.String.annotations({ description: "Display name." }),
  followers: Schema.NullOr(Schema.Int).annotations({ description: "Followers; null when the source does not say." }),
  sampleSize: Schema.Int.annotations({ description: "Posts analysed." }),
  postsPerWeek: Schema.NullOr(Schema.Number).annotations({ description: "Posting rate (see cadence)." }),
  medianEngagement: Schema.NullOr(Schema.Number).annotations({ description: "Median engagement per post." }),
  engagementPer1kFollowers: Schema.NullOr(Schema.Number).annotations({
    description: "Median engagement per 1,000 followers, rounded to 0.01; null without followers or engagement."
  }),
  topFormat: Schema.NullOr(PostFormat).annotations({ description: "The format posted most; null without posts." }),
  bestRatio: Schema.NullOr(Schema.Number).annotations({
    description: "Best post's ratio to the creator's median; null when no post has engagement."
  }),
  ranks: Schema.Struct({
    followers: rank,
    postsPerWeek: rank,
    medianEngagement: rank,
    engagementPer1kFollowers: rank,
    bestRatio: rank
  }).annotations({ description: "Rank of each figure among the creators." })
}).annotations({ description: "A creator's figures beside the others'." })
export type CreatorComparisonRow = typeof CreatorComparisonRow.Type

type RankedFigure = keyof CreatorComparisonRow["ranks"]
const RANKED_FIGURES: ReadonlyArray<RankedFigure> = [
  "followers",
  "postsPerWeek",
  "medianEngagement",
  "engagementPer1kFollowers",
  "bestRatio"
]

/** Competition ranks ("1224"), highest first; null values get no rank. */
const ranksOf = (values: ReadonlyArray<number | null>): ReadonlyArray<number | null> =>
  values.map((value) => (value === null ? null : 1 + values.filter((other) => other !== null && other > value).length))

/**
 * A row per analysed creator, in the order given: followers, posts analysed, posting rate, median engagement,
 * engagement per 1,000 followers, the format posted most and the best post's ratio, each figure ranked among them.
 */
export const compareCreators = (analyses: ReadonlyArray<CreatorAnalysis>): ReadonlyArray<CreatorComparisonRow> => {
  const rows = analyses.map((analysis) => {
    const { creator } = analysis
    const median = analysis.engagement?.median ?? null
    return {
      platform: creator.platform,
      creatorId: creator.id,
      handle: creator.handle,
      name: creator.name,
      followers: creator.followers,
      sampleSize: analysis.sampleSize,
      postsPerWeek: analysis.cadence.postsPerWeek,
      medianEngagement: median,
      engagementPer1kFollowers:
        median === null || creator.followers === null || creator.followers === 0
          ? null
          : round2((median / creator.followers) * 1000),
      topFormat: analysis.formats[0]?.format ?? null,
      bestRatio: analysis.topPosts[0]?.ratio ?? null
    }
  })
  const ranks = Object.fromEntries(
    RANKED_FIGURES.map((figure) => [figure, ranksOf(rows.map((row) => row[figure]))])
  ) as Record<RankedFigure, ReadonlyArray<number | null>>
  return rows.map((row, i) => ({
    ...row,
    ranks: {
      followers: ranks.followers[i] ?? null,
      postsPerWeek: ranks.postsPerWeek[i] ?? null,
      medianEngagement: ranks.medianEngagement[i] ?? null,
      engagementPer1kFollowers: ranks.engagementPer1kFollowers[i] ?? null,
      bestRatio: ranks.bestRatio[i] ?? null
    }
  }))
}
