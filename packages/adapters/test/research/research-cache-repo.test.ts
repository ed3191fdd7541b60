/**
 * The research cache over SQL (`ResearchCacheLive`), on the test engine: an answer is given back as it was stored
 * until it expires, a second `put` replaces the first, and the purge takes expired entries only, at most as many as
 * it is told.
 */
import { expect, layer } from "@effect/vitest"
import { ResearchCache } from "@svc/core/research"
import { Effect, Layer, Option } from "effect"
import { migrations } from "../../src/sql/migrations/index.js"
import { ResearchCacheLive } from "../../src/sql/repos/research-cache.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

const testLayer = ResearchCacheLive.pipe(Layer.provideMerge(testDatabaseLayer(migrations)))

// Entries of the lookup tests expire around 2030; the purge test's long before, so its purges see only its own.
const T0 = Date.parse("2030-01-01T00:00:00Z")
const at = (seconds: number) => new Date(T0 + seconds * 1000)

const answer = {
  creator: { platform: "bluesky", id: "did:plc:abc", handle: "alice.bsky.social", followers: 1200, bio: null },
  posts: [
    { id: "at://did:plc:abc/app.bsky.feed.post/1", text: "héllo 👋", metrics: { likes: 3, views: null } },
    { id: "at://did:plc:abc/app.bsky.feed.post/2", text: "", metrics: { likes: 0, views: 12 } }
  ],
  cursor: null,
  exact: 0.1
}

layer(testLayer, { timeout: "60 seconds" })(`research cache (${engineName})`, (it) => {
  it.effect("answers an entry as stored, with when it was fetched, until it expires", () =>
    Effect.gen(function* () {
      const cache = yield* ResearchCache
      yield* cache.put("bluesky:profile:alice", answer, at(0), at(600))
      expect(yield* cache.get("bluesky:profile:alice", at(1))).toEqual(Option.some({ value: answer, fetchedAt: at(0) }))
      expect(Option.isSome(yield* cache.get("bluesky:profile:alice", new Date(at(600).getTime() - 1)))).toBe(true)
      // From the expiry on, never answered.
      expect(yield* cache.get("bluesky:profile:alice", at(600))).toEqual(Option.none())
      expect(yield* cache.get("bluesky:profile:alice", at(601))).toEqual(Option.none())
      expect(yield* cache.get("bluesky:profile:nobody", at(1))).toEqual(Option.none())
    })
  )

  it.effect("replaces an entry on a second put, renewing an expired one", () =>
    Effect.gen(function* () {
      const cache = yield* ResearchCache
      yield* cache.put("youtube:top:cooking", ["first"], at(0), at(60))
      yield* cache.put("youtube:top:cooking", { titles: ["second"] }, at(30), at(90))
      expect(yield* cache.get("youtube:top:cooking", at(70))).toEqual(
        Option.some({ value: { titles: ["second"] }, fetchedAt: at(30) })
      )
      expect(yield* cache.get("youtube:top:cooking", at(90))).toEqual(Option.none())
      yield* cache.put("youtube:top:cooking", "third", at(100), at(200))
      expect(yield* cache.get("youtube:top:cooking", at(150))).toEqual(
        Option.some({ value: "third", fetchedAt: at(100) })
      )
    })
  )

  it.effect("keeps any JSON value: scalars, null, and text with a NUL character (dropped)", () =>
    Effect.gen(function* () {
      const cache = yield* ResearchCache
      const values: ReadonlyArray<readonly [string, unknown, unknown]> = [
        ["scalar:number", 42, 42],
        ["scalar:boolean", false, false],
        ["scalar:null", null, null],
        ["scalar:undefined", undefined, null],
        ["text:nul", { text: "a\u0000b", list: ["c\u0000"] }, { text: "ab", list: ["c"] }]
      ]
      for (const [key, value] of values) yield* cache.put(key, value, at(0), at(60))
      for (const [key, , read] of values) {
        expect(yield* cache.get(key, at(1))).toEqual(Option.some({ value: read, fetchedAt: at(0) }))
      }
    })
  )

  it.effect("purges only expired entries, oldest first, at most `limit` at a time", () =>
    Effect.gen(function* () {
      const cache = yield* ResearchCache
      const past = Date.parse("2001-01-01T00:00:00Z")
      const old = (seconds: number) => new Date(past + seconds * 1000)
      for (let i = 1; i <= 5; i++) yield* cache.put(`purge:expired:${i}`, { i }, old(0), old(i))
      yield* cache.put("purge:live", { live: true }, old(0), old(1000))
      yield* cache.put("purge:later", { later: true }, old(0), at(60))
      // At `now` = old(5): the entry expiring exactly then is expired too (it is no longer answered).
      expect(yield* cache.purgeExpired(old(5), 0)).toBe(0)
      expect(yield* cache.purgeExpired(old(5), 3)).toBe(3)
      // The oldest went first.
      expect(Option.isSome(yield* cache.get("purge:expired:4", old(3)))).toBe(true)
      expect(yield* cache.get("purge:expired:3", old(2))).toEqual(Option.none())
      expect(yield* cache.purgeExpired(old(5), 10)).toBe(2)
      expect(yield* cache.purgeExpired(old(5), 10)).toBe(0)
      expect(yield* cache.get("purge:live", old(5))).toEqual(Option.some({ value: { live: true }, fetchedAt: old(0) }))
      expect(Option.isSome(yield* cache.get("purge:later", old(5)))).toBe(true)
    })
  )
})
