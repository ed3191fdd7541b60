import { Array as Arr, Clock, Effect, Option, Schema } from "effect"
import { type Forbidden, NotFound, type Unreachable } from "../shared/errors.js"
import type { RateLimited } from "../limits/schema.js"
import { withSpan } from "../shared/spans.js"
import { type Asked, libraryReport, makeAsker, missingReport, noAnswer, unsupported } from "./asking.js"
import { creatorOfSaved, postOfSaved } from "./library-source.js"
import { RESEARCH_LIMITS } from "./limits.js"
import { ResearchLibraryRepo } from "./ports.js"
import { Ad, Brand, Creator, type ResearchPlatform, SocialPost, type SourceReport } from "./schema.js"
import { type AdQuery, type CreatorKey, type SocialSource, SocialSources } from "./source.js"

/** A research answer: the value and how each source took part. */
export interface Sourced<A> {
  readonly value: A
  readonly sources: ReadonlyArray<SourceReport>
}

/** A research failure an answer may end in. */
export type ResearchFailure = NotFound | Forbidden | RateLimited | Unreachable

/** Where a search for content looks: the workspace's library, every source, or one network's sources. */
export type ContentScope = "library" | "global" | ResearchPlatform

const CreatorOrNull = Schema.NullOr(Creator)
const Creators = Schema.Array(Creator)
const PostOrNull = Schema.NullOr(SocialPost)
const Posts = Schema.Array(SocialPost)
const Ads = Schema.Array(Ad)
const BrandOrNull = Schema.NullOr(Brand)

const serves = (source: SocialSource, platform: ResearchPlatform | undefined) =>
  platform === undefined || source.platforms.includes(platform)

const values = <A>(asked: ReadonlyArray<Asked<A>>): Array<A> => Arr.getSomes(asked.map((a) => a.value))

/** Interleaves lists (one per source) so no source crowds out the others, up to `limit`. */
const interleave = <A>(lists: ReadonlyArray<ReadonlyArray<A>>, limit: number): Array<A> => {
  const out: Array<A> = []
  for (let i = 0; out.length < limit && lists.some((l) => i < l.length); i++) {
    for (const list of lists) {
      const row = list[i]
      if (row !== undefined && out.length < limit) out.push(row)
    }
  }
  return out
}

/**
 * Research over the configured sources and the workspace's own library: creators, their posts and follows, post
 * search. Each question goes to every source that can answer it at once; a source that is not set up, slow or
 * failing is named in the answer and the others still answer.
 */
export class Research extends Effect.Service<Research>()("svc/research/Research", {
  effect: Effect.gen(function* () {
    // Outside sources are optional: without any, research answers from the workspace's library alone.
    const sources = Option.getOrElse(yield* Effect.serviceOption(SocialSources), (): ReadonlyArray<SocialSource> => [])
    const library = yield* ResearchLibraryRepo
    const { ask } = yield* makeAsker
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const platformsOf = (list: ReadonlyArray<SocialSource>, platform: ResearchPlatform | undefined) =>
      platform !== undefined ? [platform] : Arr.dedupe(list.flatMap((s) => s.platforms))

    /** Every creator `text` names, at most one per network, with the sources' reports. */
    const resolveCreators = (workspaceId: string, text: string, platform: ResearchPlatform | undefined) =>
      Effect.gen(function* () {
        const asked = yield* Effect.forEach(
          sources.filter((s) => serves(s, platform)),
          (source) => {
            const part = source.creators
            if (part === undefined) return Effect.succeed(unsupported<Creator | null>(source, "creator lookups"))
            return ask(source, "creator", [text, platform ?? null], CreatorOrNull, () =>
              Effect.map(part.resolve({ text, platform }), Option.getOrNull)
            )
          },
          { concurrency: "unbounded" }
        )
        const saved = yield* library.authors(workspaceId, text, 20)
        const own = Arr.getSomes(
          saved
            .filter((a) => a.author.replace(/^@/, "").toLowerCase() === text.replace(/^@/, "").toLowerCase())
            .map(creatorOfSaved)
        ).filter((c) => platform === undefined || c.platform === platform)
        const found = [...values(asked).filter((c): c is Creator => c !== null), ...own]
        const onePerPlatform = Arr.dedupeWith(found, (a, b) => a.platform === b.platform)
        const reports = [...asked.map((a) => a.report), libraryReport(yield* now)]
        return { creators: onePerPlatform, reports, searched: platformsOf(sources, platform) }
      })

    /** The creator `text` names (the first network's when several answer), or the failure saying why none. */
    const resolveCreator = (workspaceId: string, text: string, platform: ResearchPlatform | undefined) =>
      Effect.gen(function* () {
        const found = yield* resolveCreators(workspaceId, text, platform)
        if (found.creators.length === 0) {
          return yield* Effect.fail(noAnswer(`creator "${text}"`, found.reports, found.searched))
        }
        return { value: found.creators, sources: found.reports } satisfies Sourced<ReadonlyArray<Creator>>
      }).pipe(withSpan("Research.resolveCreator"))

    const searchCreators = (
      workspaceId: string,
      input: { readonly query: string; readonly platform?: ResearchPlatform | undefined; readonly limit: number }
    ) =>
      Effect.gen(function* () {
        const asked = yield* Effect.forEach(
          sources.filter((s) => serves(s, input.platform)),
          (source) => {
            const part = source.creators
            if (part === undefined) return Effect.succeed(unsupported<ReadonlyArray<Creator>>(source, "creator search"))
            return ask(source, "creatorSearch", [input.query, input.platform ?? null, input.limit], Creators, () =>
              part.search(input.query, input.limit, input.platform)
            )
          },
          { concurrency: "unbounded" }
        )
        const saved = yield* library.authors(workspaceId, input.query, input.limit)
        const own = Arr.getSomes(saved.map(creatorOfSaved)).filter(
          (c) => input.platform === undefined || c.platform === input.platform
        )
        const value = interleave([...values(asked), own], input.limit)
        return { value, sources: [...asked.map((a) => a.report), libraryReport(yield* now)] }
      }).pipe(withSpan("Research.searchCreators"))

    /** The source that answered for `creator`, if it is still configured. */
    const sourceOf = (creator: Creator) => sources.find((s) => s.name === creator.source)

    /** A creator's latest posts from the source that knows them (or the library, for creators found there). */
    const postsOf = (workspaceId: string, creator: Creator, limit: number) =>
      Effect.gen(function* () {
        if (creator.source === "library") {
          const saved = yield* library.byAuthor(workspaceId, creator.handle, creator.platform, limit)
          return { value: saved.map(postOfSaved), sources: [libraryReport(yield* now)] }
        }
        const source = sourceOf(creator)
        const part = source?.posts
        if (source === undefined || part === undefined) {
          return yield* new NotFound({ message: `${creator.source} cannot list the posts of ${creator.handle}` })
        }
        const key: CreatorKey = { platform: creator.platform, id: creator.id, handle: creator.handle }
        const asked = yield* ask(source, "posts", [key.id, limit], Posts, () => part.ofCreator(key, limit))
        if (Option.isNone(asked.value)) {
          return yield* Effect.fail(noAnswer(`the posts of ${creator.handle}`, [asked.report], [creator.platform]))
        }
        return { value: asked.value.value, sources: [asked.report] }
      }).pipe(withSpan("Research.postsOf"))

    /** One post by URL or id, from the library first (free), then from every source that recognises it. */
    const readPost = (workspaceId: string, text: string) =>
      Effect.gen(function* () {
        const saved = yield* library.find(workspaceId, text)
        const at = yield* now
        if (Option.isSome(saved)) return { value: postOfSaved(saved.value), sources: [libraryReport(at)] }
        const asked = yield* Effect.forEach(
          sources,
          (source) => {
            const part = source.posts
            if (part === undefined) return Effect.succeed(unsupported<SocialPost | null>(source, "post lookups"))
            return ask(source, "post", [text], PostOrNull, () => Effect.map(part.read({ text }), Option.getOrNull))
          },
          { concurrency: "unbounded" }
        )
        const reports = [...asked.map((a) => a.report), libraryReport(at)]
        const found = values(asked).find((p): p is SocialPost => p !== null)
        if (found === undefined) return yield* Effect.fail(noAnswer(`post "${text}"`, reports, []))
        return { value: found, sources: reports }
      }).pipe(withSpan("Research.readPost"))

    /** Whom a creator follows, from the source that knows them. */
    const followsOf = (creator: Creator, limit: number) =>
      Effect.gen(function* () {
        const source = sourceOf(creator)
        const part = source?.follows
        if (source === undefined || part === undefined) {
          return yield* new NotFound({
            message: `whom ${creator.handle} follows is not available from ${creator.source}: only sources that list follows (bluesky, the research provider) can answer`
          })
        }
        const key: CreatorKey = { platform: creator.platform, id: creator.id, handle: creator.handle }
        const asked = yield* ask(source, "follows", [key.id, limit], Creators, () => part.of(key, limit))
        if (Option.isNone(asked.value)) {
          return yield* Effect.fail(noAnswer(`whom ${creator.handle} follows`, [asked.report], [creator.platform]))
        }
        return { value: asked.value.value, sources: [asked.report] }
      }).pipe(withSpan("Research.followsOf"))

    /** Posts matching `query` in the scope: the library only, one network's sources, or everywhere. */
    const searchPosts = (
      workspaceId: string,
      input: { readonly scope: ContentScope; readonly query: string; readonly limit: number }
    ) =>
      Effect.gen(function* () {
        const platform = input.scope === "library" || input.scope === "global" ? undefined : input.scope
        const outside = input.scope === "library" ? [] : sources.filter((s) => serves(s, platform))
        const asked = yield* Effect.forEach(
          outside,
          (source) => {
            const part = source.search
            if (part === undefined) return Effect.succeed(unsupported<ReadonlyArray<SocialPost>>(source, "post search"))
            return ask(source, "postSearch", [input.query, platform ?? null, input.limit], Posts, () =>
              part.posts(input.query, input.limit, platform)
            )
          },
          { concurrency: "unbounded" }
        )
        const saved =
          platform === undefined
            ? yield* library.search(workspaceId, input.query, ["post", "ad", "link"], input.limit)
            : (yield* library.search(workspaceId, input.query, ["post"], input.limit)).filter(
                (item) => item.platform === platform
              )
        const value = interleave([saved.map(postOfSaved), ...values(asked)], input.limit)
        return { value, sources: [libraryReport(yield* now), ...asked.map((a) => a.report)] }
      }).pipe(withSpan("Research.searchPosts"))

    const adSources = sources.filter((s) => s.ads !== undefined)

    /** Ads matching words, from every ad library this server has. */
    const searchAds = (query: AdQuery, limit: number) =>
      Effect.gen(function* () {
        const asked = yield* Effect.forEach(
          adSources,
          (source) =>
            ask(source, "ads", ["search", query.query, query.country ?? null, query.activeOnly, limit], Ads, () =>
              (source.ads as NonNullable<SocialSource["ads"]>).search(query, limit)
            ),
          { concurrency: "unbounded" }
        )
        const reports = asked.map((a) => a.report)
        if (asked.every((a) => Option.isNone(a.value))) {
          return yield* Effect.fail(noAnswer(`ads for "${query.query}"`, noAdLibrary(reports), ["the ad libraries"]))
        }
        return { value: interleave(values(asked), limit), sources: reports }
      }).pipe(withSpan("Research.searchAds"))

    // With no ad library at all, the answer says which setting adds one rather than "nothing found".
    const noAdLibrary = (reports: ReadonlyArray<SourceReport>) =>
      reports.length > 0 ? reports : [missingReport("meta-ads", "SVC_META_ADS_TOKEN")]

    /** The brand `name` names (a page id, a page URL or a name) in the first ad library that knows it. */
    const resolveBrand = (name: string) =>
      Effect.gen(function* () {
        const asked = yield* Effect.forEach(
          adSources,
          (source) =>
            ask(source, "brand", [name], BrandOrNull, () =>
              Effect.map((source.ads as NonNullable<SocialSource["ads"]>).resolveBrand(name), Option.getOrNull)
            ),
          { concurrency: "unbounded" }
        )
        const reports = asked.map((a) => a.report)
        const index = asked.findIndex((a) => Option.isSome(a.value) && a.value.value !== null)
        const found = asked[index]
        const source = adSources[index]
        if (found === undefined || source === undefined || Option.isNone(found.value) || found.value.value === null) {
          return yield* Effect.fail(noAnswer(`brand "${name}"`, noAdLibrary(reports), ["the ad libraries"]))
        }
        return { value: { brand: found.value.value, source }, sources: reports }
      }).pipe(withSpan("Research.resolveBrand"))

    /** A brand's ads from the ad library that knows it. */
    const brandAds = (source: SocialSource, brand: Brand, activeOnly: boolean, limit: number) =>
      Effect.gen(function* () {
        const asked = yield* ask(source, "ads", ["brand", brand.id, activeOnly, limit], Ads, () =>
          (source.ads as NonNullable<SocialSource["ads"]>).ofBrand(brand, activeOnly, limit)
        )
        if (Option.isNone(asked.value)) {
          return yield* Effect.fail(noAnswer(`the ads of ${brand.name}`, [asked.report], ["the ad libraries"]))
        }
        return { value: asked.value.value, sources: [asked.report] }
      }).pipe(withSpan("Research.brandAds"))

    /** The failure when this server has no ad library at all. */
    const noAdSource = (what: string) => noAnswer(what, noAdLibrary([]), ["the ad libraries"])

    /** The ad library a brand saved on a list came from (its source name), when still configured. */
    const adSourceNamed = (name: string) => adSources.find((s) => s.name === name)

    /** The configured source that lists a network's creators' posts. */
    const postSourceFor = (platform: ResearchPlatform) =>
      sources.find((s) => s.missingSetting === null && s.posts !== undefined && s.platforms.includes(platform))

    /** The source that lists whom `creator` follows, when it can. */
    const followSourceFor = (creator: Creator) => {
      const source = sourceOf(creator)
      return source?.follows === undefined ? undefined : source
    }

    /** The outside sources and whether each is set up, for answers that say what this server can reach. */
    const configured = sources.map((s) => ({ name: s.name, platforms: s.platforms, setting: s.missingSetting }))

    return {
      resolveCreator,
      resolveCreators,
      searchCreators,
      postsOf,
      readPost,
      followsOf,
      searchPosts,
      searchAds,
      resolveBrand,
      brandAds,
      adSources,
      adSourceNamed,
      noAdSource,
      postSourceFor,
      followSourceFor,
      configured,
      limits: RESEARCH_LIMITS
    } as const
  }),
  dependencies: []
}) {}
