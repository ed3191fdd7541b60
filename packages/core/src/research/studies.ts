import { Effect, Either, Schema } from "effect"
import { withSpan } from "../shared/spans.js"
import {
  analyzeCreator,
  compareCreators,
  type CreatorAnalysis,
  hasTitle,
  isCarouselOrDocument,
  outperformers
} from "./analysis.js"
import { mergeReports } from "./asking.js"
import { RESEARCH_LIMITS } from "./limits.js"
import { type ListChoice, ResearchLists } from "./lists.js"
import type { ResearchListMember } from "./ports.js"
import { Creator, type ResearchPlatform, type SocialPost, type SourceReport } from "./schema.js"
import { type ContentScope, Research } from "./service.js"

/** Follower tiers that whom-someone-follows answers are grouped by. */
export const FollowTier = Schema.Literal("mega", "macro", "mid", "micro", "nano", "unknown").annotations({
  description: "mega ≥1M followers, macro ≥100k, mid ≥10k, micro ≥1k, nano <1k, unknown when not given."
})
export type FollowTier = typeof FollowTier.Type

const tierOf = (followers: number | null): FollowTier =>
  followers === null
    ? "unknown"
    : followers >= 1_000_000
      ? "mega"
      : followers >= 100_000
        ? "macro"
        : followers >= 10_000
          ? "mid"
          : followers >= 1_000
            ? "micro"
            : "nano"

/** What a study of posts ranks: titles, or carousels and documents. */
export type StudyKind = "titles" | "carousels"

/** Where a study's posts come from: a topic searched, or a creator list. */
export type StudySubject =
  | { readonly topic: string; readonly platform?: ResearchPlatform | undefined }
  | { readonly list: ListChoice }

/**
 * Research over many posts: one creator analysed, creators compared, whom one follows, and the posts that beat
 * their creator's own median (by title, or carousels).
 */
export class ResearchStudies extends Effect.Service<ResearchStudies>()("svc/research/ResearchStudies", {
  effect: Effect.gen(function* () {
    const research = yield* Research
    const lists = yield* ResearchLists

    /** The creator of a list member, answered by the source that serves its network (or the library). */
    const creatorOfMember = (member: ResearchListMember): Creator => {
      const platform = member.platform as ResearchPlatform
      const source = member.key.startsWith("library:")
        ? "library"
        : (research.postSourceFor(platform)?.name ?? "library")
      return new Creator({
        platform,
        id: member.key,
        handle: member.handle,
        name: member.name,
        bio: null,
        url: member.url,
        avatarUrl: null,
        followers: null,
        following: null,
        posts: null,
        source
      })
    }

    /** The creator named and their latest `postLimit` posts. */
    const creatorWithPosts = (workspaceId: string, creator: Creator, postLimit: number) =>
      Effect.map(research.postsOf(workspaceId, creator, postLimit), (posts) => ({ creator, posts }))

    const analyze = (
      workspaceId: string,
      input: {
        readonly creator: string
        readonly platform?: ResearchPlatform | undefined
        readonly timeZone: string
        readonly posts: number
        readonly top: number
      }
    ) =>
      Effect.gen(function* () {
        const resolved = yield* research.resolveCreator(workspaceId, input.creator, input.platform)
        const creator = resolved.value[0] as Creator
        const { posts } = yield* creatorWithPosts(workspaceId, creator, input.posts)
        const analysis = yield* Either.match(analyzeCreator(creator, posts.value, input.timeZone, input.top), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        return { value: analysis, sources: mergeReports([...resolved.sources, ...posts.sources]) }
      }).pipe(withSpan("ResearchStudies.analyze"))

    const following = (
      workspaceId: string,
      input: { readonly creator: string; readonly platform?: ResearchPlatform | undefined; readonly limit: number }
    ) =>
      Effect.gen(function* () {
        const resolved = yield* research.resolveCreator(workspaceId, input.creator, input.platform)
        const withFollows = resolved.value.find((c) => research.followSourceFor(c) !== undefined)
        const creator = withFollows ?? (resolved.value[0] as Creator)
        const follows = yield* research.followsOf(creator, input.limit)
        const groups = FollowTier.literals
          .map((tier) => ({
            tier,
            creators: follows.value
              .filter((c) => tierOf(c.followers) === tier)
              .sort((a, b) => (b.followers ?? -1) - (a.followers ?? -1))
          }))
          .filter((group) => group.creators.length > 0)
        return {
          value: { creator, total: follows.value.length, groups },
          sources: mergeReports([...resolved.sources, ...follows.sources])
        }
      }).pipe(withSpan("ResearchStudies.following"))

    /** The creators of a list (the first `creatorsPerStudy`) with their posts; failures kept per creator. */
    const listCreators = (workspaceId: string, choice: ListChoice, postLimit: number) =>
      Effect.gen(function* () {
        const { list, members } = yield* lists.read(workspaceId, "creators", choice)
        const chosen = members.slice(0, RESEARCH_LIMITS.creatorsPerStudy)
        const read = yield* Effect.forEach(
          chosen,
          (member) =>
            Effect.gen(function* () {
              // A fresh profile (follower counts) when the network still knows the creator; the saved one else.
              const fresh = yield* Effect.either(
                research.resolveCreator(workspaceId, member.handle, member.platform ?? undefined)
              )
              const creator =
                Either.isRight(fresh) && fresh.right.value[0] !== undefined
                  ? fresh.right.value[0]
                  : creatorOfMember(member)
              const posts = yield* research.postsOf(workspaceId, creator, postLimit)
              return {
                creator,
                posts: posts.value,
                sources: [...(Either.isRight(fresh) ? fresh.right.sources : []), ...posts.sources]
              }
            }).pipe(
              Effect.either,
              Effect.map((outcome) => ({ member, outcome }))
            ),
          { concurrency: RESEARCH_LIMITS.concurrency }
        )
        const done = read.flatMap((r) => (Either.isRight(r.outcome) ? [r.outcome.right] : []))
        const failed = read.flatMap((r) =>
          Either.isLeft(r.outcome)
            ? [{ handle: r.member.handle, platform: r.member.platform, error: r.outcome.left.message }]
            : []
        )
        return { list, done, failed, skipped: Math.max(0, members.length - chosen.length) }
      })

    const analyzeList = (
      workspaceId: string,
      input: { readonly list: ListChoice; readonly timeZone: string; readonly posts: number }
    ) =>
      Effect.gen(function* () {
        const { list, done, failed, skipped } = yield* listCreators(workspaceId, input.list, input.posts)
        const analyses: Array<CreatorAnalysis> = []
        for (const entry of done) {
          const analysis = analyzeCreator(entry.creator, entry.posts, input.timeZone, 3)
          if (Either.isLeft(analysis)) return yield* Effect.fail(analysis.left)
          analyses.push(analysis.right)
        }
        return {
          value: { list, rows: compareCreators(analyses), analyses, failed, skipped },
          sources: mergeReports(done.flatMap((d) => d.sources))
        }
      }).pipe(withSpan("ResearchStudies.analyzeList"))

    /** Posts on `topic`, grouped by author, with each author's recent posts for their median. */
    const topicGroups = (
      workspaceId: string,
      topic: string,
      platform: ResearchPlatform | undefined,
      postLimit: number
    ) =>
      Effect.gen(function* () {
        const scope: ContentScope = platform ?? "global"
        const hits = yield* research.searchPosts(workspaceId, { scope, query: topic, limit: RESEARCH_LIMITS.rows })
        const byAuthor = new Map<string, Array<SocialPost>>()
        for (const post of hits.value) {
          if (post.author.handle === "" || post.source === "library") continue
          const key = `${post.platform}\u0000${post.author.handle}`
          byAuthor.set(key, [...(byAuthor.get(key) ?? []), post])
        }
        const authors = [...byAuthor.entries()]
          .sort((a, b) => b[1].length - a[1].length)
          .slice(0, RESEARCH_LIMITS.creatorsPerStudy)
        const reports: Array<SourceReport> = [...hits.sources]
        const groups = yield* Effect.forEach(
          authors,
          ([, found]) =>
            Effect.gen(function* () {
              const first = found[0] as SocialPost
              const resolved = yield* research.resolveCreator(
                workspaceId,
                first.author.handle,
                first.platform as ResearchPlatform
              )
              const posts = yield* research.postsOf(workspaceId, resolved.value[0] as Creator, postLimit)
              reports.push(...resolved.sources, ...posts.sources)
              // A hit older than the recent posts read still counts, against the same median.
              const seen = new Set(posts.value.map((p) => p.id))
              return [...posts.value, ...found.filter((p) => !seen.has(p.id))]
            }).pipe(Effect.orElseSucceed((): ReadonlyArray<SocialPost> => found)),
          { concurrency: RESEARCH_LIMITS.concurrency }
        )
        return { groups, hitIds: new Set(hits.value.map((p) => p.id)), reports }
      })

    const study = (
      workspaceId: string,
      kind: StudyKind,
      input: {
        readonly subject: StudySubject
        readonly minRatio: number
        readonly limit: number
        readonly firstLineAsTitle: boolean
      }
    ) =>
      Effect.gen(function* () {
        const postLimit = 50
        const shape = kind === "titles" ? hasTitle(input.firstLineAsTitle) : isCarouselOrDocument
        if ("topic" in input.subject) {
          const { groups, hitIds, reports } = yield* topicGroups(
            workspaceId,
            input.subject.topic,
            input.subject.platform,
            postLimit
          )
          const posts = outperformers(groups, {
            predicate: (post) => hitIds.has(post.id) && shape(post),
            minRatio: input.minRatio,
            limit: input.limit,
            firstLineAsTitle: input.firstLineAsTitle
          })
          return { value: { posts, creatorsStudied: groups.length, failed: [] }, sources: mergeReports(reports) }
        }
        const { done, failed } = yield* listCreators(workspaceId, input.subject.list, postLimit)
        const posts = outperformers(
          done.map((d) => d.posts),
          { predicate: shape, minRatio: input.minRatio, limit: input.limit, firstLineAsTitle: input.firstLineAsTitle }
        )
        return {
          value: { posts, creatorsStudied: done.length, failed },
          sources: mergeReports(done.flatMap((d) => d.sources))
        }
      }).pipe(withSpan("ResearchStudies.study"))

    return { analyze, following, analyzeList, study } as const
  })
}) {}
