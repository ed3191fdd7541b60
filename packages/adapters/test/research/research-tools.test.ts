/**
 * Research through its tools on the real test database, with outside sources the test scripts (stand-ins for
 * networks; the real adapters have their own tests against local peers): answers name their sources, a source that
 * is down, not set up or rate-limited leaves the others answering, answers are cached, calls are charged and
 * refunded on failure, lists are kept per workspace, and the workspace's library answers with no source at all.
 */
import { describe, expect, layer } from "@effect/vitest"
import type { Principal } from "@svc/core/auth"
import { Credits } from "@svc/core/credits"
import { Ad, Brand, Creator, type SocialSource, SocialSources, SocialPost, SourceFailure } from "@svc/core/research"
import { Effect, Layer, Option, TestClock } from "effect"
import { callTool } from "../custom-ai/ask-support.js"
import { signUp, testCoreLayer } from "../support/core.js"

type Mode = "ok" | "down" | "limited"
const alpha = { mode: "ok" as Mode, calls: 0 }

const DAY = 86_400_000
const BASE = Date.parse("2026-03-02T12:00:00Z")

const creator = (handle: string, followers: number) =>
  new Creator({
    platform: "bluesky",
    id: `did:plc:${handle}`,
    handle,
    name: handle.toUpperCase(),
    bio: null,
    url: `https://bsky.app/profile/${handle}`,
    avatarUrl: null,
    followers,
    following: 3,
    posts: 5,
    source: "alpha"
  })

/** Five posts a day apart; likes as given, one reply each; the first line is the post's "title". */
const postsOf = (handle: string, likes: ReadonlyArray<number>) =>
  likes.map(
    (count, i) =>
      new SocialPost({
        platform: "bluesky",
        id: `at://did:plc:${handle}/app.bsky.feed.post/${i}`,
        url: `https://bsky.app/profile/${handle}/post/${i}`,
        author: { handle, name: handle },
        title: null,
        text: `${handle} post ${i} about gardening\nmore words`,
        format: i === 0 ? "carousel" : "text",
        mediaCount: i === 0 ? 3 : 0,
        createdAt: new Date(BASE - i * DAY),
        metrics: { likes: count, replies: 1, reposts: 0, quotes: 0, views: null },
        source: "alpha"
      })
  )

const CREATORS: Record<string, { creator: Creator; posts: Array<SocialPost> }> = {
  "alice.test": { creator: creator("alice.test", 1500), posts: postsOf("alice.test", [99, 1, 3, 5, 7]) },
  "bob.test": { creator: creator("bob.test", 200), posts: postsOf("bob.test", [10, 10, 10, 10, 10]) }
}

const gate = <A>(answer: () => A) =>
  Effect.suspend(() => {
    alpha.calls += 1
    if (alpha.mode === "down") return Effect.fail(new SourceFailure({ kind: "unavailable", message: "HTTP 503" }))
    if (alpha.mode === "limited") {
      return Effect.fail(new SourceFailure({ kind: "rate-limited", message: "HTTP 429", retryAfterMs: 30_000 }))
    }
    return Effect.succeed(answer())
  })

const alphaSource: SocialSource = {
  name: "alpha",
  platforms: ["bluesky"],
  missingSetting: null,
  creators: {
    resolve: (ref) => gate(() => Option.fromNullable(CREATORS[ref.text.replace(/^@/, "")]?.creator)),
    search: (query) =>
      gate(() =>
        Object.values(CREATORS)
          .filter((c) => c.creator.handle.includes(query))
          .map((c) => c.creator)
      )
  },
  posts: {
    ofCreator: (key, limit) => gate(() => (CREATORS[key.handle]?.posts ?? []).slice(0, limit)),
    read: (ref) =>
      gate(() =>
        Option.fromNullable(
          Object.values(CREATORS)
            .flatMap((c) => c.posts)
            .find((p) => p.url === ref.text)
        )
      )
  },
  search: {
    posts: (query) =>
      gate(() =>
        Object.values(CREATORS)
          .flatMap((c) => c.posts)
          .filter((p) => p.text.includes(query))
      )
  },
  follows: {
    of: () => gate(() => [creator("big.test", 2_000_000), creator("small.test", 50)])
  }
}

const betaSource: SocialSource = { name: "beta", platforms: ["youtube"], missingSetting: "SVC_BETA_KEY" }

const acme = new Brand({ id: "111", name: "Acme" })
const adOf = (id: string) =>
  new Ad({
    id,
    brand: acme,
    title: "Big sale",
    text: "Gardening tools",
    startedAt: new Date(BASE),
    endedAt: null,
    active: true,
    placements: ["facebook"],
    url: null,
    source: "ads"
  })
const adsSource: SocialSource = {
  name: "ads",
  platforms: [],
  missingSetting: null,
  ads: {
    search: (query) => Effect.succeed(query.query === "garden" ? [adOf("a1"), adOf("a2")] : []),
    resolveBrand: (name) =>
      Effect.succeed(name.toLowerCase() === "acme" || name === "111" ? Option.some(acme) : Option.none()),
    ofBrand: (brand, _active, limit) => Effect.succeed(brand.id === "111" ? [adOf("a1")].slice(0, limit) : [])
  }
}

const sources = Layer.succeed(SocialSources, [alphaSource, betaSource, adsSource])

type Answer = Record<string, unknown> & {
  readonly ok: boolean
  readonly status?: string
  readonly message?: string
  readonly sources?: ReadonlyArray<{ source: string; status: string; cached: boolean; setting: string | null }>
}
const call = (principal: Principal, name: string, args: unknown) =>
  Effect.map(callTool(principal, name, args), (answer) => answer as Answer)
const statusOf = (answer: Answer, source: string) => answer.sources?.find((s) => s.source === source)
const balanceOf = (principal: Principal) =>
  Effect.map(
    Effect.flatMap(Credits, (credits) => credits.balance(principal.accountId)),
    (b) => b.balanceTenths
  )

const reset = Effect.sync(() => {
  alpha.mode = "ok"
  alpha.calls = 0
})

layer(testCoreLayer(sources), { timeout: "120 seconds" })("research tools", (it) => {
  describe("creators", () => {
    it.effect("resolves a handle, names every source, charges 0.1 credits and caches the answer", () =>
      Effect.gen(function* () {
        yield* reset
        yield* TestClock.setTime(BASE)
        const { principal } = yield* signUp()
        const before = yield* balanceOf(principal)
        const first = yield* call(principal, "svc_resolve_creator", { creator: "@alice.test" })
        expect(first.ok).toBe(true)
        expect((first.creator as { handle: string }).handle).toBe("alice.test")
        expect(first.creditsCharged).toBe(0.1)
        expect(yield* balanceOf(principal)).toBe(before - 1)
        expect(statusOf(first, "alpha")).toMatchObject({ status: "ok", cached: false })
        expect(statusOf(first, "beta")).toMatchObject({ status: "not-set-up", setting: "SVC_BETA_KEY" })
        expect(statusOf(first, "library")?.status).toBe("ok")
        const calls = alpha.calls
        const again = yield* call(principal, "svc_resolve_creator", { creator: "@alice.test" })
        expect(alpha.calls).toBe(calls)
        expect(statusOf(again, "alpha")).toMatchObject({ status: "ok", cached: true })
        // Past the profile's time in the cache, the source is asked again.
        yield* TestClock.adjust("7 hours")
        yield* call(principal, "svc_resolve_creator", { creator: "@alice.test" })
        expect(alpha.calls).toBe(calls + 1)
      })
    )

    it.effect("an unknown handle is not-found naming the networks searched, and costs nothing", () =>
      Effect.gen(function* () {
        yield* reset
        const { principal } = yield* signUp()
        const before = yield* balanceOf(principal)
        const answer = yield* call(principal, "svc_resolve_creator", { creator: "nobody.test" })
        expect(answer).toMatchObject({ ok: false, status: "not-found" })
        expect(answer.message).toContain("bluesky")
        expect(yield* balanceOf(principal)).toBe(before)
      })
    )

    it.effect("a network whose only source is not set up is refused naming the setting", () =>
      Effect.gen(function* () {
        yield* reset
        const { principal } = yield* signUp()
        const answer = yield* call(principal, "svc_resolve_creator", { creator: "somebody", platform: "youtube" })
        expect(answer).toMatchObject({ ok: false, status: "forbidden" })
        expect(answer.message).toContain("SVC_BETA_KEY")
      })
    )

    it.effect("a source that is down leaves the library answering, and is named as failed", () =>
      Effect.gen(function* () {
        yield* reset
        const { principal } = yield* signUp()
        yield* call(principal, "svc_save_posts_to_library", {
          posts: [{ url: "https://x.com/carol/status/123", text: "notes on gardening in winter" }]
        })
        alpha.mode = "down"
        const answer = yield* call(principal, "svc_search_social_content", {
          scope: "global",
          query: "gardening winter"
        })
        expect(answer.ok).toBe(true)
        expect((answer.posts as ReadonlyArray<{ source: string }>).map((p) => p.source)).toEqual(["library"])
        expect(statusOf(answer, "alpha")?.status).toBe("failed")
        // Alone, a failing source is unreachable, and the call is refunded.
        const before = yield* balanceOf(principal)
        const refused = yield* call(principal, "svc_resolve_creator", { creator: "alice.test", platform: "bluesky" })
        expect(refused).toMatchObject({ ok: false, status: "unreachable" })
        expect(yield* balanceOf(principal)).toBe(before)
      })
    )

    it.effect("a rate-limited source is left alone for its wait, and said so", () =>
      Effect.gen(function* () {
        yield* reset
        const { principal } = yield* signUp()
        alpha.mode = "limited"
        const first = yield* call(principal, "svc_resolve_creator", { creator: "bob.test", platform: "bluesky" })
        expect(first).toMatchObject({ ok: false, status: "conflict" })
        expect(first.message).toContain("retry after 30 s")
        const calls = alpha.calls
        alpha.mode = "ok"
        const paused = yield* call(principal, "svc_search_creators", { query: "bob", platform: "bluesky" })
        expect(alpha.calls).toBe(calls)
        expect(statusOf(paused, "alpha")?.status).toBe("rate-limited")
        yield* TestClock.adjust("31 seconds")
        const after = yield* call(principal, "svc_search_creators", { query: "bob", platform: "bluesky" })
        expect((after.creators as ReadonlyArray<{ handle: string }>).map((c) => c.handle)).toEqual(["bob.test"])
      })
    )

    it.effect("analyses a creator: median, spread, the top post against the median, cadence in the time zone", () =>
      Effect.gen(function* () {
        yield* reset
        const { principal } = yield* signUp()
        const answer = yield* call(principal, "svc_analyze_creator", {
          creator: "alice.test",
          timeZone: "America/New_York"
        })
        expect(answer.ok).toBe(true)
        expect(answer.creditsCharged).toBe(0.5)
        const analysis = answer.analysis as {
          sampleSize: number
          engagement: { median: number; min: number; max: number }
          topPosts: ReadonlyArray<{ id: string; ratio: number; engagement: number }>
          cadence: { byWeekday: Record<string, number>; timeZone: string }
        }
        // Engagement = likes + 1 reply: 100, 2, 4, 6, 8 → median 6.
        expect(analysis.sampleSize).toBe(5)
        expect(analysis.engagement).toMatchObject({ median: 6, min: 2, max: 100 })
        expect(analysis.topPosts[0]).toMatchObject({
          id: "at://did:plc:alice.test/app.bsky.feed.post/0",
          engagement: 100
        })
        expect(analysis.topPosts[0]?.ratio).toBeCloseTo(100 / 6, 2)
        // 2026-03-02T12:00Z is Monday 07:00 in New York; then a day earlier each.
        expect(analysis.cadence.byWeekday).toMatchObject({ monday: 1, sunday: 1, saturday: 1, friday: 1, thursday: 1 })
      })
    )

    it.effect("groups whom a creator follows by audience size", () =>
      Effect.gen(function* () {
        yield* reset
        const { principal } = yield* signUp()
        const answer = yield* call(principal, "svc_following_overview", { creator: "alice.test" })
        expect(answer.groups).toMatchObject([
          { tier: "mega", creators: [{ handle: "big.test" }] },
          { tier: "nano", creators: [{ handle: "small.test" }] }
        ])
      })
    )

    it.effect("reads a post by its URL", () =>
      Effect.gen(function* () {
        yield* reset
        const { principal } = yield* signUp()
        const answer = yield* call(principal, "svc_read_social_post", {
          post: "https://bsky.app/profile/bob.test/post/2"
        })
        expect((answer.post as { id: string }).id).toBe("at://did:plc:bob.test/app.bsky.feed.post/2")
        const alias = yield* call(principal, "svc_read_card", { post: "https://bsky.app/profile/bob.test/post/2" })
        expect(alias.ok).toBe(true)
      })
    )
  })

  describe("lists and studies", () => {
    it.effect("saves creators to a list, compares them, and finds the post that beats its creator's median", () =>
      Effect.gen(function* () {
        yield* reset
        const { principal } = yield* signUp()
        const saved = yield* call(principal, "svc_save_creators_to_list", {
          listName: "Gardeners",
          creators: [
            { platform: "bluesky", handle: "alice.test" },
            { platform: "bluesky", handle: "bob.test", id: "did:plc:bob.test" }
          ]
        })
        expect(saved).toMatchObject({ ok: true, added: 2, list: { name: "Gardeners", memberCount: 2 } })
        const again = yield* call(principal, "svc_save_creators_to_list", {
          listName: "gardeners",
          creators: [{ platform: "bluesky", handle: "bob.test", id: "did:plc:bob.test" }]
        })
        expect(again).toMatchObject({ added: 0, list: { memberCount: 2 } })
        const listId = (saved.list as { id: string }).id
        const compared = yield* call(principal, "svc_analyze_list", { listId })
        expect(compared.ok).toBe(true)
        const rows = compared.rows as ReadonlyArray<{
          handle: string
          medianEngagement: number
          ranks: { followers: number }
        }>
        expect(rows.map((r) => [r.handle, r.medianEngagement, r.ranks.followers])).toEqual([
          ["alice.test", 6, 1],
          ["bob.test", 11, 2]
        ])
        const titles = yield* call(principal, "svc_study_top_titles", { listId })
        const top = titles.posts as ReadonlyArray<{ id: string; title: string; ratio: number }>
        expect(top.map((p) => p.id)).toEqual(["at://did:plc:alice.test/app.bsky.feed.post/0"])
        expect(top[0]?.title).toBe("alice.test post 0 about gardening")
        const carousels = yield* call(principal, "svc_study_top_carousels", { listName: "Gardeners", minRatio: 1.5 })
        expect((carousels.posts as ReadonlyArray<{ id: string }>).map((p) => p.id)).toEqual([
          "at://did:plc:alice.test/app.bsky.feed.post/0"
        ])
      })
    )

    it.effect("a list of another workspace is not-found", () =>
      Effect.gen(function* () {
        yield* reset
        const owner = yield* signUp()
        const other = yield* signUp()
        const saved = yield* call(owner.principal, "svc_save_creators_to_list", {
          listName: "Mine",
          creators: [{ platform: "bluesky", handle: "bob.test", id: "did:plc:bob.test" }]
        })
        const listId = (saved.list as { id: string }).id
        const answer = yield* call(other.principal, "svc_analyze_list", { listId })
        expect(answer).toMatchObject({ ok: false, status: "not-found" })
        const missing = yield* call(other.principal, "svc_study_top_titles", {})
        expect(missing).toMatchObject({ ok: false, status: "invalid" })
      })
    )

    it.effect("searches ads, keeps brands on a list, reads their ads and removes them", () =>
      Effect.gen(function* () {
        yield* reset
        const { principal } = yield* signUp()
        const found = yield* call(principal, "svc_search_ads", { query: "garden" })
        expect((found.ads as ReadonlyArray<{ id: string }>).map((a) => a.id)).toEqual(["a1", "a2"])
        const brand = yield* call(principal, "svc_get_brand_ads", { brand: "Acme" })
        expect(brand).toMatchObject({ ok: true, brand: { id: "111" }, creditsCharged: 0.2 })
        const saved = yield* call(principal, "svc_save_brands_to_list", {
          listName: "Rivals",
          brands: [{ name: "acme" }]
        })
        expect(saved).toMatchObject({ added: 1, members: [{ id: "111", name: "Acme" }] })
        const listAds = yield* call(principal, "svc_get_brand_list_ads", { listName: "Rivals" })
        expect(listAds).toMatchObject({ ok: true, brands: [{ brand: { id: "111" }, ads: [{ id: "a1" }] }] })
        const removed = yield* call(principal, "svc_remove_brands_from_list", {
          listName: "Rivals",
          brandIds: ["111", "999"]
        })
        expect(removed).toMatchObject({ removed: 1, notOnList: ["999"], list: { memberCount: 0 } })
        const unknown = yield* call(principal, "svc_get_brand_ads", { brand: "Nobody Inc" })
        expect(unknown).toMatchObject({ ok: false, status: "not-found" })
      })
    )
  })
})

layer(testCoreLayer(), { timeout: "60 seconds" })("research with no outside source", (it) => {
  it.effect("answers from the workspace's saved posts, free", () =>
    Effect.gen(function* () {
      const { principal } = yield* signUp()
      yield* call(principal, "svc_save_posts_to_library", {
        posts: [
          { url: "https://x.com/dana/status/1", text: "Sourdough starter tips for beginners" },
          { url: "https://x.com/dana/status/2", text: "Why my sourdough failed" }
        ]
      })
      const before = yield* balanceOf(principal)
      const answer = yield* call(principal, "svc_search_social_content", { scope: "library", query: "sourdough" })
      expect(answer).toMatchObject({ ok: true, creditsCharged: 0 })
      expect((answer.posts as ReadonlyArray<{ author: { handle: string } }>).length).toBe(2)
      expect(yield* balanceOf(principal)).toBe(before)
      const global = yield* call(principal, "svc_search_social_content", { scope: "global", query: "sourdough" })
      expect(global.sources).toEqual([expect.objectContaining({ source: "library", status: "ok" })])
      const creator = yield* call(principal, "svc_resolve_creator", { creator: "@dana" })
      expect(creator).toMatchObject({
        ok: true,
        creator: { platform: "x", handle: "dana", posts: 2, source: "library" }
      })
    })
  )
})
