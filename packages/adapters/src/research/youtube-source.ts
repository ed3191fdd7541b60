/**
 * The YouTube source, through Google's official client (`@googleapis/youtube`, the Data API v3) with an API key:
 * channels as creators (subscribers, videos), their uploads with views, likes and comments, one video by address, and
 * search. It has no follows or ads parts (a channel's subscriptions need the owner's OAuth consent).
 *
 * **Quota.** A key has 10,000 units a day by default. Each call's cost is noted where it is made: `channels.list`,
 * `playlistItems.list` and `videos.list` cost 1 unit, `search.list` 100. So a creator's latest 50 videos cost 3 units,
 * a search 102. A day's quota spent answers `rate-limited` until the next midnight, Pacific time, when Google resets it.
 */
import type { youtube_v3 } from "@googleapis/youtube"
import {
  Creator,
  type CreatorKey,
  type CreatorRef,
  type PostRef,
  SocialPost,
  type SocialSource,
  type SourceFailure
} from "@svc/core/research"
import { Clock, Duration, Effect, Option } from "effect"
import { loadOptional } from "../optional-package.js"
import { describe, DEFAULT_DEADLINE, rateLimited, refused, unavailable, withDeadline } from "./source-http.js"

/** The setting that turns the source on. */
export const YOUTUBE_KEY_SETTING = "SVC_YOUTUBE_API_KEY"

/** Settings of {@link makeYouTubeSource}. */
export interface YouTubeSourceOptions {
  /** The Data API key (`SVC_YOUTUBE_API_KEY`); undefined: the source is not set up. */
  readonly apiKey: string | undefined
  /** Where the API is (default Google's, `https://youtube.googleapis.com/`); tests point it at a replay server. */
  readonly rootUrl?: string
  /** The `fetch` the client calls (default the global one). */
  readonly fetch?: typeof fetch
  /** The longest one call of the source may take, all its API requests included (default 10 s). */
  readonly deadline?: Duration.DurationInput
}

const SOURCE = "youtube"
const PAGE_MAX = 50

type Client = youtube_v3.Youtube

/** Loaded when first used: a server without the YouTube key never pays for the client. */
const loadClient = (options: YouTubeSourceOptions, apiKey: string) =>
  loadOptional({
    packages: ["@googleapis/youtube"],
    purpose: "The YouTube research source",
    load: () => import("@googleapis/youtube")
  }).pipe(
    Effect.map((module) =>
      module.youtube({
        version: "v3",
        auth: apiKey,
        // The client rewrites every request's address onto a root URL set here (googleapis-common `rootUrl`).
        ...(options.rootUrl === undefined ? {} : { rootUrl: options.rootUrl }),
        ...(options.fetch === undefined ? {} : { fetchImplementation: options.fetch }),
        // The deadline bounds a call; retries inside it would only spend quota.
        retry: false
      })
    ),
    Effect.mapError((missing) => unavailable(missing.message))
  )

/** The YouTube source for platform `youtube`. */
export const makeYouTubeSource = (options: YouTubeSourceOptions): SocialSource => {
  const apiKey = options.apiKey?.trim()
  if (apiKey === undefined || apiKey === "") {
    return { name: SOURCE, platforms: ["youtube"], missingSetting: YOUTUBE_KEY_SETTING }
  }
  const deadline = Duration.decode(options.deadline ?? DEFAULT_DEADLINE)
  let client: Client | undefined
  const clientOf = Effect.suspend(() =>
    client === undefined ? Effect.tap(loadClient(options, apiKey), (c) => (client = c)) : Effect.succeed(client)
  )
  // The deadline bounds the calls to YouTube, not the first load of the client (a local import of a few hundred ms).
  const withinDeadline = withDeadline("YouTube", deadline)
  const bounded = <A>(effect: Effect.Effect<A, SourceFailure>) => Effect.zipRight(clientOf, withinDeadline(effect))

  /** One API request; every failure becomes a {@link SourceFailure}. */
  const api = <A>(doing: string, run: (client: Client, signal: AbortSignal) => Promise<{ readonly data: A }>) =>
    Effect.flatMap(clientOf, (c) =>
      Effect.tryPromise({ try: (signal) => run(c, signal), catch: (cause) => cause }).pipe(
        Effect.map((response) => response.data),
        Effect.catchAll((cause) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.fail(failureOf(doing, cause, now)))
        )
      )
    )

  // channels.list: 1 unit.
  const channels = (filter: { id?: ReadonlyArray<string>; forHandle?: string; forUsername?: string }) =>
    api("channels.list", (c, signal) =>
      c.channels.list(
        {
          part: ["snippet", "statistics", "contentDetails"],
          ...(filter.id === undefined ? {} : { id: [...filter.id], maxResults: PAGE_MAX }),
          ...(filter.forHandle === undefined ? {} : { forHandle: filter.forHandle }),
          ...(filter.forUsername === undefined ? {} : { forUsername: filter.forUsername })
        },
        { signal }
      )
    ).pipe(Effect.map((data) => data.items ?? []))

  // videos.list: 1 unit per call of up to 50 ids.
  const videos = (ids: ReadonlyArray<string>) =>
    ids.length === 0
      ? Effect.succeed<ReadonlyArray<youtube_v3.Schema$Video>>([])
      : api("videos.list", (c, signal) =>
          c.videos.list({ part: ["snippet", "statistics"], id: [...ids], maxResults: PAGE_MAX }, { signal })
        ).pipe(Effect.map((data) => data.items ?? []))

  // search.list: 100 units.
  const searchIds = (type: "channel" | "video", query: string, limit: number) =>
    api("search.list", (c, signal) =>
      c.search.list({ part: ["snippet"], type: [type], q: query, maxResults: Math.min(PAGE_MAX, limit) }, { signal })
    ).pipe(
      Effect.map((data) =>
        (data.items ?? []).flatMap((item) => {
          const id = type === "channel" ? item.id?.channelId : item.id?.videoId
          return typeof id === "string" && id !== "" ? [id] : []
        })
      )
    )

  /** The handles of the channels, by channel id (one channels.list, 1 unit). */
  const handlesOf = (channelIds: ReadonlyArray<string>) =>
    channelIds.length === 0
      ? Effect.succeed(new Map<string, string>())
      : Effect.map(channels({ id: [...new Set(channelIds)].slice(0, PAGE_MAX) }), (found) => {
          const handles = new Map<string, string>()
          for (const channel of found) if (channel.id) handles.set(channel.id, handleOf(channel))
          return handles
        })

  const postsWithHandles = (found: ReadonlyArray<youtube_v3.Schema$Video>) =>
    Effect.map(handlesOf(found.flatMap((v) => (v.snippet?.channelId ? [v.snippet.channelId] : []))), (handles) =>
      found.map((video) => postOf(video, handles.get(video.snippet?.channelId ?? "") ?? ""))
    )

  const resolve = (ref: CreatorRef): Effect.Effect<Option.Option<Creator>, SourceFailure> => {
    const named = channelRefOf(ref.text)
    if (named === undefined) return Effect.succeedNone
    const lookup =
      named.kind === "id"
        ? channels({ id: [named.value] })
        : named.kind === "handle"
          ? channels({ forHandle: named.value })
          : named.kind === "username"
            ? channels({ forUsername: named.value })
            : // A legacy /c/name address has no lookup of its own: search (100 units), keep the channel whose
              // custom URL is that name.
              Effect.flatMap(searchIds("channel", named.value, 5), (ids) =>
                Effect.map(channels({ id: ids }), (found) =>
                  found.filter((c) => customNameOf(c) === named.value.toLowerCase())
                )
              )
    return Effect.map(lookup, (found) => Option.map(Option.fromNullable(found[0]), creatorOf))
  }

  const search = (query: string, limit: number) =>
    Effect.flatMap(searchIds("channel", query, limit), (ids) =>
      Effect.map(channels({ id: ids }), (found) => {
        // channels.list answers in its own order; keep search's ranking.
        const byId = new Map(found.map((c) => [c.id, c]))
        return ids.flatMap((id) => {
          const channel = byId.get(id)
          return channel === undefined ? [] : [creatorOf(channel)]
        })
      })
    )

  const ofCreator = (creator: CreatorKey, limit: number): Effect.Effect<ReadonlyArray<SocialPost>, SourceFailure> =>
    Effect.gen(function* () {
      const [channel] = yield* channels({ id: [creator.id] })
      const uploads = channel?.contentDetails?.relatedPlaylists?.uploads
      if (channel === undefined || !uploads) return []
      const ids: Array<string> = []
      let pageToken: string | undefined
      do {
        const token = pageToken
        // playlistItems.list: 1 unit a page of up to 50.
        const page = yield* api("playlistItems.list", (c, signal) =>
          c.playlistItems.list(
            {
              part: ["contentDetails"],
              playlistId: uploads,
              maxResults: Math.min(PAGE_MAX, limit - ids.length),
              ...(token === undefined ? {} : { pageToken: token })
            },
            { signal }
          )
        ).pipe(
          // An uploads playlist that is not there (a channel without videos) is an empty list.
          Effect.catchIf(
            (failure) => failure.message.includes("playlistNotFound"),
            () => Effect.succeed<youtube_v3.Schema$PlaylistItemListResponse>({ items: [] })
          )
        )
        for (const item of page.items ?? []) {
          const id = item.contentDetails?.videoId
          if (id) ids.push(id)
        }
        pageToken = page.nextPageToken ?? undefined
      } while (pageToken !== undefined && ids.length < limit)
      const found: Array<youtube_v3.Schema$Video> = []
      for (let start = 0; start < ids.length; start += PAGE_MAX)
        found.push(...(yield* videos(ids.slice(start, start + PAGE_MAX))))
      const handle = handleOf(channel)
      return newestFirst(found.map((video) => postOf(video, handle))).slice(0, limit)
    })

  const read = (ref: PostRef) => {
    const id = videoIdOf(ref.text)
    if (id === undefined) return Effect.succeedNone
    return Effect.flatMap(videos([id]), (found) =>
      found.length === 0
        ? Effect.succeedNone
        : Effect.map(postsWithHandles(found), (posts) => Option.fromNullable(posts[0]))
    )
  }

  const searchPosts = (query: string, limit: number) =>
    Effect.flatMap(searchIds("video", query, limit), (ids) =>
      Effect.flatMap(videos(ids), (found) => {
        const rank = new Map(ids.map((id, index) => [id, index]))
        const ordered = [...found].sort((a, b) => (rank.get(a.id ?? "") ?? 0) - (rank.get(b.id ?? "") ?? 0))
        return postsWithHandles(ordered)
      })
    )

  const capped = (limit: number) => Math.max(1, Math.min(100, Math.trunc(limit)))
  return {
    name: SOURCE,
    platforms: ["youtube"],
    missingSetting: null,
    creators: {
      resolve: (ref) => bounded(resolve(ref)),
      search: (query, limit) => bounded(search(query, Math.min(PAGE_MAX, capped(limit))))
    },
    posts: {
      ofCreator: (creator, limit) => bounded(ofCreator(creator, capped(limit))),
      read: (ref) => bounded(read(ref))
    },
    search: { posts: (query, limit) => bounded(searchPosts(query, Math.min(PAGE_MAX, capped(limit)))) }
  }
}

/** How a text names a channel. */
type ChannelRef =
  | { readonly kind: "id"; readonly value: string }
  | { readonly kind: "handle"; readonly value: string }
  | { readonly kind: "username"; readonly value: string }
  | { readonly kind: "custom"; readonly value: string }

const CHANNEL_ID = /^UC[\w-]{22}$/
const HANDLE = /^@([\w.-]{3,30})$/

/**
 * The channel a text names: a channel id (`UC…`), an `@handle`, or a channel address (`youtube.com/@handle`,
 * `/channel/UC…`, `/c/name`, `/user/name`). Anything else (a plain name) is left to search.
 */
export const channelRefOf = (text: string): ChannelRef | undefined => {
  const trimmed = text.trim()
  if (CHANNEL_ID.test(trimmed)) return { kind: "id", value: trimmed }
  const handle = HANDLE.exec(trimmed)
  if (handle?.[1] !== undefined) return { kind: "handle", value: handle[1] }
  const url = youtubeUrlOf(trimmed)
  if (url === undefined) return undefined
  const [first, second] = url.pathname
    .split("/")
    .filter((part) => part !== "")
    .map(decodeURIComponent)
  if (first === undefined) return undefined
  const pathHandle = HANDLE.exec(first)
  if (pathHandle?.[1] !== undefined) return { kind: "handle", value: pathHandle[1] }
  if (first === "channel" && second !== undefined && CHANNEL_ID.test(second)) return { kind: "id", value: second }
  if (first === "user" && second !== undefined) return { kind: "username", value: second }
  if (first === "c" && second !== undefined) return { kind: "custom", value: second }
  return undefined
}

const VIDEO_ID = /^[\w-]{11}$/

/** The video a text names: a watch, shorts, live, embed or youtu.be address, or a bare 11-character video id. */
export const videoIdOf = (text: string): string | undefined => {
  const trimmed = text.trim()
  if (VIDEO_ID.test(trimmed)) return trimmed
  const url = youtubeUrlOf(trimmed)
  if (url === undefined) return undefined
  const parts = url.pathname.split("/").filter((part) => part !== "")
  const id =
    url.hostname === "youtu.be"
      ? parts[0]
      : parts[0] === "watch"
        ? (url.searchParams.get("v") ?? undefined)
        : ["shorts", "live", "embed", "v"].includes(parts[0] ?? "")
          ? parts[1]
          : undefined
  return id !== undefined && VIDEO_ID.test(id) ? id : undefined
}

const youtubeUrlOf = (text: string): URL | undefined => {
  let url: URL
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`)
  } catch {
    return undefined
  }
  const host = url.hostname.toLowerCase().replace(/^(www|m|music)\./, "")
  return host === "youtube.com" || host === "youtu.be" ? Object.assign(url, { hostname: host }) : undefined
}

const countOf = (text: string | null | undefined): number | null => {
  if (text === null || text === undefined || !/^\d+$/.test(text)) return null
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : null
}

/** A channel's handle without `@` (its `customUrl`), or its id when it has none. */
const handleOf = (channel: youtube_v3.Schema$Channel) => {
  const custom = channel.snippet?.customUrl
  return custom ? custom.replace(/^@/, "") : (channel.id ?? "")
}

const customNameOf = (channel: youtube_v3.Schema$Channel) =>
  (channel.snippet?.customUrl ?? "").replace(/^@/, "").toLowerCase()

const creatorOf = (channel: youtube_v3.Schema$Channel): Creator => {
  const id = channel.id ?? ""
  const custom = channel.snippet?.customUrl
  const thumbnails = channel.snippet?.thumbnails
  return new Creator({
    platform: "youtube",
    id,
    handle: handleOf(channel),
    name: channel.snippet?.title || handleOf(channel),
    bio: channel.snippet?.description || null,
    url: custom?.startsWith("@") ? `https://www.youtube.com/${custom}` : `https://www.youtube.com/channel/${id}`,
    avatarUrl: thumbnails?.high?.url ?? thumbnails?.medium?.url ?? thumbnails?.default?.url ?? null,
    followers: channel.statistics?.hiddenSubscriberCount === true ? null : countOf(channel.statistics?.subscriberCount),
    following: null,
    posts: countOf(channel.statistics?.videoCount),
    source: SOURCE
  })
}

const postOf = (video: youtube_v3.Schema$Video, handle: string): SocialPost => {
  const id = video.id ?? ""
  const published = video.snippet?.publishedAt ? new Date(video.snippet.publishedAt) : null
  return new SocialPost({
    platform: "youtube",
    id,
    url: `https://www.youtube.com/watch?v=${id}`,
    author: { handle, name: video.snippet?.channelTitle ?? "" },
    title: video.snippet?.title ?? null,
    text: video.snippet?.description ?? "",
    format: "video",
    mediaCount: 1,
    createdAt: published !== null && Number.isFinite(published.getTime()) ? published : null,
    metrics: {
      likes: countOf(video.statistics?.likeCount),
      replies: countOf(video.statistics?.commentCount),
      reposts: null,
      quotes: null,
      views: countOf(video.statistics?.viewCount)
    },
    source: SOURCE
  })
}

const newestFirst = (posts: ReadonlyArray<SocialPost>) =>
  [...posts].sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0))

/** An error answer as the client throws it (a `GaxiosError`): recognised by shape, the client being loaded late. */
interface ApiError {
  readonly status?: number
  readonly response?: { readonly status?: number; readonly data?: unknown; readonly headers?: unknown }
}

const isApiError = (cause: unknown): cause is Error & ApiError =>
  cause instanceof Error && ("status" in cause || "response" in cause)

/**
 * The reasons a Data API error answer gives: each `error.errors[].reason` (`quotaExceeded`, `keyInvalid`) and each
 * `error.details[].reason` of Google's newer `ErrorInfo` (`API_KEY_INVALID`, `SERVICE_DISABLED`).
 */
const reasonsOf = (data: unknown): ReadonlyArray<string> => {
  if (typeof data !== "object" || data === null || !("error" in data)) return []
  const error = data.error
  if (typeof error !== "object" || error === null) return []
  const listed = (key: string): ReadonlyArray<string> => {
    const list: unknown = key in error ? (error as Record<string, unknown>)[key] : undefined
    if (!Array.isArray(list)) return []
    return list.flatMap((entry: unknown) =>
      typeof entry === "object" && entry !== null && "reason" in entry && typeof entry.reason === "string"
        ? [entry.reason]
        : []
    )
  }
  return [...listed("errors"), ...listed("details")]
}

const headerOf = (headers: unknown, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  if (typeof headers === "object" && headers !== null && name in headers) {
    const value: unknown = (headers as Record<string, unknown>)[name]
    return typeof value === "string" ? value : undefined
  }
  return undefined
}

/** Reasons that mean the day's quota is spent: it comes back at midnight, Pacific time. */
const DAILY_QUOTA = new Set(["quotaExceeded", "dailyLimitExceeded"])
/** Reasons that mean too many requests for now (per-minute limits). */
const SHORT_LIMITS = new Set(["rateLimitExceeded", "userRateLimitExceeded"])
/** Reasons that mean the key cannot be used: the operator must fix the setting. */
const KEY_REFUSED = new Set([
  "keyInvalid",
  "keyExpired",
  "forbidden",
  "accessNotConfigured",
  "ipRefererBlocked",
  "unregisteredCallers",
  "API_KEY_INVALID",
  "API_KEY_EXPIRED",
  "API_KEY_SERVICE_BLOCKED",
  "API_KEY_HTTP_REFERRER_BLOCKED",
  "API_KEY_IP_ADDRESS_BLOCKED",
  "SERVICE_DISABLED"
])

/** The wait after a per-minute limit when the answer names none. */
const SHORT_WAIT_MS = 60_000

/**
 * How a failed request maps: a spent daily quota is `rate-limited` until the next Pacific midnight; a per-minute
 * limit or 429 is `rate-limited` for `Retry-After` (else a minute); an invalid, expired or restricted key is
 * `refused`; everything else (5xx, no answer) is `unavailable`. A 404 reaches the callers, which answer none.
 */
export const failureOf = (doing: string, cause: unknown, nowMs: number): SourceFailure => {
  if (!isApiError(cause) || (cause.status ?? cause.response?.status) === undefined) {
    return unavailable(`YouTube (${doing}): ${describe(cause)}`)
  }
  const status = cause.status ?? cause.response?.status ?? 0
  const reasons = reasonsOf(cause.response?.data)
  const message = `YouTube (${doing}) answered ${status}${reasons.length === 0 ? "" : ` ${reasons.join(", ")}`}`
  const any = (set: ReadonlySet<string>) => reasons.some((reason) => set.has(reason))
  if (any(DAILY_QUOTA)) return rateLimited(message, msUntilPacificMidnight(nowMs))
  if (status === 429 || any(SHORT_LIMITS)) {
    const retry = headerOf(cause.response?.headers, "retry-after")
    return rateLimited(message, retry !== undefined && /^\d+$/.test(retry) ? Number(retry) * 1000 : SHORT_WAIT_MS)
  }
  if (status === 401 || status === 403 || any(KEY_REFUSED)) return refused(message)
  return unavailable(message)
}

const pacificClock = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Los_Angeles",
  hourCycle: "h23",
  hour: "numeric",
  minute: "numeric",
  second: "numeric"
})

/**
 * The time until the next midnight in America/Los_Angeles, when the Data API's daily quota resets. On the two days a
 * year the clocks change, the answer is an hour off.
 */
export const msUntilPacificMidnight = (nowMs: number): number => {
  const parts = Object.fromEntries(pacificClock.formatToParts(new Date(nowMs)).map((part) => [part.type, part.value]))
  const elapsed = (Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second)) * 1000 + (nowMs % 1000)
  return 24 * 3600 * 1000 - elapsed
}
