/**
 * Analytics of a workspace's own published posts, on the real test database: posts go out through a scripted
 * Bluesky publisher and the own feed, the metrics worker fetches them from a scripted network on its schedule (which
 * slows as posts age), and the tools answer from the stored samples. Two workers never hold one fetch at once, and a
 * failing network backs off without losing anything.
 */
import { describe, expect, layer } from "@effect/vitest"
import {
  AnalyticsRepo,
  AnalyticsWorkerLive,
  claimDueFetches,
  fetchDueMetrics,
  MetricsFailure,
  type MetricsReader,
  type PostMetrics
} from "@svc/core/analytics"
import type { Principal } from "@svc/core/auth"
import { type PlatformPublisher, PostsRepo, publishDuePosts, Scheduling } from "@svc/core/scheduling"
import { Clock, Duration, Effect, Layer, Option, Schedule, TestClock } from "effect"
import { callTool } from "../custom-ai/ask-support.js"
import { analyticsTestLayer } from "./support.js"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"

/** The scripted network: the posts it holds (by remote id) with their counts, and what the next reads do. */
const network = {
  counts: new Map<string, PostMetrics>(),
  failNext: [] as Array<MetricsFailure>,
  reads: [] as Array<ReadonlyArray<string>>,
  /** Reads in flight at once, per remote id (a second concurrent read of one post would show here). */
  inFlight: new Map<string, number>(),
  overlaps: 0
}

const publisher: PlatformPublisher = {
  platform: "bluesky",
  verify: (_serviceUrl, credentials) =>
    Effect.succeed({
      handle: String(credentials.identifier),
      displayName: null,
      serviceUrl: "https://pds.test",
      credentials
    }),
  publish: (request) =>
    Effect.sync(() => {
      const remoteId = `at://did:plc:test/app.bsky.feed.post/${request.deliveryId}`
      network.counts.set(remoteId, { likes: 0, replies: 0, reposts: 0, quotes: 0, views: null, clicks: null })
      return { remoteId, url: `https://bsky.test/${request.deliveryId}` }
    }),
  findPublished: () => Effect.succeed(Option.none())
}

/** Bluesky as the tests script it: 3 posts a batch (to see batching), answering what `network` holds. */
const reader: MetricsReader = {
  platform: "bluesky",
  batchSize: 3,
  read: ({ account, remoteIds }) =>
    Effect.gen(function* () {
      if (account.credentials.appPassword !== "right") {
        return yield* Effect.fail(new MetricsFailure({ kind: "credentials", message: "Invalid app password" }))
      }
      const failure = network.failNext.shift()
      if (failure !== undefined) return yield* Effect.fail(failure)
      network.reads.push(remoteIds)
      for (const id of remoteIds) {
        const n = (network.inFlight.get(id) ?? 0) + 1
        if (n > 1) network.overlaps += 1
        network.inFlight.set(id, n)
      }
      yield* Effect.yieldNow()
      for (const id of remoteIds) network.inFlight.set(id, (network.inFlight.get(id) ?? 1) - 1)
      return new Map(
        remoteIds.flatMap((id) => (network.counts.has(id) ? [[id, network.counts.get(id) as PostMetrics]] : []))
      )
    })
}

const testLayer = analyticsTestLayer([publisher], [reader])

const START = Date.parse("2026-12-01T08:00:00Z")
const HOUR = 3_600_000
const DAY = 24 * HOUR
const worker = { leaseMs: 60_000, concurrency: 4 }

type Listed = {
  readonly postId: string
  readonly text: string
  readonly publishedAt: string
  readonly metricsAt: string | null
  readonly likes: number | null
  readonly replies: number | null
  readonly views: number | null
  readonly clicks: number | null
  readonly engagement: number | null
  readonly platforms: ReadonlyArray<{
    readonly platform: string
    readonly url: string | null
    readonly likes: number | null
    readonly views: number | null
    readonly clicks: number | null
    readonly metricsAt: string | null
  }>
}
type Figure = {
  readonly platform: string
  readonly metric: string
  readonly value: number | null
  readonly previous: number | null
  readonly changePercent: number | null
}

const listed = (answer: Record<string, unknown>) => {
  expect(answer.ok, JSON.stringify(answer)).toBe(true)
  return answer.posts as ReadonlyArray<Listed>
}
const figure = (answer: Record<string, unknown>, platform: string, metric: string) =>
  (answer.figures as ReadonlyArray<Figure>).find((f) => f.platform === platform && f.metric === metric)

/** A Starter account with the scripted Bluesky account connected. */
const withAccount = (appPassword = "right") =>
  Effect.gen(function* () {
    const user = yield* signUp({ plan: "starter" })
    const scheduling = yield* Scheduling
    yield* scheduling.connectAccount(user.workspace.id, "bluesky", "https://pds.test", {
      identifier: "me.test",
      appPassword
    })
    return user
  })

/** Schedules a post for now and runs the publisher until it went out; answers its id and remote ids by platform. */
const publish = (principal: Principal, workspaceId: string, text: string, platforms: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const answer = yield* callTool(principal, "svc_schedule_post", { text, platforms, draft: true })
    expect(answer.ok, JSON.stringify(answer)).toBe(true)
    const id = (answer.post as { readonly id: string }).id
    yield* (yield* Scheduling).publishNow(workspaceId, id)
    while ((yield* publishDuePosts(worker)) > 0) {}
    const post = yield* (yield* PostsRepo).find(workspaceId, id)
    const deliveries = Option.getOrThrow(post).deliveries
    expect(deliveries.every((d) => d.status === "posted")).toBe(true)
    return {
      id,
      remote: Object.fromEntries(deliveries.map((d) => [d.platform, d.remoteId ?? ""])),
      delivery: Object.fromEntries(deliveries.map((d) => [d.platform, d.id]))
    }
  })

const fetchAll = Effect.gen(function* () {
  let total = 0
  for (let n = yield* fetchDueMetrics(worker); n > 0; n = yield* fetchDueMetrics(worker)) total += n
  return total
})

const setCounts = (remoteId: string | undefined, counts: Partial<PostMetrics>) => {
  const id = remoteId ?? ""
  const was = network.counts.get(id)
  if (was === undefined) throw new Error(`no post ${id} on the scripted network`)
  network.counts.set(id, { ...was, ...counts })
}

layer(testLayer, { timeout: "120 seconds" })(`analytics (${engineName})`, (it) => {
  describe("posts and their metrics", () => {
    it.effect("published posts get their platforms' metrics, null where a platform gives none, sorted and paged", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const { principal, workspace } = yield* withAccount()
        const first = yield* publish(principal, workspace.id, "First: https://example.com/a", ["feed", "bluesky"])
        yield* TestClock.adjust(Duration.minutes(1))
        const second = yield* publish(principal, workspace.id, "Second", ["bluesky"])
        yield* TestClock.adjust(Duration.minutes(1))
        const third = yield* publish(principal, workspace.id, "Third, on the feed only", ["feed"])

        // Before the worker's first look nothing is measured: no figures are invented.
        const before = listed(yield* callTool(principal, "svc_list_analytics_posts", {}))
        expect(before.map((p) => p.postId)).toEqual([third.id, second.id, first.id])
        expect(before[0]).toMatchObject({ metricsAt: null, likes: null, clicks: null, engagement: null })

        setCounts(first.remote.bluesky, { likes: 5, replies: 2, reposts: 1, quotes: 0 })
        setCounts(second.remote.bluesky, { likes: 9, replies: 0, reposts: 3, quotes: 1 })
        const repo = yield* AnalyticsRepo
        yield* repo.recordClick(workspace.id, first.id, new Date(yield* TestClock.currentTimeMillis))
        yield* repo.recordClick(workspace.id, first.id, new Date(yield* TestClock.currentTimeMillis))
        expect(yield* fetchAll).toBe(4)

        const posts = listed(yield* callTool(principal, "svc_list_analytics_posts", {}))
        const firstListed = posts.find((p) => p.postId === first.id)
        expect(firstListed).toMatchObject({
          text: "First: https://example.com/a",
          publishedAt: new Date(START).toISOString(),
          likes: 5,
          replies: 2,
          views: null,
          clicks: 2,
          engagement: 8
        })
        expect(firstListed?.platforms).toEqual([
          expect.objectContaining({
            platform: "bluesky",
            url: expect.stringContaining("https://bsky.test/"),
            likes: 5,
            views: null,
            clicks: null
          }),
          expect.objectContaining({ platform: "feed", likes: null, views: null, clicks: 2 })
        ])
        // The feed-only post has clicks (none yet) and nothing else.
        expect(posts.find((p) => p.postId === third.id)).toMatchObject({ likes: null, clicks: 0, engagement: null })

        // Sorted by likes, most first; the feed-only post (no likes at all) comes last. Paged one at a time.
        const seen: Array<string> = []
        let cursor: string | undefined
        do {
          const page = yield* callTool(principal, "svc_list_analytics_posts", {
            sort: "likes",
            limit: 1,
            ...(cursor === undefined ? {} : { cursor })
          })
          seen.push(...listed(page).map((p) => p.postId))
          cursor = page.nextCursor as string | undefined
        } while (cursor !== undefined)
        expect(seen).toEqual([second.id, first.id, third.id])
        const ascending = listed(
          yield* callTool(principal, "svc_list_analytics_posts", { sort: "likes", order: "asc" })
        )
        expect(ascending.map((p) => p.postId)).toEqual([first.id, second.id, third.id])
        const byEngagement = listed(yield* callTool(principal, "svc_list_analytics_posts", { sort: "engagement" }))
        expect(byEngagement.map((p) => p.engagement)).toEqual([13, 8, null])
        const feedOnly = listed(yield* callTool(principal, "svc_list_analytics_posts", { platform: "feed" }))
        expect(feedOnly.map((p) => [p.postId, p.likes, p.clicks])).toEqual([
          [third.id, null, 0],
          [first.id, null, 2]
        ])
        // A cursor of another sort is refused.
        const page = yield* callTool(principal, "svc_list_analytics_posts", { sort: "likes", limit: 1 })
        const mixed = yield* callTool(principal, "svc_list_analytics_posts", {
          sort: "replies",
          cursor: page.nextCursor
        })
        expect(mixed).toMatchObject({ ok: false, status: "invalid" })
      })
    )

    it.effect("the period's figures are compared with the period before", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const { principal, workspace } = yield* withAccount()
        const old = yield* publish(principal, workspace.id, "Last month", ["bluesky"])
        setCounts(old.remote.bluesky, { likes: 4, replies: 1, reposts: 0, quotes: 0 })
        yield* fetchAll
        yield* TestClock.adjust(Duration.days(10))
        const a = yield* publish(principal, workspace.id, "This month A", ["bluesky", "feed"])
        const b = yield* publish(principal, workspace.id, "This month B", ["bluesky"])
        setCounts(a.remote.bluesky, { likes: 3, replies: 0, reposts: 2, quotes: 0 })
        setCounts(b.remote.bluesky, { likes: 3, replies: 1, reposts: 0, quotes: 0 })
        yield* TestClock.adjust(Duration.minutes(1))
        yield* fetchAll

        const week = yield* callTool(principal, "svc_get_analytics", { days: 7 })
        expect(week).toMatchObject({ ok: true, to: new Date(START + 10 * DAY + 60_000).toISOString() })
        expect(figure(week, "all", "postsPublished")).toEqual({
          platform: "all",
          metric: "postsPublished",
          value: 2,
          previous: 1,
          changePercent: 100
        })
        expect(figure(week, "all", "likes")).toMatchObject({ value: 6, previous: 4, changePercent: 50 })
        expect(figure(week, "all", "replies")).toMatchObject({ value: 1, previous: 1, changePercent: 0 })
        expect(figure(week, "all", "reposts")).toMatchObject({ value: 2, previous: 0, changePercent: null })
        // Nobody gives views: null, never 0.
        expect(figure(week, "all", "views")).toMatchObject({ value: null, previous: null, changePercent: null })
        expect(figure(week, "bluesky", "postsPublished")).toMatchObject({ value: 2, previous: 1 })
        expect(figure(week, "feed", "clicks")).toMatchObject({ value: 0, previous: null, changePercent: null })
        expect(figure(week, "feed", "likes")).toMatchObject({ value: null })

        const days = yield* callTool(principal, "svc_get_analytics", { from: "2026-12-11", to: "2026-12-11" })
        expect(figure(days, "all", "postsPublished")).toMatchObject({ value: 2, previous: 0 })
        expect(days.previousFrom).toBe("2026-12-10T00:00:00.000Z")
        const refused = yield* callTool(principal, "svc_get_analytics", { days: 7, from: "2026-12-01" })
        expect(refused).toMatchObject({ ok: false, status: "invalid" })
        const tooLong = yield* callTool(principal, "svc_get_analytics", { from: "2024-01-01", to: "2026-12-01" })
        expect(tooLong).toMatchObject({ ok: false, status: "invalid" })
        // The Scheduling group's plan gate: a Free account is refused.
        const free = yield* signUp({ plan: "free" })
        const gated = yield* callTool(free.principal, "svc_get_analytics", {})
        expect(gated).toMatchObject({ ok: false, status: "forbidden" })
      })
    )
  })

  describe("the fetch worker", () => {
    // On the live clock: the worker's loop sleeps between looks.
    it.scoped("runs in the background, on a shorter first-day interval when set", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* withAccount()
        const post = yield* publish(principal, workspace.id, "Live", ["bluesky"])
        yield* Layer.build(AnalyticsWorkerLive({ leaseMs: 10_000, idleMs: 100, firstDayEveryMs: 10_000 }))
        const repo = yield* AnalyticsRepo
        const samples = (n: number) =>
          Effect.gen(function* () {
            const found = yield* repo.samples(post.delivery.bluesky ?? "")
            if (found.length < n) return yield* Effect.fail("not yet")
            return found
          }).pipe(Effect.retry(Schedule.spaced("200 millis")), Effect.timeout("20 seconds"))
        expect((yield* samples(1))[0]?.metrics.likes).toBe(0)
        setCounts(post.remote.bluesky, { likes: 7 })
        const [first, second] = yield* samples(2)
        expect(second?.metrics.likes).toBe(7)
        expect((second?.takenAt.getTime() ?? 0) - (first?.takenAt.getTime() ?? 0)).toBeGreaterThanOrEqual(10_000)
      }).pipe(Effect.withClock(Clock.make()))
    )

    it.effect(
      "fetches every 15 minutes the first day, hourly to day 7, daily to day 30, weekly to day 90, then stops",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(START)
          const { principal, workspace } = yield* withAccount()
          const post = yield* publish(principal, workspace.id, "Aging", ["bluesky"])
          const deliveryId = post.delivery.bluesky ?? ""
          const repo = yield* AnalyticsRepo
          const samplesIn = (ms: number, stepMs = 60_000) =>
            Effect.gen(function* () {
              const start = (yield* repo.samples(deliveryId)).length
              const end = (yield* TestClock.currentTimeMillis) + ms
              // Step the clock (a minute at a time by default), running the worker at each step, as its loop would.
              while ((yield* TestClock.currentTimeMillis) < end) {
                yield* fetchAll
                yield* TestClock.adjust(Duration.millis(stepMs))
              }
              return (yield* repo.samples(deliveryId)).length - start
            })
          // Day 1: every 15 minutes (the first at once): 4 an hour.
          expect(yield* samplesIn(HOUR)).toBe(4)
          yield* TestClock.setTime(START + DAY + 30_000)
          // Day 2: hourly (the first of them the one due since the first day's last).
          expect(yield* samplesIn(3 * HOUR)).toBe(3)
          // Day 10: daily.
          yield* TestClock.setTime(START + 10 * DAY)
          expect(yield* samplesIn(2 * DAY, HOUR)).toBe(2)
          // Day 40: weekly.
          yield* TestClock.setTime(START + 40 * DAY)
          expect(yield* samplesIn(9 * DAY, DAY)).toBe(2)
          // After day 90: the last fetch, then never again.
          yield* TestClock.setTime(START + 91 * DAY)
          yield* fetchAll
          const last = (yield* repo.samples(deliveryId)).length
          yield* TestClock.setTime(START + 120 * DAY)
          yield* fetchAll
          expect((yield* repo.samples(deliveryId)).length).toBe(last)
          // Samples are a time series: the first at posting, each with its time.
          const samples = yield* repo.samples(deliveryId)
          expect(samples[0]?.takenAt.toISOString()).toBe(new Date(START).toISOString())
          expect(samples.map((s) => s.takenAt.getTime())).toEqual(
            [...samples.map((s) => s.takenAt.getTime())].sort((x, y) => x - y)
          )
        })
    )

    it.effect("two workers never hold one fetch at once; a lost claim records nothing", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const { principal, workspace } = yield* withAccount()
        const ours = yield* Effect.forEach([1, 2, 3, 4, 5, 6, 7], (n) =>
          Effect.map(publish(principal, workspace.id, `Post ${n}`, ["bluesky"]), (post) => post.delivery.bluesky ?? "")
        )
        // Posts of other tests may be due as well: what these two workers claim must not overlap, and together they
        // hold all of ours (on PostgreSQL one may find every row locked by the other and take none).
        const [a, b] = yield* Effect.all([claimDueFetches(4, 60_000), claimDueFetches(100, 60_000)], {
          concurrency: 2
        })
        const idsA = a.flat().map((f) => f.deliveryId)
        const idsB = b.flat().map((f) => f.deliveryId)
        expect(idsA.filter((id) => idsB.includes(id))).toEqual([])
        expect([...idsA, ...idsB]).toEqual(expect.arrayContaining(ours))
        // Held: a third look finds nothing of them.
        const third = (yield* claimDueFetches(100, 60_000)).flat().map((f) => f.deliveryId)
        expect(third.filter((id) => idsA.includes(id) || idsB.includes(id))).toEqual([])
        // After the lease, another worker takes them over; the first holder's record is refused.
        yield* TestClock.adjust(Duration.minutes(2))
        const taken = (yield* claimDueFetches(100, 60_000)).flat()
        expect(taken.map((f) => f.deliveryId)).toEqual(expect.arrayContaining(ours))
        const repo = yield* AnalyticsRepo
        const stale = [...a.flat(), ...b.flat()].find((f) => ours.includes(f.deliveryId))
        if (stale === undefined) throw new Error("nothing claimed")
        const recorded = yield* repo.record(stale.deliveryId, stale.claimToken, {
          sample: {
            takenAt: new Date(),
            metrics: { likes: 1, replies: 1, reposts: 1, quotes: 1, views: null, clicks: null }
          },
          nextFetchAt: null,
          failures: 0,
          error: null
        })
        expect(recorded).toBe(false)
        expect(yield* repo.samples(stale.deliveryId)).toEqual([])
        // Two worker loops at once read each post once at a time, in batches of the reader's size.
        yield* TestClock.adjust(Duration.minutes(2))
        network.overlaps = 0
        network.reads.length = 0
        yield* Effect.all([fetchAll, fetchAll], { concurrency: 2 })
        expect(network.overlaps).toBe(0)
        expect(network.reads.every((batch) => batch.length <= 3)).toBe(true)
        const read = network.reads.flat()
        expect(new Set(read).size).toBe(read.length)
      })
    )

    it.effect("a failing network backs off and loses nothing; a deleted post stops being fetched", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START + 200 * DAY)
        // The other tests' posts are past 90 days now: their last fetch, then none.
        yield* fetchAll
        const { principal, workspace } = yield* withAccount()
        const post = yield* publish(principal, workspace.id, "Flaky", ["bluesky"])
        const deliveryId = post.delivery.bluesky ?? ""
        const repo = yield* AnalyticsRepo
        network.failNext.push(new MetricsFailure({ kind: "temporary", message: "the AppView answered 502" }))
        yield* fetchAll
        expect(yield* repo.samples(deliveryId)).toEqual([])
        // Backed off 5 minutes: not yet at 4, fetched at 5.
        yield* TestClock.adjust(Duration.minutes(4))
        expect(yield* fetchAll).toBe(0)
        yield* TestClock.adjust(Duration.minutes(1))
        network.failNext.push(new MetricsFailure({ kind: "temporary", message: "slow down", retryAfterMs: HOUR }))
        expect(yield* fetchAll).toBe(1)
        // The network asked for an hour.
        yield* TestClock.adjust(Duration.minutes(59))
        expect(yield* fetchAll).toBe(0)
        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* fetchAll).toBe(1)
        expect(yield* repo.samples(deliveryId)).toHaveLength(1)

        // Credentials that stopped working: no sample, the schedule kept, fetched again once they work.
        const scheduling = yield* Scheduling
        yield* scheduling.connectAccount(workspace.id, "bluesky", "https://pds.test", {
          identifier: "me.test",
          appPassword: "revoked"
        })
        yield* TestClock.adjust(Duration.minutes(15))
        expect(yield* fetchAll).toBe(1)
        expect(yield* repo.samples(deliveryId)).toHaveLength(1)
        yield* scheduling.connectAccount(workspace.id, "bluesky", "https://pds.test", {
          identifier: "me.test",
          appPassword: "right"
        })
        yield* TestClock.adjust(Duration.minutes(5))
        expect(yield* fetchAll).toBe(1)
        expect(yield* repo.samples(deliveryId)).toHaveLength(2)

        // Deleted on the network: fetched no more.
        network.counts.delete(post.remote.bluesky ?? "")
        yield* TestClock.adjust(Duration.minutes(15))
        expect(yield* fetchAll).toBe(1)
        yield* TestClock.adjust(Duration.days(3))
        expect(yield* fetchAll).toBe(0)
        // Its last figures stay.
        const posts = listed(yield* callTool(principal, "svc_list_analytics_posts", {}))
        expect(posts[0]).toMatchObject({ postId: post.id, likes: 0 })
      })
    )
  })
})
