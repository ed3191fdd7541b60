/**
 * The research provider source: one HTTP contract of ours (docs/research-provider.md) that an operator points at any
 * provider of X, LinkedIn, Instagram and TikTok data, or at a small proxy in front of one. Every answer is decoded
 * with Schema; an answer that does not match the contract fails `unavailable`, naming the field.
 */
import {
  Creator,
  type CreatorKey,
  type CreatorRef,
  type PostRef,
  type ResearchPlatform,
  SocialPost,
  type SocialSource,
  type SourceFailure
} from "@svc/core/research"
import { Duration, Effect, Either, Option, ParseResult, Schema } from "effect"
import {
  DEFAULT_DEADLINE,
  DEFAULT_MAX_BYTES,
  httpGet,
  statusFailure,
  unavailable,
  withDeadline
} from "./source-http.js"

/** The setting that turns the source on. */
export const PROVIDER_URL_SETTING = "SVC_RESEARCH_PROVIDER_URL"

/** The networks the provider may answer for. */
export const PROVIDER_PLATFORMS = ["x", "linkedin", "instagram", "tiktok"] as const
export type ProviderPlatform = (typeof PROVIDER_PLATFORMS)[number]

/** Settings of {@link makeProviderSource}. */
export interface ProviderSourceOptions {
  /** The provider's base URL (`SVC_RESEARCH_PROVIDER_URL`); undefined: the source is not set up. */
  readonly baseUrl: string | undefined
  /** Sent as `Authorization: Bearer <key>` (`SVC_RESEARCH_PROVIDER_KEY`); undefined: no header. */
  readonly key: string | undefined
  /** The networks this provider covers (default all four). */
  readonly platforms?: ReadonlyArray<ProviderPlatform>
  readonly fetch: typeof fetch
  /** The longest one call may take (default 10 s). */
  readonly deadline?: Duration.DurationInput
  /** The most of one answer read (default 5 MB). */
  readonly maxBytes?: number
}

const SOURCE = "provider"

const count = Schema.optionalWith(Schema.NullOr(Schema.Int.pipe(Schema.nonNegative())), { default: () => null })
const text = Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })

/** A creator as the provider answers one (wire names; see docs/research-provider.md). */
const ProviderCreator = Schema.Struct({
  platform: Schema.Literal(...PROVIDER_PLATFORMS),
  id: Schema.NonEmptyString,
  handle: Schema.NonEmptyString,
  display_name: text,
  bio: text,
  url: Schema.NonEmptyString,
  avatar_url: text,
  followers_count: count,
  following_count: count,
  posts_count: count
})
type ProviderCreator = typeof ProviderCreator.Type

/** A post as the provider answers one. */
const ProviderPost = Schema.Struct({
  platform: Schema.Literal(...PROVIDER_PLATFORMS),
  id: Schema.NonEmptyString,
  url: text,
  author: Schema.Struct({ handle: Schema.String, name: Schema.optionalWith(Schema.String, { default: () => "" }) }),
  title: text,
  text: Schema.optionalWith(Schema.String, { default: () => "" }),
  format: Schema.optionalWith(Schema.Literal("text", "image", "carousel", "video", "document", "link", "article"), {
    default: () => "text" as const
  }),
  media_count: Schema.optionalWith(Schema.Int.pipe(Schema.nonNegative()), { default: () => 0 }),
  created_at: Schema.optionalWith(Schema.NullOr(Schema.DateFromString), { default: () => null }),
  metrics: Schema.optionalWith(
    Schema.Struct({ likes: count, replies: count, reposts: count, quotes: count, views: count }),
    { default: () => ({ likes: null, replies: null, reposts: null, quotes: null, views: null }) }
  )
})
type ProviderPost = typeof ProviderPost.Type

const CreatorAnswer = Schema.Struct({ creator: ProviderCreator })
const CreatorsAnswer = Schema.Struct({ creators: Schema.Array(ProviderCreator) })
const PostAnswer = Schema.Struct({ post: ProviderPost })
const PostsAnswer = Schema.Struct({ posts: Schema.Array(ProviderPost) })

/** The research provider source, for x, linkedin, instagram and tiktok. */
export const makeProviderSource = (options: ProviderSourceOptions): SocialSource => {
  const platforms: ReadonlyArray<ResearchPlatform> = options.platforms ?? PROVIDER_PLATFORMS
  const base = options.baseUrl?.trim().replace(/\/+$/, "")
  if (base === undefined || base === "") {
    return { name: SOURCE, platforms, missingSetting: PROVIDER_URL_SETTING }
  }
  const deadline = Duration.decode(options.deadline ?? DEFAULT_DEADLINE)
  const label = "The research provider"
  const bounded = withDeadline(label, deadline)
  const covers = (platform: string) => platforms.includes(platform as ResearchPlatform)

  /** GETs `path` and decodes the answer with `schema`; none for 404. */
  const call = <A, I>(
    path: string,
    query: Record<string, string | number | undefined>,
    schema: Schema.Schema<A, I>
  ): Effect.Effect<Option.Option<A>, SourceFailure> => {
    const url = new URL(`${base}${path}`)
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, String(value))
    return Effect.flatMap(
      httpGet(url.href, {
        fetch: options.fetch,
        label,
        maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
        headers: {
          accept: "application/json",
          ...(options.key === undefined || options.key === "" ? {} : { authorization: `Bearer ${options.key}` })
        }
      }),
      (answer): Effect.Effect<Option.Option<A>, SourceFailure> => {
        if (answer.status === 404) return Effect.succeedNone
        if (answer.status < 200 || answer.status >= 300)
          return Effect.flatMap(statusFailure(`${label} (GET ${path})`, answer), Effect.fail)
        let json: unknown
        try {
          json = JSON.parse(answer.body)
        } catch {
          return Effect.fail(unavailable(`${label} answered GET ${path} with something that is not JSON`))
        }
        const decoded = Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })(json)
        if (Either.isRight(decoded)) return Effect.succeedSome(decoded.right)
        const issue = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0]
        const field = issue === undefined || issue.path.length === 0 ? "(the answer)" : issue.path.join(".")
        return Effect.fail(
          unavailable(
            `${label}'s answer to GET ${path} does not match the contract at ${field}: ${issue?.message ?? "invalid"}`
          )
        )
      }
    )
  }

  const creatorOf = (c: ProviderCreator) =>
    new Creator({
      platform: c.platform,
      id: c.id,
      handle: c.handle,
      name: c.display_name ?? c.handle,
      bio: c.bio,
      url: c.url,
      avatarUrl: c.avatar_url,
      followers: c.followers_count,
      following: c.following_count,
      posts: c.posts_count,
      source: SOURCE
    })

  const postOf = (p: ProviderPost) =>
    new SocialPost({
      platform: p.platform,
      id: p.id,
      url: p.url,
      author: { handle: p.author.handle, name: p.author.name },
      title: p.title,
      text: p.text,
      format: p.format,
      mediaCount: p.media_count,
      createdAt: p.created_at,
      metrics: p.metrics,
      source: SOURCE
    })

  const capped = (limit: number) => Math.max(1, Math.min(100, Math.trunc(limit)))
  const creatorPath = (creator: CreatorKey, part: string) =>
    `/creators/${encodeURIComponent(creator.platform)}/${encodeURIComponent(creator.id)}/${part}`

  const resolve = (ref: CreatorRef) => {
    const q = ref.text.trim()
    if (q === "") return Effect.succeedNone
    // A network the caller named narrows the lookup; one the address shows wins over it.
    const platform = platformOfUrl(q) ?? ref.platform
    if (platform === undefined ? isAddress(q) : !covers(platform)) return Effect.succeedNone
    return Effect.map(call("/creators/resolve", { platform, q }, CreatorAnswer), (answer) =>
      Option.filterMap(answer, (a) => (covers(a.creator.platform) ? Option.some(creatorOf(a.creator)) : Option.none()))
    )
  }

  const search = (query: string, limit: number, platform?: ResearchPlatform) =>
    platform !== undefined && !covers(platform)
      ? Effect.succeed([])
      : Effect.map(
          call("/creators/search", { platform, q: query.trim(), limit: capped(limit) }, CreatorsAnswer),
          (answer) =>
            Option.match(answer, {
              onNone: () => [],
              onSome: (a) =>
                a.creators
                  .filter((c) => covers(c.platform))
                  .slice(0, limit)
                  .map(creatorOf)
            })
        )

  const ofCreator = (creator: CreatorKey, limit: number) =>
    covers(creator.platform)
      ? Effect.map(call(creatorPath(creator, "posts"), { limit: capped(limit) }, PostsAnswer), (answer) =>
          Option.match(answer, { onNone: () => [], onSome: (a) => newestFirst(a.posts).slice(0, limit).map(postOf) })
        )
      : Effect.succeed([])

  const read = (ref: PostRef) => {
    const q = ref.text.trim()
    const platform = platformOfUrl(q)
    if (q === "" || (platform === undefined ? isAddress(q) : !covers(platform))) return Effect.succeedNone
    return Effect.map(call("/posts/resolve", { q }, PostAnswer), (answer) =>
      Option.filterMap(answer, (a) => (covers(a.post.platform) ? Option.some(postOf(a.post)) : Option.none()))
    )
  }

  const searchPosts = (query: string, limit: number, platform?: ResearchPlatform) =>
    platform !== undefined && !covers(platform)
      ? Effect.succeed([])
      : Effect.map(call("/posts/search", { platform, q: query.trim(), limit: capped(limit) }, PostsAnswer), (answer) =>
          Option.match(answer, {
            onNone: () => [],
            onSome: (a) =>
              a.posts
                .filter((p) => covers(p.platform))
                .slice(0, limit)
                .map(postOf)
          })
        )

  const follows = (creator: CreatorKey, limit: number) =>
    covers(creator.platform)
      ? Effect.map(call(creatorPath(creator, "follows"), { limit: capped(limit) }, CreatorsAnswer), (answer) =>
          Option.match(answer, { onNone: () => [], onSome: (a) => a.creators.slice(0, limit).map(creatorOf) })
        )
      : Effect.succeed([])

  return {
    name: SOURCE,
    platforms,
    missingSetting: null,
    creators: {
      resolve: (ref) => bounded(resolve(ref)),
      search: (query, limit) => bounded(search(query, limit))
    },
    posts: {
      ofCreator: (creator, limit) => bounded(ofCreator(creator, limit)),
      read: (ref) => bounded(read(ref))
    },
    search: { posts: (query, limit) => bounded(searchPosts(query, limit)) },
    follows: { of: (creator, limit) => bounded(follows(creator, limit)) }
  }
}

/** The network a profile or post address belongs to, when the text is one; undefined for handles and names. */
export const platformOfUrl = (text: string): ProviderPlatform | undefined => {
  let host: string
  try {
    host = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`).hostname.toLowerCase()
  } catch {
    return undefined
  }
  if (!/^[\w.-]+\.[a-z]{2,}$/.test(host) || !/[/.]/.test(text)) return undefined
  const bare = host.replace(/^(www|mobile|m)\./, "")
  if (bare === "x.com" || bare === "twitter.com") return "x"
  if (bare === "linkedin.com" || bare.endsWith(".linkedin.com")) return "linkedin"
  if (bare === "instagram.com") return "instagram"
  if (bare === "tiktok.com" || bare.endsWith(".tiktok.com")) return "tiktok"
  return undefined
}

/** Whether the text is a web address (of a network the provider does not cover, when {@link platformOfUrl} says none). */
const isAddress = (text: string) => /^https?:\/\//i.test(text) || /^[\w-]+(\.[\w-]+)+\//.test(text)

const newestFirst = (posts: ReadonlyArray<ProviderPost>) =>
  [...posts].sort((a, b) => (b.created_at?.getTime() ?? 0) - (a.created_at?.getTime() ?? 0))
