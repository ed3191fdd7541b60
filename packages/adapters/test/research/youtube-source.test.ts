/**
 * The YouTube source through the official client, against recorded Data API exchanges replayed on loopback (no key
 * is usable here; see recordings/youtube/PROVENANCE.md): what it asks, and how it reads the answers and the errors.
 */
import { describe, expect, it } from "@effect/vitest"
import type { SocialSource, SourceFailure } from "@svc/core/research"
import { Effect, Exit, Option } from "effect"
import {
  channelRefOf,
  makeYouTubeSource,
  msUntilPacificMidnight,
  videoIdOf
} from "../../src/research/youtube-source.js"
import { loadRecording, startReplayServer } from "../support/replay-server.js"

const KEY = "AIzaSyTest-replay-key-0000000000000000"
const HARBOUR = "UCzV3xq0aFhYbM2m7Rj9nL4A"
const KILN = "UCb8Wq1nT5pXk3JdR7sLm2Yc"

const replay = (scenario: string) =>
  startReplayServer(loadRecording(new URL(`./recordings/youtube/${scenario}.json`, import.meta.url)).exchanges)

const sourceAt = (origin: string) => makeYouTubeSource({ apiKey: KEY, rootUrl: `${origin}/`, deadline: "2 seconds" })

const parts = (source: SocialSource) => {
  const { creators, posts, search } = source
  if (creators === undefined || posts === undefined || search === undefined)
    throw new Error("the YouTube source answers creators, posts and search")
  return { creators, posts, search }
}

const failureOf = <A>(exit: Exit.Exit<A, SourceFailure>): SourceFailure => {
  if (Exit.isSuccess(exit) || exit.cause._tag !== "Fail")
    throw new Error(`expected a SourceFailure, got ${String(exit)}`)
  return exit.cause.error
}

describe("YouTube source", () => {
  it("is not set up without a key, and names the setting", () => {
    const source = makeYouTubeSource({ apiKey: undefined })
    expect(source).toMatchObject({ name: "youtube", platforms: ["youtube"], missingSetting: "SVC_YOUTUBE_API_KEY" })
    expect(source.creators).toBeUndefined()
    expect(makeYouTubeSource({ apiKey: "  " }).missingSetting).toBe("SVC_YOUTUBE_API_KEY")
  })

  it("reads how a person names a channel or a video", () => {
    expect(channelRefOf("@harbourlog")).toEqual({ kind: "handle", value: "harbourlog" })
    expect(channelRefOf("https://www.youtube.com/@harbourlog/videos")).toEqual({ kind: "handle", value: "harbourlog" })
    expect(channelRefOf(`youtube.com/channel/${HARBOUR}`)).toEqual({ kind: "id", value: HARBOUR })
    expect(channelRefOf(HARBOUR)).toEqual({ kind: "id", value: HARBOUR })
    expect(channelRefOf("https://m.youtube.com/c/HarbourLog")).toEqual({ kind: "custom", value: "HarbourLog" })
    expect(channelRefOf("https://www.youtube.com/user/harbourlog")).toEqual({ kind: "username", value: "harbourlog" })
    expect(channelRefOf("https://bsky.app/profile/harbourlog")).toBeUndefined()
    expect(channelRefOf("Harbour Log")).toBeUndefined()
    expect(videoIdOf("https://www.youtube.com/watch?v=hLtd0aX3k9Q&t=42s")).toBe("hLtd0aX3k9Q")
    expect(videoIdOf("https://youtu.be/hLtd0aX3k9Q?si=abc")).toBe("hLtd0aX3k9Q")
    expect(videoIdOf("youtube.com/shorts/hLtd0aX3k9Q")).toBe("hLtd0aX3k9Q")
    expect(videoIdOf("hLtd0aX3k9Q")).toBe("hLtd0aX3k9Q")
    expect(videoIdOf("https://vimeo.com/123")).toBeUndefined()
  })

  it("waits for the daily quota until the next midnight, Pacific time", () => {
    // 08:00 UTC on 29 November is midnight in Los Angeles (UTC-8): a whole day to wait.
    expect(msUntilPacificMidnight(Date.parse("2026-11-29T08:00:00Z"))).toBe(24 * 3600_000)
    expect(msUntilPacificMidnight(Date.parse("2026-11-29T20:00:00Z"))).toBe(12 * 3600_000)
    // Summer time (UTC-7).
    expect(msUntilPacificMidnight(Date.parse("2026-07-01T06:30:00Z"))).toBe(1800_000)
  })

  it.scopedLive("resolves a handle and a channel id with subscribers and videos; an unknown handle is none", () =>
    Effect.gen(function* () {
      const server = yield* replay("resolve-and-uploads")
      const { creators, posts } = parts(sourceAt(server.origin))
      const harbour = Option.getOrThrow(yield* creators.resolve({ text: "https://www.youtube.com/@harbourlog" }))
      expect(harbour).toMatchObject({
        platform: "youtube",
        id: HARBOUR,
        handle: "harbourlog",
        name: "Harbour Log",
        bio: "Tides, boats and weather from a working harbour.",
        url: "https://www.youtube.com/@harbourlog",
        avatarUrl: "https://yt3.ggpht.example/harbour=s800-c-k-c0x00ffffff-no-rj",
        followers: 48200,
        following: null,
        posts: 212,
        source: "youtube"
      })
      expect(Option.isNone(yield* creators.resolve({ text: "@nobody-here" }))).toBe(true)
      // A hidden subscriber count is null, not zero.
      const kiln = Option.getOrThrow(yield* creators.resolve({ text: KILN }))
      expect(kiln).toMatchObject({ handle: "kilndiary", followers: null, posts: 57 })

      const latest = yield* posts.ofCreator({ platform: "youtube", id: HARBOUR, handle: "harbourlog" }, 2)
      expect(latest.map((p) => p.id)).toEqual(["hLtd0aX3k9Q", "Tq8mP2vW5rE"])
      expect(latest[0]).toMatchObject({
        platform: "youtube",
        url: "https://www.youtube.com/watch?v=hLtd0aX3k9Q",
        author: { handle: "harbourlog", name: "Harbour Log" },
        title: "Spring tide at night",
        text: "A 6.1 m tide at 21:40, from the quay.\n\nFilmed on the north wall.",
        format: "video",
        mediaCount: 1,
        createdAt: new Date("2026-11-24T18:00:07.000Z"),
        metrics: { likes: 981, replies: 64, reposts: null, quotes: null, views: 15230 },
        source: "youtube"
      })
      yield* server.check({ allUsed: true })
      expect(server.received.every((r) => new URL(r.path, "http://x").searchParams.get("key") === KEY)).toBe(true)
    })
  )

  it.scopedLive("searches channels and videos in the search's order, with statistics and handles", () =>
    Effect.gen(function* () {
      const server = yield* replay("search")
      const { creators, search } = parts(sourceAt(server.origin))
      const found = yield* creators.search("harbour pottery", 2)
      expect(found.map((c) => c.handle)).toEqual(["kilndiary", "harbourlog"])
      const videos = yield* search.posts("tides", 10)
      expect(videos.map((v) => [v.id, v.author.handle, v.metrics.views])).toEqual([
        ["bN4sK7yZ1cU", "kilndiary", 2210],
        ["hLtd0aX3k9Q", "harbourlog", 15230]
      ])
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("reads one video by address with its channel's handle; an unknown video is none", () =>
    Effect.gen(function* () {
      const server = yield* replay("read-video")
      const { posts } = parts(sourceAt(server.origin))
      const video = Option.getOrThrow(yield* posts.read({ text: "https://youtu.be/hLtd0aX3k9Q" }))
      expect(video).toMatchObject({ id: "hLtd0aX3k9Q", author: { handle: "harbourlog" }, metrics: { likes: 981 } })
      expect(Option.isNone(yield* posts.read({ text: "AAAAAAAAAAA" }))).toBe(true)
      expect(Option.isNone(yield* posts.read({ text: "https://example.com/watch?v=hLtd0aX3k9Q" }))).toBe(true)
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("maps quota, rate limits, a bad key, 5xx and a stall to failures, never to defects", () =>
    Effect.gen(function* () {
      const server = yield* replay("failures")
      const { creators } = parts(sourceAt(server.origin))
      const resolve = (handle: string) => Effect.exit(creators.resolve({ text: `@${handle}` }))
      const quota = failureOf(yield* resolve("quota"))
      expect(quota.kind).toBe("rate-limited")
      expect(quota.message).toContain("quotaExceeded")
      expect(quota.retryAfterMs).toBeGreaterThan(0)
      expect(quota.retryAfterMs).toBeLessThanOrEqual(24 * 3600_000)
      expect(failureOf(yield* resolve("burst"))).toMatchObject({ kind: "rate-limited", retryAfterMs: 60_000 })
      const badKey = failureOf(yield* resolve("badkey"))
      expect(badKey.kind).toBe("refused")
      expect(badKey.message).toContain("API_KEY_INVALID")
      expect(failureOf(yield* resolve("down"))).toMatchObject({ kind: "unavailable" })
      const slow = failureOf(yield* resolve("slow"))
      expect(slow.kind).toBe("unavailable")
      expect(slow.message).toContain("did not answer within 2s")
      yield* server.check({ allUsed: true })
    })
  )
})
