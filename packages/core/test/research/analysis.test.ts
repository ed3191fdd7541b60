import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { InvalidInput } from "../../src/shared/errors.js"
import {
  analyzeCreator,
  CreatorAnalysis,
  CreatorComparisonRow,
  compareCreators,
  engagementOf,
  hasTitle,
  isCarouselOrDocument,
  medianOf,
  outperformers,
  type PostingCadence,
  postingCadence,
  RankedPostView,
  rankByOwnMedian,
  spreadOf,
  titleOf
} from "../../src/research/analysis.js"
import { Creator, type PostFormat, type PostMetrics, SocialPost } from "../../src/research/schema.js"

// Engagement of a post: likes only, so each seeded post's engagement is the number written beside it.
const liked = (likes: number): PostMetrics => ({ likes, replies: 0, reposts: 0, quotes: 0, views: null })
const NO_METRICS: PostMetrics = { likes: null, replies: null, reposts: null, quotes: null, views: null }

interface PostSeed {
  readonly id: string
  readonly metrics?: PostMetrics
  readonly at?: string | null
  readonly title?: string | null
  readonly text?: string
  readonly format?: PostFormat
  readonly mediaCount?: number
  readonly author?: string
}

const post = (seed: PostSeed) =>
  new SocialPost({
    platform: "bluesky",
    id: seed.id,
    url: `https://bsky.app/profile/${seed.author ?? "alice.test"}/post/${seed.id}`,
    author: { handle: seed.author ?? "alice.test", name: "" },
    title: seed.title ?? null,
    text: seed.text ?? `Post ${seed.id}`,
    format: seed.format ?? "text",
    mediaCount: seed.mediaCount ?? 0,
    createdAt: seed.at === null || seed.at === undefined ? null : new Date(seed.at),
    metrics: seed.metrics ?? NO_METRICS,
    source: "bluesky"
  })

const creator = (handle: string, followers: number | null) =>
  new Creator({
    platform: "bluesky",
    id: `did:plc:${handle}`,
    handle,
    name: handle.toUpperCase(),
    bio: null,
    url: `https://bsky.app/profile/${handle}`,
    avatarUrl: null,
    followers,
    following: null,
    posts: null,
    source: "bluesky"
  })

const right = <A>(either: Either.Either<A, InvalidInput>): A =>
  Either.getOrThrowWith(either, (error) => new Error(error.message))

const hours = (cadence: PostingCadence) =>
  Object.fromEntries(cadence.byHour.flatMap((count, hour) => (count === 0 ? [] : [[hour, count]])))

describe("engagement", () => {
  it("adds likes, replies, reposts and quotes, and leaves views out", () => {
    expect(engagementOf({ likes: 1, replies: 2, reposts: 3, quotes: 4, views: 1_000 })).toBe(10)
    expect(engagementOf({ likes: 0, replies: 0, reposts: 0, quotes: 0, views: 50 })).toBe(0)
  })

  it("adds the counts the network gives, and is null when it gives none of the four", () => {
    expect(engagementOf({ likes: 5, replies: null, reposts: 2, quotes: null, views: null })).toBe(7)
    expect(engagementOf({ ...NO_METRICS, views: 900 })).toBeNull()
  })
})

describe("median and spread", () => {
  it("takes the mean of the middle two for an even count", () => {
    expect(medianOf([10, 1, 3, 2])).toBe(2.5)
    expect(medianOf([3, 1, 2])).toBe(2)
    expect(medianOf([7])).toBe(7)
    expect(medianOf([])).toBeNull()
  })

  it("interpolates quartiles linearly between closest ranks (h = (n − 1)·p)", () => {
    // Sorted 1, 2, 3, 10: p25 at h = 0.75 → 1 + 0.75·(2 − 1); p75 at h = 2.25 → 3 + 0.25·(10 − 3).
    expect(spreadOf([10, 3, 2, 1])).toEqual({ count: 4, median: 2.5, p25: 1.75, p75: 4.75, iqr: 3, min: 1, max: 10 })
    // Five values: the quartiles fall on ranks 1 and 3 exactly.
    expect(spreadOf([50, 0, 20, 10, 30])).toEqual({ count: 5, median: 20, p25: 10, p75: 30, iqr: 20, min: 0, max: 50 })
    expect(spreadOf([4])).toEqual({ count: 1, median: 4, p25: 4, p75: 4, iqr: 0, min: 4, max: 4 })
  })

  it("answers nulls for an empty sample", () => {
    expect(spreadOf([])).toEqual({ count: 0, median: null, p25: null, p75: null, iqr: null, min: null, max: null })
  })
})

describe("posting cadence", () => {
  it("counts weekdays and hours in the creator's time zone", () => {
    // 2026-03-02 is a Monday; 23:30 UTC is 18:30 in New York (EST, UTC−5) and Tuesday 08:30 in Tokyo (UTC+9).
    const posts = [post({ id: "a", at: "2026-03-02T23:30:00Z" })]
    const newYork = right(postingCadence(posts, "America/New_York"))
    expect(newYork.byWeekday.monday).toBe(1)
    expect(hours(newYork)).toEqual({ 18: 1 })
    expect([newYork.busiestWeekday, newYork.busiestHour]).toEqual(["monday", 18])
    const tokyo = right(postingCadence(posts, "Asia/Tokyo"))
    expect([tokyo.busiestWeekday, tokyo.busiestHour, tokyo.byWeekday.tuesday]).toEqual(["tuesday", 8, 1])
    expect(right(postingCadence(posts, "UTC")).busiestHour).toBe(23)
    expect(newYork.byHour).toHaveLength(24)
  })

  it("follows daylight saving time: the hour a clock skips and the hour it repeats", () => {
    // New York springs forward on Sunday 2026-03-08 at 07:00 UTC (02:00 EST becomes 03:00 EDT) and falls back on
    // Sunday 2026-11-01 at 06:00 UTC (02:00 EDT becomes 01:00 EST).
    const spring = right(
      postingCadence(
        [post({ id: "a", at: "2026-03-08T06:30:00Z" }), post({ id: "b", at: "2026-03-08T07:30:00Z" })],
        "America/New_York"
      )
    )
    expect(hours(spring)).toEqual({ 1: 1, 3: 1 })
    const autumn = right(
      postingCadence(
        [post({ id: "a", at: "2026-11-01T05:30:00Z" }), post({ id: "b", at: "2026-11-01T06:30:00Z" })],
        "America/New_York"
      )
    )
    expect(hours(autumn)).toEqual({ 1: 2 })
    expect(autumn.byWeekday.sunday).toBe(2)
    // Berlin moves on Sunday 2026-03-29 at 01:00 UTC: 00:30 UTC is 01:30 CET, 01:30 UTC is 03:30 CEST.
    const berlin = right(
      postingCadence(
        [post({ id: "a", at: "2026-03-29T00:30:00Z" }), post({ id: "b", at: "2026-03-29T01:30:00Z" })],
        "Europe/Berlin"
      )
    )
    expect(hours(berlin)).toEqual({ 1: 1, 3: 1 })
  })

  it("counts gaps between posts per week of the span, and leaves undated posts out", () => {
    const weekly = [
      post({ id: "a", at: "2026-03-02T10:00:00Z" }),
      post({ id: "b", at: "2026-03-09T10:00:00Z" }),
      post({ id: "c", at: "2026-03-16T10:00:00Z" }),
      post({ id: "d", at: null })
    ]
    const cadence = right(postingCadence(weekly, "UTC"))
    // Three dated posts two weeks apart end to end: two gaps in two weeks.
    expect([cadence.postsPerWeek, cadence.dated, cadence.undated]).toEqual([1, 3, 1])
    expect(cadence.byWeekday).toEqual({
      monday: 3,
      tuesday: 0,
      wednesday: 0,
      thursday: 0,
      friday: 0,
      saturday: 0,
      sunday: 0
    })
    // Four posts over 14 days: three gaps in two weeks. Seven posts over 3 days: six gaps in 3/7 of a week = 14.
    const four = ["2026-03-02", "2026-03-05", "2026-03-09", "2026-03-16"].map((day, i) =>
      post({ id: `p${i}`, at: `${day}T12:00:00Z` })
    )
    expect(right(postingCadence(four, "UTC")).postsPerWeek).toBe(1.5)
    const burst = Array.from({ length: 7 }, (_, i) => post({ id: `b${i}`, at: `2026-03-0${2 + (i % 4)}T12:00:00Z` }))
    expect(right(postingCadence(burst, "UTC")).postsPerWeek).toBe(14)
    // 3 gaps over 9 days = 2.333… a week, rounded to 0.01.
    const uneven = ["2026-03-01", "2026-03-04", "2026-03-07", "2026-03-10"].map((day, i) =>
      post({ id: `u${i}`, at: `${day}T12:00:00Z` })
    )
    expect(right(postingCadence(uneven, "UTC")).postsPerWeek).toBe(2.33)
  })

  it("has no rate with fewer than two dated posts or no span, and no busiest day without posts", () => {
    expect(right(postingCadence([post({ id: "a", at: "2026-03-02T10:00:00Z" })], "UTC")).postsPerWeek).toBeNull()
    const sameInstant = [post({ id: "a", at: "2026-03-02T10:00:00Z" }), post({ id: "b", at: "2026-03-02T10:00:00Z" })]
    expect(right(postingCadence(sameInstant, "UTC")).postsPerWeek).toBeNull()
    const empty = right(postingCadence([post({ id: "a", at: null })], "UTC"))
    expect(empty).toMatchObject({ dated: 0, undated: 1, postsPerWeek: null, busiestWeekday: null, busiestHour: null })
    expect(empty.byHour.every((count) => count === 0)).toBe(true)
  })

  it("breaks ties for the busiest weekday and hour by the earliest", () => {
    // Tuesday 09:00 and Monday 18:00 UTC, once each: Monday (earlier in the week) and 9 (earlier in the day).
    const cadence = right(
      postingCadence(
        [post({ id: "a", at: "2026-03-03T09:00:00Z" }), post({ id: "b", at: "2026-03-02T18:00:00Z" })],
        "UTC"
      )
    )
    expect([cadence.busiestWeekday, cadence.busiestHour]).toEqual(["monday", 9])
  })

  it("refuses a zone that is not an IANA name, naming the field, and answers the canonical name", () => {
    const refused = Either.flip(postingCadence([], "Mars/Olympus_Mons"))
    const error = Either.getOrThrowWith(refused, () => new Error("the zone was taken"))
    expect(error).toBeInstanceOf(InvalidInput)
    expect(error.errors.map((problem) => problem.path)).toEqual(["timeZone"])
    expect(Either.isLeft(postingCadence([], "x".repeat(65)))).toBe(true)
    expect(right(postingCadence([], "utc")).timeZone).toBe("UTC")
  })
})

describe("posts against their creator's median", () => {
  it("divides by the median and sorts by ratio, with posts without engagement last", () => {
    const { median, ranked } = rankByOwnMedian([
      post({ id: "one", metrics: liked(1) }),
      post({ id: "ten", metrics: liked(10) }),
      post({ id: "none", metrics: NO_METRICS }),
      post({ id: "three", metrics: liked(3) }),
      post({ id: "two", metrics: liked(2) })
    ])
    // The median of 1, 2, 3, 10 is 2.5 (the post without engagement is not a zero).
    expect(median).toBe(2.5)
    expect(ranked.map((entry) => [entry.post.id, entry.engagement, entry.ratio])).toEqual([
      ["ten", 10, 4],
      ["three", 3, 1.2],
      ["two", 2, 0.8],
      ["one", 1, 0.4],
      ["none", null, null]
    ])
  })

  it("puts the newer of two equal posts first, then the one with a time", () => {
    const { ranked } = rankByOwnMedian([
      post({ id: "old", metrics: liked(4), at: "2026-01-01T00:00:00Z" }),
      post({ id: "undated", metrics: liked(4), at: null }),
      post({ id: "new", metrics: liked(4), at: "2026-02-01T00:00:00Z" })
    ])
    expect(ranked.map((entry) => entry.post.id)).toEqual(["new", "old", "undated"])
  })

  it("divides by 1 when the median is under 1, so a 0 median gives finite ratios", () => {
    const zero = rankByOwnMedian(
      [0, 0, 0, 5].map((likes, i) => post({ id: `p${i}`, metrics: liked(likes), at: `2026-01-0${i + 1}T00:00:00Z` }))
    )
    expect(zero.median).toBe(0)
    expect(zero.ranked.map((entry) => [entry.post.id, entry.ratio])).toEqual([
      ["p3", 5],
      ["p2", 0],
      ["p1", 0],
      ["p0", 0]
    ])
    const half = rankByOwnMedian([post({ id: "a", metrics: liked(0) }), post({ id: "b", metrics: liked(1) })])
    expect([half.median, half.ranked.map((entry) => entry.ratio)]).toEqual([0.5, [1, 0]])
  })

  it("has no median and no ratios when no post has engagement", () => {
    const { median, ranked } = rankByOwnMedian([post({ id: "a" }), post({ id: "b" })])
    expect(median).toBeNull()
    expect(ranked.map((entry) => entry.ratio)).toEqual([null, null])
    expect(rankByOwnMedian([])).toEqual({ median: null, ranked: [] })
  })
})

describe("titles", () => {
  it("takes a post's own title, or its first non-blank line when asked, cut to 120 characters", () => {
    expect(titleOf(post({ id: "a", title: "  Ten tips  ", text: "Body" }), false)).toBe("Ten tips")
    expect(titleOf(post({ id: "b", title: "", text: "First line\nsecond" }), false)).toBeNull()
    expect(titleOf(post({ id: "c", title: null, text: "\n  First line  \nsecond" }), true)).toBe("First line")
    expect(titleOf(post({ id: "d", text: "  \n " }), true)).toBeNull()
    const long = titleOf(post({ id: "e", text: "x".repeat(200) }), true)
    expect(long).toBe(`${"x".repeat(119)}…`)
    expect(long).toHaveLength(120)
  })
})

describe("outperformers across creators", () => {
  // Alice: 1, 2, 3, 10 → median 2.5. Her titled posts are the 1 and the 10: over those alone the median would be
  // 5.5 and the 10 only 1.8 times it; against all her posts it is 4 times.
  const alice = [
    post({ id: "a1", metrics: liked(1), title: "Small" }),
    post({ id: "a2", metrics: liked(2) }),
    post({ id: "a3", metrics: liked(3), format: "carousel", mediaCount: 4 }),
    post({ id: "a10", metrics: liked(10), title: "Big", format: "document", mediaCount: 12 })
  ]
  // Bob: 10, 10, 10, 50 → median 10; his 50 has no title of its own, only a first line.
  const bob = [
    post({ id: "b10a", metrics: liked(10), author: "bob.test" }),
    post({ id: "b10b", metrics: liked(10), author: "bob.test", format: "image", mediaCount: 3 }),
    post({ id: "b10c", metrics: liked(10), author: "bob.test" }),
    post({ id: "b50", metrics: liked(50), author: "bob.test", text: "Why I quit\nA long story" })
  ]

  it("keeps the posts the predicate picks at or above the ratio against THEIR creator's median", () => {
    const titled = outperformers([alice, bob], { predicate: hasTitle(false), minRatio: 2, limit: 10 })
    expect(titled.map((view) => [view.id, view.title, view.engagement, view.creatorMedian, view.ratio])).toEqual([
      ["a10", "Big", 10, 2.5, 4]
    ])
  })

  it("counts a first line as the title when asked, and ranks across creators by ratio", () => {
    const titled = outperformers([alice, bob], {
      predicate: hasTitle(true),
      minRatio: 2,
      limit: 10,
      firstLineAsTitle: true
    })
    expect(titled.map((view) => [view.id, view.author, view.title, view.ratio])).toEqual([
      ["b50", "bob.test", "Why I quit", 5],
      ["a10", "alice.test", "Big", 4]
    ])
    expect(
      outperformers([alice, bob], { predicate: hasTitle(true), minRatio: 2, limit: 1, firstLineAsTitle: true }).map(
        (view) => view.id
      )
    ).toEqual(["b50"])
    // The ratio bound is inclusive: Alice's 10 is exactly 4 times her median.
    expect(outperformers([alice], { predicate: () => true, minRatio: 4, limit: 5 }).map((view) => view.id)).toEqual([
      "a10"
    ])
  })

  it("studies carousels and documents the same way", () => {
    const carousels = outperformers([alice, bob], { predicate: isCarouselOrDocument, minRatio: 1, limit: 10 })
    // a10 (document, 4), a3 (carousel, 1.2), b10b (three images, 1).
    expect(carousels.map((view) => [view.id, view.format, view.ratio])).toEqual([
      ["a10", "document", 4],
      ["a3", "carousel", 1.2],
      ["b10b", "image", 1]
    ])
    expect(outperformers([], { predicate: isCarouselOrDocument, minRatio: 1, limit: 10 })).toEqual([])
  })

  it("answers values the schema encodes, for tool answers", () => {
    const views = outperformers([alice, bob], { predicate: () => true, minRatio: 0, limit: 3 })
    const encoded = Schema.encodeSync(Schema.Array(RankedPostView))(views)
    expect(encoded.map((view) => view.id)).toEqual(["b50", "a10", "a3"])
  })
})

describe("a creator's analysis", () => {
  const longText = `${"word ".repeat(100)}end`
  const posts = [
    post({ id: "p1", metrics: liked(1), at: "2026-03-02T23:30:00Z", text: "Effect schema tips #typescript" }),
    post({ id: "p2", metrics: liked(2), at: "2026-03-09T23:30:00Z", text: "More effect schema" }),
    post({ id: "p3", metrics: liked(3), at: "2026-03-16T23:30:00Z", format: "image", mediaCount: 1, text: longText }),
    post({ id: "p10", metrics: liked(10), at: "2026-03-23T23:30:00Z", format: "image", mediaCount: 1, title: "Why" }),
    post({ id: "rss", metrics: NO_METRICS, at: null, format: "article", text: "An article about effect" })
  ]

  it("puts cadence, engagement, top posts, formats and topics together", () => {
    const analysis = right(analyzeCreator(creator("alice.test", 1_000), posts, "America/New_York", 2))
    expect(analysis).toMatchObject({ sampleSize: 5, dated: 4, undated: 1 })
    expect([analysis.from, analysis.to]).toEqual([new Date("2026-03-02T23:30:00Z"), new Date("2026-03-23T23:30:00Z")])
    // Every dated post is a Monday evening in New York: 18:30 EST, then 19:30 EDT from 8 March. Three gaps in three
    // weeks: one a week.
    expect(analysis.cadence).toMatchObject({ busiestWeekday: "monday", busiestHour: 19, postsPerWeek: 1 })
    expect(hours(analysis.cadence)).toEqual({ 18: 1, 19: 3 })
    expect(analysis.engagement).toEqual({ count: 4, median: 2.5, p25: 1.75, p75: 4.75, iqr: 3, min: 1, max: 10 })
    expect(analysis.topPosts.map((view) => [view.id, view.title, view.ratio, view.creatorMedian])).toEqual([
      ["p10", "Why", 4, 2.5],
      ["p3", null, 1.2, 2.5]
    ])
    // 505 characters of text: 279 of them and an ellipsis.
    expect(analysis.topPosts[1]?.excerpt).toHaveLength(280)
    expect(analysis.topPosts[1]?.excerpt.endsWith("…")).toBe(true)
    expect(analysis.formats).toEqual([
      { format: "text", posts: 2, medianEngagement: 1.5 },
      { format: "image", posts: 2, medianEngagement: 6.5 },
      { format: "article", posts: 1, medianEngagement: null }
    ])
    expect(analysis.topics.slice(0, 3)).toEqual([
      { term: "effect", posts: 3 },
      { term: "effect schema", posts: 2 },
      { term: "schema", posts: 2 }
    ])
    expect(analysis.notes).toEqual([
      "1 post has no engagement counts: left out of the engagement figures.",
      "1 post has no publication time: left out of the cadence."
    ])
    const encoded = Schema.encodeSync(CreatorAnalysis)(analysis)
    expect(encoded.from).toBe("2026-03-02T23:30:00.000Z")
    expect(Schema.decodeUnknownSync(CreatorAnalysis)(JSON.parse(JSON.stringify(encoded)))).toEqual(analysis)
  })

  it("says so when no post has engagement, as for a feed of articles", () => {
    const feed = [
      post({ id: "a", format: "article", at: "2026-03-02T10:00:00Z" }),
      post({ id: "b", format: "article" })
    ]
    const analysis = right(analyzeCreator(creator("blog.test", null), feed, "UTC", 5))
    expect(analysis.engagement).toBeNull()
    expect(analysis.topPosts).toEqual([])
    expect(analysis.notes[0]).toMatch(/^No post has engagement counts/)
  })

  it("answers empty figures for no posts", () => {
    const analysis = right(analyzeCreator(creator("quiet.test", 10), [], "UTC", 5))
    expect(analysis).toMatchObject({
      sampleSize: 0,
      dated: 0,
      undated: 0,
      from: null,
      to: null,
      engagement: null,
      topPosts: [],
      formats: [],
      topics: [],
      notes: ["No posts were read: every figure is empty."]
    })
    expect(analysis.cadence).toMatchObject({ postsPerWeek: null, busiestWeekday: null, busiestHour: null })
  })

  it("refuses a bad time zone as invalid on timeZone", () => {
    const refused = analyzeCreator(creator("alice.test", 1), posts, "Not/AZone", 2)
    expect(Either.isLeft(refused) && refused.left.errors[0]?.path).toBe("timeZone")
  })
})

describe("creators side by side", () => {
  const weekly = (prefix: string, likes: ReadonlyArray<number>, format: PostFormat = "text") =>
    likes.map((count, i) =>
      post({
        id: `${prefix}${i}`,
        metrics: liked(count),
        at: `2026-03-${String(2 + 7 * i).padStart(2, "0")}T12:00:00Z`,
        format
      })
    )

  it("rows every creator's figures and ranks each figure, ties sharing a rank", () => {
    const analyses = [
      // Alice: 1000 followers, median 2.5, best ratio 4, weekly.
      right(analyzeCreator(creator("alice.test", 1_000), weekly("a", [1, 2, 3, 10]), "UTC", 3)),
      // Bob: 2000 followers, median 10, best ratio 5, weekly, images.
      right(analyzeCreator(creator("bob.test", 2_000), weekly("b", [10, 10, 10, 50], "image"), "UTC", 3)),
      // Carol: followers unknown, one post.
      right(analyzeCreator(creator("carol.test", null), weekly("c", [4]), "UTC", 3))
    ]
    const rows = compareCreators(analyses)
    expect(
      rows.map((row) => [
        row.handle,
        row.followers,
        row.sampleSize,
        row.postsPerWeek,
        row.medianEngagement,
        row.engagementPer1kFollowers,
        row.topFormat,
        row.bestRatio
      ])
    ).toEqual([
      ["alice.test", 1_000, 4, 1, 2.5, 2.5, "text", 4],
      ["bob.test", 2_000, 4, 1, 10, 5, "image", 5],
      ["carol.test", null, 1, null, 4, null, "text", 1]
    ])
    expect(rows.map((row) => row.ranks)).toEqual([
      { followers: 2, postsPerWeek: 1, medianEngagement: 3, engagementPer1kFollowers: 2, bestRatio: 2 },
      { followers: 1, postsPerWeek: 1, medianEngagement: 1, engagementPer1kFollowers: 1, bestRatio: 1 },
      { followers: null, postsPerWeek: null, medianEngagement: 2, engagementPer1kFollowers: null, bestRatio: 3 }
    ])
    expect(Schema.encodeSync(Schema.Array(CreatorComparisonRow))(rows)).toHaveLength(3)
  })

  it("has no engagement per follower with 0 followers, and no rows for no creators", () => {
    const [row] = compareCreators([right(analyzeCreator(creator("new.test", 0), weekly("n", [3]), "UTC", 1))])
    expect([row?.medianEngagement, row?.engagementPer1kFollowers, row?.ranks.followers]).toEqual([3, null, 1])
    expect(compareCreators([])).toEqual([])
  })
})
