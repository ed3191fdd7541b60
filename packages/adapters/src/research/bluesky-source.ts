/**
 * The Bluesky source: reads a Bluesky AppView (app.bsky.*) through `@atproto/api`, logged in to nothing, as the
 * public web app does: profiles, author feeds with their counts, follows, single posts and post search. The AppView is
 * the public one (`https://public.api.bsky.app`) unless the setting names another. No key is needed, so it is always
 * set up; the AppView's own rate limit comes back as `rate-limited` with the wait it asked for.
 */
import type { AppBskyActorDefs, AppBskyFeedDefs, AtpAgent } from "@atproto/api"
import {
  Creator,
  type CreatorKey,
  type CreatorRef,
  type PostFormat,
  type PostRef,
  SocialPost,
  type SocialSource,
  type SourceFailure
} from "@svc/core/research"
import { Clock, Duration, Effect, Option } from "effect"
import { isXrpcError, retryAfter } from "../publisher/bluesky-failure.js"
import { loadAtprotoApi } from "../publisher/bluesky-session.js"
import { DEFAULT_DEADLINE, describe, rateLimited, refused, unavailable, withDeadline } from "./source-http.js"

/** The AppView the source reads unless its setting names another. */
export const PUBLIC_APPVIEW_URL = "https://public.api.bsky.app"

/** Settings of {@link makeBlueskySource}; every one has a default. */
export interface BlueskySourceOptions {
  /** The AppView read (default {@link PUBLIC_APPVIEW_URL}). */
  readonly appViewUrl?: string
  /** The web app whose addresses posts and profiles are given (and recognised) with (default `https://bsky.app`). */
  readonly webUrl?: string
  /** The `fetch` every call goes through (default the global one). */
  readonly fetch?: typeof fetch
  /** The longest one call of the source may take, all its pages included (default 10 s). */
  readonly deadline?: Duration.DurationInput
  /** Rows asked for per page of a paged call, 1 to 100 (default 100, the AppView's most). */
  readonly pageSize?: number
}

const SOURCE = "bluesky"
/** The most rows one page of app.bsky.* answers (searchActors, getAuthorFeed, getFollows, searchPosts). */
const PAGE_MAX = 100
/** The most actors one `getProfiles` takes. */
const PROFILES_MAX = 25
/** Search results looked through when a person names a creator by name rather than by handle. */
const NAME_CANDIDATES = 10

// `@atproto/api` is an optional peer of @svc/adapters, loaded when first used (about 320 ms and 40 MB of lexicons).
const atprotoApi = loadAtprotoApi("reading Bluesky for research").pipe(
  Effect.mapError((missing) => refused(missing.message))
)

/** XRPC errors that mean the actor (or post) asked about is not there to read. */
const GONE_ERRORS = new Set(["NotFound", "ActorNotFound", "AccountTakedown", "AccountDeactivated", "RecordNotFound"])
const NOT_FOUND_MESSAGE = /not found|could not find|unable to resolve|must be a valid/i

/** Whether an answer says the actor, handle or post asked about does not exist (or may not be read). */
const isNotFound = (cause: unknown): boolean =>
  isXrpcError(cause) &&
  cause.status === 400 &&
  (GONE_ERRORS.has(cause.error) || (cause.error === "InvalidRequest" && NOT_FOUND_MESSAGE.test(cause.message)))

/** Marks a call's "not there" answer, so the part that made it can answer none. */
const NOT_FOUND = Symbol("not-found")

/** A Bluesky handle: two or more DNS labels, the last starting with a letter (the atproto handle syntax). */
const HANDLE = /^(?=.{3,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i
/** A DID of the methods Bluesky accounts use. */
const DID = /^did:(?:plc:[a-z2-7]{24}|web:[a-z0-9.%:-]+)$/i
const RKEY = /^[a-zA-Z0-9._:~-]{1,512}$/

/** How a person's text names an actor: by DID or handle (looked up directly), or by a name (searched). */
type ActorName = { readonly actor: string } | { readonly name: string } | undefined

/** A post named by its author (DID or handle) and record key. */
interface PostName {
  readonly actor: string
  readonly rkey: string
}

/** The Bluesky source for platform `bluesky`. */
export const makeBlueskySource = (options: BlueskySourceOptions = {}): SocialSource => {
  const appViewUrl = (options.appViewUrl?.trim() || PUBLIC_APPVIEW_URL).replace(/\/+$/, "")
  const webUrl = (options.webUrl?.trim() || "https://bsky.app").replace(/\/+$/, "")
  const webHosts = new Set(["bsky.app", "www.bsky.app", hostOf(webUrl)])
  const deadline = Duration.decode(options.deadline ?? DEFAULT_DEADLINE)
  const pageMax = Math.min(PAGE_MAX, Math.max(1, Math.floor(options.pageSize ?? PAGE_MAX)))
  const baseFetch = options.fetch ?? globalThis.fetch
  const bounded = withDeadline(`The Bluesky AppView at ${appViewUrl}`, deadline)

  let agent: AtpAgent | undefined
  const agentOf = Effect.map(atprotoApi, (api) => {
    if (agent === undefined) agent = new api.AtpAgent({ service: appViewUrl, fetch: baseFetch })
    return agent
  })

  /**
   * One call to the AppView. Interrupting it (the deadline) aborts the request. An answer saying the thing asked about
   * is not there is {@link NOT_FOUND}; 429 is `rate-limited` with the wait; 401/403 `refused`; anything else
   * (5xx, no answer) `unavailable`.
   */
  const call = <A>(
    doing: string,
    run: (agent: AtpAgent, signal: AbortSignal) => Promise<{ readonly data: A }>
  ): Effect.Effect<A | typeof NOT_FOUND, SourceFailure> =>
    Effect.flatMap(agentOf, (agent) =>
      Effect.tryPromise({ try: (signal) => run(agent, signal), catch: (cause) => cause }).pipe(
        Effect.map(({ data }): A | typeof NOT_FOUND => data),
        Effect.catchAll((cause) => (isNotFound(cause) ? Effect.succeed(NOT_FOUND) : failure(doing, cause)))
      )
    )

  const failure = (doing: string, cause: unknown): Effect.Effect<never, SourceFailure> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const where = `the Bluesky AppView at ${appViewUrl}`
      // No answer (the connection refused or cut): `@atproto/api` throws an XRPCError of status 1, the cause inside.
      if (!isXrpcError(cause) || cause.status < 400) {
        const inner = isXrpcError(cause) && "cause" in cause && cause.cause !== undefined ? cause.cause : cause
        return Effect.fail(unavailable(`${doing}: ${where}: ${describe(inner)}`))
      }
      const message = `${doing}: ${where} answered ${cause.status}${cause.error === "" ? "" : ` (${[cause.error, cause.message].filter(Boolean).join(": ")})`}`
      if (cause.status === 429) return Effect.fail(rateLimited(message, retryAfter(cause.headers, now)))
      if (cause.status === 401 || cause.status === 403) return Effect.fail(refused(message))
      return Effect.fail(unavailable(message))
    })

  /**
   * Pages through a cursor-paged call until `limit` rows that `keep` keeps (or the end); none when the first page says
   * the actor is not there.
   */
  const paged = <Page, Row>(
    doing: string,
    limit: number,
    fetchPage: (
      agent: AtpAgent,
      size: number,
      cursor: string | undefined,
      signal: AbortSignal
    ) => Promise<{ readonly data: Page }>,
    rowsOf: (page: Page) => { readonly rows: ReadonlyArray<Row>; readonly cursor: string | undefined },
    keep: (row: Row) => boolean = () => true
  ): Effect.Effect<Option.Option<ReadonlyArray<Row>>, SourceFailure> =>
    Effect.gen(function* () {
      const wanted = Math.max(0, Math.floor(limit))
      const rows: Array<Row> = []
      let cursor: string | undefined
      for (let first = true; first || (rows.length < wanted && cursor !== undefined); first = false) {
        if (wanted === 0) break
        const size = Math.min(pageMax, wanted - rows.length)
        const at = cursor
        const page = yield* call(doing, (agent, signal) => fetchPage(agent, size, at, signal))
        if (page === NOT_FOUND) return first ? Option.none() : Option.some(rows)
        const read = rowsOf(page)
        rows.push(...read.rows.filter(keep))
        // An AppView that answers an empty page with a cursor would page forever.
        cursor = read.rows.length === 0 ? undefined : read.cursor
      }
      return Option.some(rows.slice(0, wanted))
    })

  /** The actors as creators, in their order, with the counts of their full profiles (`getProfiles`, 25 a call). */
  const profilesOf = (
    actors: ReadonlyArray<AppBskyActorDefs.ProfileView>
  ): Effect.Effect<ReadonlyArray<Creator>, SourceFailure> =>
    Effect.map(
      Effect.forEach(
        chunks(
          actors.map((actor) => actor.did),
          PROFILES_MAX
        ),
        (dids) =>
          call("Reading profiles", (agent, signal) =>
            agent.app.bsky.actor.getProfiles({ actors: [...dids] }, { signal })
          ),
        { concurrency: 2 }
      ),
      (pages) => {
        const byDid = new Map<string, AppBskyActorDefs.ProfileViewDetailed>()
        for (const page of pages) if (page !== NOT_FOUND) for (const p of page.profiles) byDid.set(p.did, p)
        return actors.map((actor) => creatorOf(byDid.get(actor.did) ?? actor))
      }
    )

  const profile = (actor: string): Effect.Effect<Option.Option<Creator>, SourceFailure> =>
    Effect.map(
      call(`Reading the profile of ${actor}`, (agent, signal) =>
        agent.app.bsky.actor.getProfile({ actor }, { signal })
      ),
      (found) => (found === NOT_FOUND ? Option.none() : Option.some(creatorOf(found)))
    )

  const searchActors = (query: string, limit: number) =>
    Effect.map(
      paged(
        `Searching Bluesky accounts for "${query}"`,
        limit,
        (agent, size, cursor, signal) =>
          agent.app.bsky.actor.searchActors({ q: query, limit: size, ...(cursor ? { cursor } : {}) }, { signal }),
        (page) => ({ rows: page.actors, cursor: page.cursor })
      ),
      Option.getOrElse((): ReadonlyArray<AppBskyActorDefs.ProfileView> => [])
    )

  const resolve = (ref: CreatorRef): Effect.Effect<Option.Option<Creator>, SourceFailure> => {
    const named = actorNameOf(ref.text, webHosts)
    if (named === undefined) return Effect.succeedNone
    if ("actor" in named) return profile(named.actor)
    // A name: the account among the first search results whose display name or handle's first label is that name.
    const wanted = named.name.toLowerCase()
    return Effect.flatMap(searchActors(named.name, NAME_CANDIDATES), (actors) => {
      const match = actors.find(
        (actor) =>
          actor.displayName?.trim().toLowerCase() === wanted || actor.handle.toLowerCase().split(".")[0] === wanted
      )
      return match === undefined ? Effect.succeedNone : profile(match.did)
    })
  }

  const search = (query: string, limit: number): Effect.Effect<ReadonlyArray<Creator>, SourceFailure> =>
    query.trim() === "" ? Effect.succeed([]) : Effect.flatMap(searchActors(query.trim(), limit), profilesOf)

  const ofCreator = (creator: CreatorKey, limit: number): Effect.Effect<ReadonlyArray<SocialPost>, SourceFailure> =>
    Effect.map(
      paged(
        `Reading the posts of ${creator.handle}`,
        limit,
        (agent, size, cursor, signal) =>
          agent.app.bsky.feed.getAuthorFeed(
            { actor: creator.id, filter: "posts_no_replies", limit: size, ...(cursor ? { cursor } : {}) },
            { signal }
          ),
        (page) => ({ rows: page.feed, cursor: page.cursor }),
        // The creator's own posts: a repost (or a pinned post) comes with a reason, and is not one of the feed's.
        (item) => item.reason === undefined && item.post.author.did === creator.id
      ),
      (rows) => Option.getOrElse(rows, (): ReadonlyArray<AppBskyFeedDefs.FeedViewPost> => []).map((i) => postOf(i.post))
    )

  const read = (ref: PostRef): Effect.Effect<Option.Option<SocialPost>, SourceFailure> =>
    Effect.gen(function* () {
      const named = postNameOf(ref.text, webHosts)
      if (named === undefined) return Option.none()
      let did = named.actor
      if (!did.startsWith("did:")) {
        const handle = named.actor
        const resolved = yield* call(`Resolving ${handle}`, (agent, signal) =>
          agent.com.atproto.identity.resolveHandle({ handle }, { signal })
        )
        if (resolved === NOT_FOUND) return Option.none()
        did = resolved.did
      }
      const uri = `at://${did}/app.bsky.feed.post/${named.rkey}`
      const found = yield* call(`Reading the post ${uri}`, (agent, signal) =>
        agent.app.bsky.feed.getPosts({ uris: [uri] }, { signal })
      )
      if (found === NOT_FOUND) return Option.none()
      return Option.map(Option.fromNullable(found.posts[0]), postOf)
    })

  const searchPosts = (query: string, limit: number): Effect.Effect<ReadonlyArray<SocialPost>, SourceFailure> =>
    query.trim() === ""
      ? Effect.succeed([])
      : Effect.map(
          paged(
            `Searching Bluesky posts for "${query.trim()}"`,
            limit,
            (agent, size, cursor, signal) =>
              agent.app.bsky.feed.searchPosts(
                { q: query.trim(), limit: size, ...(cursor ? { cursor } : {}) },
                { signal }
              ),
            (page) => ({ rows: page.posts, cursor: page.cursor })
          ),
          (rows) => Option.getOrElse(rows, (): ReadonlyArray<AppBskyFeedDefs.PostView> => []).map(postOf)
        )

  const followsOf = (creator: CreatorKey, limit: number): Effect.Effect<ReadonlyArray<Creator>, SourceFailure> =>
    Effect.flatMap(
      paged(
        `Reading whom ${creator.handle} follows`,
        limit,
        (agent, size, cursor, signal) =>
          agent.app.bsky.graph.getFollows(
            { actor: creator.id, limit: size, ...(cursor ? { cursor } : {}) },
            { signal }
          ),
        (page) => ({ rows: page.follows, cursor: page.cursor })
      ),
      (rows) => profilesOf(Option.getOrElse(rows, (): ReadonlyArray<AppBskyActorDefs.ProfileView> => []))
    )

  const profileUrl = (actor: { readonly handle: string; readonly did: string }) =>
    `${webUrl}/profile/${usableHandle(actor.handle) ? actor.handle : actor.did}`

  const creatorOf = (actor: AppBskyActorDefs.ProfileView | AppBskyActorDefs.ProfileViewDetailed): Creator =>
    new Creator({
      platform: "bluesky",
      id: actor.did,
      handle: actor.handle,
      name: nonEmpty(actor.displayName) ?? actor.handle,
      bio: nonEmpty(actor.description) ?? null,
      url: profileUrl(actor),
      avatarUrl: actor.avatar ?? null,
      followers: countOf(actor, "followersCount"),
      following: countOf(actor, "followsCount"),
      posts: countOf(actor, "postsCount"),
      source: SOURCE
    })

  const postOf = (post: AppBskyFeedDefs.PostView): SocialPost => {
    const { format, mediaCount } = shapeOf(post.embed)
    const record = post.record as { readonly text?: unknown; readonly createdAt?: unknown }
    return new SocialPost({
      platform: "bluesky",
      id: post.uri,
      url: `${profileUrl(post.author)}/post/${post.uri.split("/").pop() ?? ""}`,
      author: { handle: post.author.handle, name: nonEmpty(post.author.displayName) ?? post.author.handle },
      title: null,
      text: typeof record.text === "string" ? record.text : "",
      format,
      mediaCount,
      createdAt: dateOf(record.createdAt) ?? dateOf(post.indexedAt),
      metrics: {
        likes: post.likeCount ?? null,
        replies: post.replyCount ?? null,
        reposts: post.repostCount ?? null,
        quotes: post.quoteCount ?? null,
        // The AppView gives no views.
        views: null
      },
      source: SOURCE
    })
  }

  return {
    name: SOURCE,
    platforms: ["bluesky"],
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
    follows: { of: (creator, limit) => bounded(followsOf(creator, limit)) }
  }
}

/**
 * How `text` names a Bluesky account: a DID; a handle (`alice.bsky.social`, `@alice.bsky.social`); a profile or post
 * address on the web app (`https://bsky.app/profile/<handle or DID>[/…]`); an `at://` URI of the account or one of its
 * records; or else a name (words, `@alice`), which is searched. Undefined for an address of another site.
 */
export const actorNameOf = (text: string, webHosts: ReadonlySet<string> = new Set(["bsky.app"])): ActorName => {
  const trimmed = text.trim()
  if (trimmed === "") return undefined
  const at = /^at:\/\/([^/?#]+)/i.exec(trimmed)
  if (at !== null) return actorOf(decodeURIComponent(at[1] ?? ""))
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || /^(?:www\.)?bsky\.app\//i.test(trimmed)) {
    const url = urlOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`)
    if (url === undefined || !webHosts.has(url.hostname.toLowerCase())) return undefined
    const profile = /^\/profile\/([^/]+)/.exec(url.pathname)
    return profile === null ? undefined : actorOf(decodeURIComponent(profile[1] ?? ""))
  }
  if (DID.test(trimmed)) return { actor: trimmed }
  const bare = trimmed.replace(/^@/, "")
  if (HANDLE.test(bare)) return { actor: bare.toLowerCase() }
  // A name: what remains of `@name` or words. Anything with a slash or another scheme is not a Bluesky name.
  if (/[/\\]/.test(bare) || bare.length > 100) return undefined
  return { name: bare }
}

/** A post named by `text`: `at://<actor>/app.bsky.feed.post/<rkey>` or `https://bsky.app/profile/<actor>/post/<rkey>`. */
export const postNameOf = (
  text: string,
  webHosts: ReadonlySet<string> = new Set(["bsky.app"])
): PostName | undefined => {
  const trimmed = text.trim()
  const at = /^at:\/\/([^/?#]+)\/app\.bsky\.feed\.post\/([^/?#]+)$/i.exec(trimmed)
  if (at !== null) return postOf(decodeURIComponent(at[1] ?? ""), at[2] ?? "")
  const url = urlOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`)
  if (url === undefined || !webHosts.has(url.hostname.toLowerCase())) return undefined
  const post = /^\/profile\/([^/]+)\/post\/([^/]+)\/?$/.exec(url.pathname)
  return post === null ? undefined : postOf(decodeURIComponent(post[1] ?? ""), post[2] ?? "")
}

const postOf = (actor: string, rkey: string): PostName | undefined => {
  const named = actorOf(actor)
  return named === undefined || !RKEY.test(rkey) ? undefined : { actor: named.actor, rkey }
}

const actorOf = (text: string): { readonly actor: string } | undefined => {
  if (DID.test(text)) return { actor: text }
  const bare = text.replace(/^@/, "")
  return HANDLE.test(bare) ? { actor: bare.toLowerCase() } : undefined
}

/** A post's format and how many images or videos it carries, from its embed's view. */
const shapeOf = (embed: AppBskyFeedDefs.PostView["embed"]): { format: PostFormat; mediaCount: number } => {
  const type = typeof embed?.$type === "string" ? embed.$type : ""
  if (type === "app.bsky.embed.recordWithMedia#view" && embed !== undefined && "media" in embed)
    return shapeOf(embed.media as AppBskyFeedDefs.PostView["embed"])
  if (type === "app.bsky.embed.images#view" && embed !== undefined && "images" in embed) {
    const count = Array.isArray(embed.images) ? embed.images.length : 0
    return { format: count > 1 ? "carousel" : "image", mediaCount: count }
  }
  if (type === "app.bsky.embed.video#view") return { format: "video", mediaCount: 1 }
  if (type === "app.bsky.embed.external#view") return { format: "link", mediaCount: 0 }
  return { format: "text", mediaCount: 0 }
}

const countOf = (
  actor: AppBskyActorDefs.ProfileView | AppBskyActorDefs.ProfileViewDetailed,
  key: "followersCount" | "followsCount" | "postsCount"
): number | null => {
  const value: unknown = (actor as Partial<Record<typeof key, unknown>>)[key]
  return typeof value === "number" && Number.isInteger(value) ? value : null
}

const dateOf = (value: unknown): Date | null => {
  if (typeof value !== "string") return null
  const at = new Date(value)
  return Number.isNaN(at.getTime()) ? null : at
}

const nonEmpty = (text: string | undefined): string | undefined => {
  const trimmed = text?.trim()
  return trimmed === undefined || trimmed === "" ? undefined : trimmed
}

/** `handle.invalid` is what the AppView shows for an account whose handle no longer verifies: its DID is used then. */
const usableHandle = (handle: string) => handle !== "handle.invalid" && HANDLE.test(handle)

const urlOf = (text: string): URL | undefined => {
  try {
    const url = new URL(text)
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined
  } catch {
    return undefined
  }
}

const hostOf = (url: string): string => urlOf(url)?.hostname.toLowerCase() ?? "bsky.app"

const chunks = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
