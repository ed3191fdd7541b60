/**
 * The RSS source: Substack publications and any blog with an RSS, Atom, RDF or JSON feed. A creator is a feed (its id
 * is the feed's URL); its posts are the feed's items. Feeds carry no engagement, so every metric is null, and no
 * follower or post counts, so those are null too. It has no search, follows or ads parts.
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
import { Duration, Effect, Option } from "effect"
import { type FeedEntry, feedLinksOf, type ParsedFeed, readFeed } from "./feed-reading.js"
import {
  DEFAULT_DEADLINE,
  DEFAULT_MAX_BYTES,
  type HttpAnswer,
  httpGet,
  statusFailure,
  withDeadline
} from "./source-http.js"

/** Settings of {@link makeRssSource}. */
export interface RssSourceOptions {
  /**
   * The `fetch` every request goes through. The server gives the checked fetch (`makeCheckedFetch`): the addresses
   * come from what a person typed, so one inside our network must be refused.
   */
  readonly fetch: typeof fetch
  /** The longest one call of the source may take, discovery included (default 10 s). */
  readonly deadline?: Duration.DurationInput
  /** The most of one answer read (default 5 MB). */
  readonly maxBytes?: number
}

/** Where a site's feed usually is, tried in this order when its page names none. */
export const COMMON_FEED_PATHS = ["/feed", "/rss", "/rss.xml", "/atom.xml", "/feed.xml", "/index.xml"] as const

const SOURCE = "rss"
const USER_AGENT = "svc-research/0.1 (+feed reader)"

/** A feed found at `url`. */
interface LocatedFeed {
  readonly url: string
  readonly feed: ParsedFeed
}

/** The RSS source, for platforms `substack` and `blog`; it needs no setting. */
export const makeRssSource = (options: RssSourceOptions): SocialSource => {
  const deadline = Duration.decode(options.deadline ?? DEFAULT_DEADLINE)
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES

  const get = (url: string) =>
    httpGet(url, {
      fetch: options.fetch,
      label: `the site at ${url}`,
      maxBytes,
      headers: {
        accept:
          "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/html;q=0.8, */*;q=0.5",
        "user-agent": USER_AGENT
      }
    })

  /** The answer to `url` when it is a success; none for 404/410; a failure for other errors. */
  const found = (url: string): Effect.Effect<Option.Option<HttpAnswer>, SourceFailure> =>
    Effect.flatMap(get(url), (answer) => {
      if (answer.status === 404 || answer.status === 410) return Effect.succeedNone
      if (answer.status >= 200 && answer.status < 300) return Effect.succeedSome(answer)
      return Effect.flatMap(statusFailure(`the site at ${url}`, answer), Effect.fail)
    })

  /** The feed at `url`, or none when nothing or something other than a feed is there. */
  const feedAt = (url: string): Effect.Effect<Option.Option<LocatedFeed>, SourceFailure> =>
    Effect.map(found(url), (answer) =>
      Option.flatMap(answer, (a) => Option.map(Option.fromNullable(readFeed(a.body)), (feed) => ({ url, feed })))
    )

  /** The first of `urls` that holds a feed. */
  const firstFeed = (urls: ReadonlyArray<string>): Effect.Effect<Option.Option<LocatedFeed>, SourceFailure> =>
    Effect.reduce(urls, Option.none<LocatedFeed>(), (done, url) =>
      Option.isSome(done) ? Effect.succeed(done) : feedAt(url)
    )

  /**
   * The feed of the page or feed at `url`: Substack's is `<host>/feed`; otherwise the URL itself when it is a feed, the
   * feed its page names, or the first of {@link COMMON_FEED_PATHS} on its site. None when the page is not there.
   */
  const discover = (url: URL): Effect.Effect<Option.Option<LocatedFeed>, SourceFailure> => {
    if (isSubstackHost(url.hostname)) return feedAt(`${url.origin}/feed`)
    return Effect.flatMap(found(url.href), (answer) => {
      if (Option.isNone(answer)) return Effect.succeedNone
      const feed = readFeed(answer.value.body)
      if (feed !== undefined) return Effect.succeedSome({ url: url.href, feed })
      const named = feedLinksOf(answer.value.body, answer.value.url)
      const common = COMMON_FEED_PATHS.map((path) => new URL(path, url.origin).href).filter((u) => !named.includes(u))
      return firstFeed([...named, ...common])
    })
  }

  const resolve = (ref: CreatorRef): Effect.Effect<Option.Option<Creator>, SourceFailure> => {
    const url = publicationUrlOf(ref.text)
    if (url === undefined) return Effect.succeedNone
    return Effect.map(discover(url), Option.map(creatorOf))
  }

  const ofCreator = (creator: CreatorKey, limit: number): Effect.Effect<ReadonlyArray<SocialPost>, SourceFailure> =>
    Effect.map(feedAt(creator.id), (located) =>
      Option.match(located, {
        onNone: () => [],
        onSome: (l) =>
          newestFirst(l.feed.entries)
            .slice(0, Math.max(0, limit))
            .map((entry) => postOf(l, entry))
      })
    )

  const read = (ref: PostRef): Effect.Effect<Option.Option<SocialPost>, SourceFailure> => {
    const url = httpUrlOf(ref.text.trim())
    if (url === undefined) return Effect.succeedNone
    const wanted = comparable(url.href)
    return Effect.map(discover(url), (located) =>
      Option.flatMap(located, (l) =>
        Option.map(
          Option.fromNullable(l.feed.entries.find((entry) => entry.url !== null && comparable(entry.url) === wanted)),
          (entry) => postOf(l, entry)
        )
      )
    )
  }

  const bounded = withDeadline(`The RSS source`, deadline)
  return {
    name: SOURCE,
    platforms: ["substack", "blog"],
    missingSetting: null,
    creators: {
      resolve: (ref) => bounded(resolve(ref)),
      // Feeds have no directory to search.
      search: () => Effect.succeed([])
    },
    posts: {
      ofCreator: (creator, limit) => bounded(ofCreator(creator, limit)),
      read: (ref) => bounded(read(ref))
    }
  }
}

/**
 * The address a person's text names a publication by: `https://…` (a page or a feed), a bare `name.substack.com`,
 * or `substack.com/@name` (with or without `https://`). Anything else (a handle of another network, a name) is not
 * this source's.
 */
export const publicationUrlOf = (text: string): URL | undefined => {
  const trimmed = text.trim()
  const profile = /^(?:https?:\/\/)?(?:www\.)?substack\.com\/@([a-z0-9][a-z0-9_-]*)\/?$/i.exec(trimmed)
  if (profile !== null) return new URL(`https://${profile[1]?.toLowerCase()}.substack.com/feed`)
  const bare = /^([a-z0-9][a-z0-9-]*)\.substack\.com\/?$/i.exec(trimmed)
  if (bare !== null) return new URL(`https://${bare[1]?.toLowerCase()}.substack.com/feed`)
  return httpUrlOf(trimmed)
}

const httpUrlOf = (text: string): URL | undefined => {
  if (!/^https?:\/\//i.test(text)) return undefined
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

const isSubstackHost = (host: string) => {
  const lower = host.toLowerCase()
  return lower.endsWith(".substack.com") && lower !== "www.substack.com" && lower !== "open.substack.com"
}

const platformOf = (located: LocatedFeed): ResearchPlatform =>
  isSubstackHost(new URL(located.url).hostname) || /substack/i.test(located.feed.generator ?? "") ? "substack" : "blog"

/** The handle of a publication: the Substack name, else the site's host without `www.`. */
const handleOf = (located: LocatedFeed): string => {
  const host = new URL(located.url).hostname.toLowerCase()
  if (isSubstackHost(host)) return host.slice(0, -".substack.com".length)
  return host.replace(/^www\./, "")
}

const homeOf = (located: LocatedFeed): string => {
  const home = located.feed.homeUrl
  if (home !== null && httpUrlOf(home) !== undefined) return home
  return `${new URL(located.url).origin}/`
}

const creatorOf = (located: LocatedFeed): Creator => {
  const handle = handleOf(located)
  return new Creator({
    platform: platformOf(located),
    id: located.url,
    handle,
    name: located.feed.title === "" ? handle : located.feed.title,
    bio: located.feed.description,
    url: homeOf(located),
    avatarUrl: located.feed.imageUrl,
    followers: null,
    following: null,
    posts: null,
    source: SOURCE
  })
}

const postOf = (located: LocatedFeed, entry: FeedEntry): SocialPost =>
  new SocialPost({
    platform: platformOf(located),
    id: entry.id === "" ? (entry.url ?? "") : entry.id,
    url: entry.url,
    author: { handle: handleOf(located), name: entry.author ?? located.feed.title },
    title: entry.title,
    text: entry.text,
    format: "article",
    mediaCount: entry.mediaCount,
    createdAt: entry.publishedAt,
    // Feeds carry no engagement.
    metrics: { likes: null, replies: null, reposts: null, quotes: null, views: null },
    source: SOURCE
  })

/** Items newest first; items without a date keep their feed order, after the dated ones. */
const newestFirst = (entries: ReadonlyArray<FeedEntry>): ReadonlyArray<FeedEntry> =>
  entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => {
      const at = a.entry.publishedAt?.getTime()
      const bt = b.entry.publishedAt?.getTime()
      if (at !== undefined && bt !== undefined && at !== bt) return bt - at
      if (at === undefined && bt !== undefined) return 1
      if (at !== undefined && bt === undefined) return -1
      return a.index - b.index
    })
    .map(({ entry }) => entry)

/** An article address as compared: no scheme, `www.`, query, fragment or trailing slash; the host in lower case. */
const comparable = (text: string): string => {
  try {
    const url = new URL(text)
    return `${url.hostname.toLowerCase().replace(/^www\./, "")}${url.pathname.replace(/\/+$/, "")}`
  } catch {
    return text
  }
}
