/**
 * The Meta Ad Library source against recorded `ads_archive` exchanges replayed on loopback (no token is usable here;
 * see recordings/meta-ads/PROVENANCE.md): the requests it makes, paging, brands, and how Graph errors map.
 */
import { describe, expect, it } from "@effect/vitest"
import { Brand, type SocialSource, type SourceFailure } from "@svc/core/research"
import { Clock, Effect, Exit, Option } from "effect"
import { brandRefOf, makeMetaAdsSource } from "../../src/research/meta-ads-source.js"
import { loadRecording, startReplayServer } from "../support/replay-server.js"

const TOKEN = "EAAtestReplayToken0000ZZ"
const PAGE = "108107432370909"

const replay = (scenario: string) =>
  startReplayServer(loadRecording(new URL(`./recordings/meta-ads/${scenario}.json`, import.meta.url)).exchanges)

const adsAt = (origin: string) => {
  const { ads } = makeMetaAdsSource({ token: TOKEN, graphUrl: `${origin}/v21.0`, deadline: "2 seconds" })
  if (ads === undefined) throw new Error("the Meta source answers ads")
  return ads
}

/**
 * A clock stopped at the recordings' day (whether an ad still runs is read against it). Given with `Effect.withClock`
 * rather than the TestClock, which failed `setTime` in one CI run of this file (it passed in others).
 */
const stoppedAt = (iso: string): Clock.Clock => {
  const millis = Date.parse(iso)
  return Object.assign(Object.create(Clock.make()) as Clock.Clock, {
    unsafeCurrentTimeMillis: () => millis,
    currentTimeMillis: Effect.succeed(millis),
    unsafeCurrentTimeNanos: () => BigInt(millis) * 1_000_000n,
    currentTimeNanos: Effect.succeed(BigInt(millis) * 1_000_000n)
  })
}
const RECORDED_ON = stoppedAt("2026-11-29T12:00:00Z")

const failureOf = <A>(exit: Exit.Exit<A, SourceFailure>): SourceFailure => {
  if (Exit.isSuccess(exit) || exit.cause._tag !== "Fail")
    throw new Error(`expected a SourceFailure, got ${String(exit)}`)
  return exit.cause.error
}

describe("Meta Ad Library source", () => {
  it("is not set up without a token, and answers ads only, for no research platform", () => {
    const off: SocialSource = makeMetaAdsSource({ token: undefined })
    expect(off).toMatchObject({ name: "meta-ads", platforms: [], missingSetting: "SVC_META_ADS_TOKEN" })
    const on = makeMetaAdsSource({ token: TOKEN })
    expect(on.platforms).toEqual([])
    expect(on.missingSetting).toBeNull()
    expect(on.creators).toBeUndefined()
    expect(on.ads).toBeDefined()
  })

  it("reads how a person names a brand", () => {
    expect(brandRefOf(PAGE)).toEqual({ kind: "page-id", value: PAGE })
    expect(brandRefOf(`https://www.facebook.com/profile.php?id=${PAGE}`)).toEqual({ kind: "page-id", value: PAGE })
    expect(brandRefOf(`https://www.facebook.com/ads/library/?view_all_page_id=${PAGE}`)).toEqual({
      kind: "page-id",
      value: PAGE
    })
    expect(brandRefOf("facebook.com/harbouroutfitters/")).toEqual({ kind: "name", value: "harbouroutfitters" })
    expect(brandRefOf("Harbour Outfitters")).toEqual({ kind: "name", value: "Harbour Outfitters" })
    expect(brandRefOf("  ")).toBeUndefined()
  })

  it.scopedLive("searches ads in the default country across pages up to the limit, without leaking the token", () =>
    Effect.gen(function* () {
      const server = yield* replay("search")
      const ads = adsAt(server.origin)
      const found = yield* ads.search({ query: "boots", activeOnly: false }, 3)
      expect(found.map((ad) => ad.id)).toEqual(["1134693002421653", "1134693002421654", "2279911102334455"])
      expect(found[0]).toMatchObject({
        brand: { id: PAGE, name: "Harbour Outfitters" },
        title: "Boots built for spray",
        text: "Waterproof boots for the north wall. Free returns.",
        startedAt: new Date("2026-11-02T00:00:00.000Z"),
        endedAt: null,
        active: true,
        placements: ["facebook", "instagram"],
        url: "https://www.facebook.com/ads/library/?id=1134693002421653",
        source: "meta-ads"
      })
      // Stopped on 15 November: no longer running on the 29th.
      expect(found[1]).toMatchObject({ active: false, endedAt: new Date("2026-11-15T00:00:00.000Z") })
      expect(JSON.stringify(found)).not.toContain(TOKEN)
      const gb = yield* ads.search({ query: "trail shoes", country: "gb", activeOnly: true }, 10)
      expect(gb.map((ad) => [ad.brand.name, ad.placements])).toEqual([
        ["Quayside Running Co.", ["instagram", "messenger"]]
      ])
      yield* server.check({ allUsed: true })
    }).pipe(Effect.withClock(RECORDED_ON))
  )

  it.scopedLive("resolves a brand by page id, by name among the pages its words find, and by page address", () =>
    Effect.gen(function* () {
      const server = yield* replay("brands")
      const ads = adsAt(server.origin)
      expect(Option.getOrThrow(yield* ads.resolveBrand(PAGE))).toEqual(
        new Brand({ id: PAGE, name: "Harbour Outfitters" })
      )
      const byName = Option.getOrThrow(yield* ads.resolveBrand("Quayside Running Co"))
      expect(byName).toEqual(new Brand({ id: "100064812345678", name: "Quayside Running Co." }))
      const byAddress = Option.getOrThrow(yield* ads.resolveBrand("https://www.facebook.com/harbouroutfitters"))
      expect(byAddress.id).toBe(PAGE)
      expect(Option.isNone(yield* ads.resolveBrand("No Such Brand"))).toBe(true)
      const running = yield* ads.ofBrand(byAddress, true, 25)
      expect(running.map((ad) => ad.id)).toEqual(["1134693002421653"])
      yield* server.check({ allUsed: true })
    }).pipe(Effect.withClock(RECORDED_ON))
  )

  it.scopedLive("maps token, rate-limit and server errors, a malformed answer and a stall to failures", () =>
    Effect.gen(function* () {
      const server = yield* replay("failures")
      const ads = adsAt(server.origin)
      const search = (query: string) => Effect.exit(ads.search({ query, activeOnly: false }, 5))
      const expired = failureOf(yield* search("expired"))
      expect(expired.kind).toBe("refused")
      expect(expired.message).toContain("code 190/463")
      expect(failureOf(yield* search("limited"))).toMatchObject({ kind: "rate-limited", retryAfterMs: 17 * 60_000 })
      expect(failureOf(yield* search("app-limit"))).toMatchObject({ kind: "rate-limited", retryAfterMs: 5 * 60_000 })
      expect(failureOf(yield* search("broken"))).toMatchObject({ kind: "unavailable" })
      const malformed = failureOf(yield* search("malformed"))
      expect(malformed.kind).toBe("unavailable")
      expect(malformed.message).toContain("data.0.page_id")
      const slow = failureOf(yield* search("slow"))
      expect(slow.message).toContain("did not answer within 2s")
      yield* server.check({ allUsed: true })
    })
  )
})
