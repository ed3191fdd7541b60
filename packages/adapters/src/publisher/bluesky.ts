/**
 * The Bluesky publisher, through `@atproto/api`: logs in with an app password, writes posts with their links, mentions
 * and hashtags as facets, images with alt text or one video, and threads of replies when the text is over 300
 * graphemes. Every post of a delivery is written at a record key derived from the delivery, so no try ever writes a
 * second copy (see bluesky-record-keys.ts).
 */
import type {
  AppBskyEmbedDefs,
  AppBskyEmbedImages,
  AppBskyEmbedVideo,
  AppBskyFeedPost,
  AtpAgent,
  BlobRef,
  ComAtprotoRepoStrongRef
} from "@atproto/api"
import type { TID } from "@atproto/common-web"
import {
  PLATFORM_RULES,
  type PlatformPublisher,
  type Published,
  PublishFailure,
  type PublishingAccount,
  type PublishingMedia,
  type PublishRequest,
  splitThread,
  type VerifiedAccount
} from "@svc/core/scheduling"
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { addressRefusalOf } from "../http-sender/checked-fetch.js"
import { CallTimedOut, isRecordMissing, isRecordPresent, toPublishFailure } from "./bluesky-failure.js"
import { recordKeyOf } from "./bluesky-record-keys.js"
import { loadOptional } from "../optional-package.js"

/** Settings of {@link makeBlueskyPublisher}; every one has a default. */
export interface BlueskyPublisherOptions {
  /** Longest wait for one call to the PDS, image uploads included (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput
  /** Longest wait for one video upload (default 120 s: 100 MB on a slow link). */
  readonly videoUploadTimeout?: Duration.DurationInput
  /**
   * The web app whose post addresses `publish` answers (default `https://bsky.app`): it shows the posts of every PDS
   * that federates into the Bluesky network, the PDS itself has no page for a post.
   */
  readonly webUrl?: string
  /**
   * The `fetch` every call to the PDS goes through (default the global one). The server gives the checked fetch
   * (`makeCheckedFetch`), so an address a person typed cannot reach inside our network.
   */
  readonly fetch?: typeof fetch
}

/** What a person gives when connecting an account: a handle (or DID, or email) and an app password. */
const BlueskyLogin = Schema.Struct({
  identifier: Schema.NonEmptyTrimmedString,
  appPassword: Schema.NonEmptyTrimmedString
})
type BlueskyLogin = typeof BlueskyLogin.Type

/** The parts of a profile record read when connecting (`app.bsky.actor.profile`, key `self`). */
const ProfileRecord = Schema.Struct({ displayName: Schema.optional(Schema.String) })

const POST = "app.bsky.feed.post"
const DEFAULT_SERVICE = "https://bsky.social"
const rules = PLATFORM_RULES.bluesky
const TEXT_MAX = rules?.textMax ?? 300
const MEDIA_MAX = rules?.mediaMax ?? 4

/**
 * `@atproto/api`, loaded when first used: importing it takes about 320 ms and 40 MB (its lexicons), which a server
 * that never publishes to Bluesky should not pay at start.
 */
const loadApi = () =>
  Promise.all([import("@atproto/api"), import("@atproto/common-web")]).then(([api, common]) => ({
    AtpAgent: api.AtpAgent,
    RichText: api.RichText,
    TID: common.TID
  }))
let loadingApi: ReturnType<typeof loadApi> | undefined
// Optional peers of @svc/adapters (@svc/server brings them): a team that never publishes to Bluesky installs neither.
const atprotoApi = loadOptional({
  packages: ["@atproto/api", "@atproto/common-web"],
  purpose: "publishing to Bluesky",
  load: () => {
    if (loadingApi === undefined) loadingApi = loadApi()
    return loadingApi
  }
}).pipe(Effect.mapError((missing) => new PublishFailure({ kind: "rejected", message: missing.message })))

/** A logged-in account: its agent, and who it is. */
interface Session {
  readonly agent: AtpAgent
  readonly did: string
  readonly handle: string
  /** `@atproto/common-web`'s TID, for the delivery's record keys. */
  readonly TID: typeof TID
}

type StrongRef = ComAtprotoRepoStrongRef.Main
type PostEmbed = AppBskyFeedPost.Record["embed"]

/** A publisher for platform `bluesky`. */
export const makeBlueskyPublisher = (options: BlueskyPublisherOptions = {}): PlatformPublisher => {
  const requestTimeout = Duration.decode(options.requestTimeout ?? "30 seconds")
  const videoUploadTimeout = Duration.decode(options.videoUploadTimeout ?? "120 seconds")
  const webUrl = (options.webUrl ?? "https://bsky.app").replace(/\/+$/, "")
  // Logged-in agents of this process, by server and login: a publish reuses one (the PDS limits logins to 30 in five
  // minutes and 300 a day per account) and logs in again from the stored app password when it has none or its session
  // no longer works. The agent refreshes its own tokens.
  const sessions = new Map<string, Session>()

  // Calls the agent makes without a signal of ours (logging in, refreshing a session, resolving a mention) are bounded
  // here; those that take one are bounded by `attempt`, whose interruption aborts the request.
  const baseFetch = options.fetch ?? globalThis.fetch
  const boundedFetch: typeof fetch = (input, init) =>
    baseFetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(Duration.toMillis(requestTimeout)) })

  /** One call, bounded by `timeout`; fails with what it threw (or {@link CallTimedOut}). */
  const attempt = <A>(
    run: (signal: AbortSignal) => PromiseLike<A>,
    timeout: Duration.Duration = requestTimeout
  ): Effect.Effect<A, unknown> =>
    Effect.tryPromise({ try: (signal) => Promise.resolve(run(signal)), catch: (cause) => cause }).pipe(
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () => new CallTimedOut({ afterMs: Duration.toMillis(timeout) })
      })
    )

  const failed = (doing: string) => (cause: unknown) => {
    // A server address the address rule refuses is not worth another try.
    const refused = addressRefusalOf(cause)
    if (refused !== undefined)
      return Effect.fail(new PublishFailure({ kind: "rejected", message: `${doing}: ${refused.message}` }))
    return Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.fail(toPublishFailure(doing, cause, now)))
  }

  /** One call whose every failure is a {@link PublishFailure}. */
  const call = <A>(
    doing: string,
    run: (signal: AbortSignal) => PromiseLike<A>,
    timeout: Duration.Duration = requestTimeout
  ): Effect.Effect<A, PublishFailure> => attempt(run, timeout).pipe(Effect.catchAll(failed(doing)))

  const serviceOrigin = (serviceUrl: string): Effect.Effect<string, PublishFailure> =>
    Effect.try({
      try: () => {
        const url = new URL(serviceUrl.trim() === "" ? DEFAULT_SERVICE : serviceUrl.trim())
        if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(url.protocol)
        return url.origin
      },
      catch: () =>
        new PublishFailure({ kind: "credentials", message: `"${serviceUrl}" is not the address of a Bluesky server` })
    })

  const loginOf = (credentials: Readonly<Record<string, unknown>>): Effect.Effect<BlueskyLogin, PublishFailure> =>
    Schema.decodeUnknown(BlueskyLogin)(credentials).pipe(
      Effect.mapError(
        () =>
          new PublishFailure({
            kind: "credentials",
            message: "Bluesky needs the account's handle and an app password (Settings → Privacy and security)"
          })
      )
    )

  const logIn = (origin: string, login: BlueskyLogin): Effect.Effect<Session, PublishFailure> =>
    Effect.gen(function* () {
      const { AtpAgent } = yield* atprotoApi
      const agent = new AtpAgent({ service: origin, fetch: boundedFetch })
      const { data } = yield* call("Logging in to Bluesky", () =>
        agent.login({ identifier: login.identifier, password: login.appPassword })
      )
      return { agent, did: data.did, handle: data.handle, TID: (yield* atprotoApi).TID }
    })

  const sessionKey = (origin: string, login: BlueskyLogin) => `${origin}\n${login.identifier}\n${login.appPassword}`

  /**
   * Runs `use` with a session of the account: this process's own when it has one, else a new login. When a kept
   * session fails on credentials (revoked, expired past refreshing), it logs in once more and runs `use` again, which
   * is safe because every write of `use` is keyed (a second run finds what the first wrote).
   */
  const withSession = <A>(
    serviceUrl: string,
    credentials: Readonly<Record<string, unknown>>,
    use: (session: Session) => Effect.Effect<A, PublishFailure>
  ): Effect.Effect<A, PublishFailure> =>
    Effect.gen(function* () {
      const origin = yield* serviceOrigin(serviceUrl)
      const login = yield* loginOf(credentials)
      const key = sessionKey(origin, login)
      const fresh = Effect.tap(logIn(origin, login), (session) => Effect.sync(() => sessions.set(key, session)))
      const kept = sessions.get(key)
      if (kept === undefined) return yield* Effect.flatMap(fresh, use)
      return yield* use(kept).pipe(
        Effect.catchIf(
          (failure) => failure.kind === "credentials",
          () =>
            Effect.zipRight(
              Effect.sync(() => sessions.delete(key)),
              Effect.flatMap(fresh, use)
            )
        )
      )
    })

  /** The record at `rkey` in the account's posts, if there is one. */
  const readPost = (session: Session, rkey: string): Effect.Effect<Option.Option<StrongRef>, PublishFailure> =>
    attempt((signal) =>
      session.agent.com.atproto.repo.getRecord({ repo: session.did, collection: POST, rkey }, { signal })
    ).pipe(
      Effect.map(({ data }) => Option.some({ uri: data.uri, cid: data.cid })),
      Effect.catchIf(isRecordMissing, () => Effect.succeed(Option.none<{ uri: string; cid: string | undefined }>())),
      Effect.catchAll(failed("Reading a post")),
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.succeed(Option.none<StrongRef>()),
          onSome: ({ uri, cid }): Effect.Effect<Option.Option<StrongRef>, PublishFailure> =>
            cid === undefined
              ? failed("Reading a post")(new Error(`the server answered ${uri} without its CID`))
              : Effect.succeed(Option.some({ uri, cid }))
        })
      )
    )

  /**
   * Writes a post at `rkey` unless one is there: `putRecord` with `swapRecord: null` is refused (`InvalidSwap`) when
   * the key holds a record, and the PDS checks that inside the repository's write lock, so two tries racing each other
   * still leave one post. A refused write answers the record that is there.
   */
  const writePost = (
    session: Session,
    rkey: string,
    record: AppBskyFeedPost.Record
  ): Effect.Effect<StrongRef, PublishFailure> =>
    attempt((signal) =>
      session.agent.com.atproto.repo.putRecord(
        { repo: session.did, collection: POST, rkey, record, swapRecord: null },
        { signal }
      )
    ).pipe(
      Effect.map(({ data }): Option.Option<StrongRef> => Option.some({ uri: data.uri, cid: data.cid })),
      Effect.catchIf(isRecordPresent, () => Effect.succeed(Option.none<StrongRef>())),
      Effect.catchAll(failed("Posting")),
      Effect.flatMap(
        Option.match({
          onSome: Effect.succeed,
          onNone: () =>
            Effect.flatMap(readPost(session, rkey), (found) =>
              Option.match(found, {
                onSome: Effect.succeed,
                onNone: () =>
                  Effect.fail(
                    new PublishFailure({
                      kind: "temporary",
                      message: `Posting: the post at ${rkey} changed while written`
                    })
                  )
              })
            )
        })
      )
    )

  const upload = (session: Session, file: PublishingMedia): Effect.Effect<BlobRef, PublishFailure> =>
    Effect.gen(function* () {
      const bytes = yield* file.read
      const timeout = file.kind === "video" ? videoUploadTimeout : requestTimeout
      const { data } = yield* call(
        `Uploading ${file.kind} ${file.id}`,
        (signal) => session.agent.uploadBlob(bytes, { encoding: file.mimeType, signal }),
        timeout
      )
      return data.blob
    })

  const aspectRatioOf = (file: PublishingMedia): { aspectRatio?: AppBskyEmbedDefs.AspectRatio } =>
    file.width !== null && file.height !== null && file.width >= 1 && file.height >= 1
      ? { aspectRatio: { width: Math.round(file.width), height: Math.round(file.height) } }
      : {}

  /** The first post's media: up to four images (and GIFs) with their alt text, or one video alone. */
  const embedOf = (session: Session, media: ReadonlyArray<PublishingMedia>): Effect.Effect<PostEmbed, PublishFailure> =>
    Effect.gen(function* () {
      if (media.length === 0) return undefined
      const refuse = (message: string) => Effect.fail(new PublishFailure({ kind: "rejected", message }))
      const videos = media.filter((file) => file.kind === "video")
      if (videos.length > 0) {
        if (media.length > 1) return yield* refuse("Bluesky takes a video alone, with no other media on the post")
        const video = videos[0]!
        const embed: AppBskyEmbedVideo.Main = {
          $type: "app.bsky.embed.video",
          video: yield* upload(session, video),
          ...(video.altText ? { alt: video.altText } : {}),
          ...aspectRatioOf(video)
        }
        return embed
      }
      const other = media.find((file) => file.kind !== "image" && file.kind !== "gif")
      if (other !== undefined) return yield* refuse(`Bluesky takes no ${other.kind} files`)
      if (media.length > MEDIA_MAX) return yield* refuse(`Bluesky takes at most ${MEDIA_MAX} images on a post`)
      const images: Array<AppBskyEmbedImages.Image> = []
      for (const file of media) {
        images.push({ image: yield* upload(session, file), alt: file.altText ?? "", ...aspectRatioOf(file) })
      }
      const embed: AppBskyEmbedImages.Main = { $type: "app.bsky.embed.images", images }
      return embed
    })

  /** A post's record: its text with facets found (mentions resolved to DIDs), its media, its place in the thread. */
  const postOf = (
    session: Session,
    text: string,
    media: ReadonlyArray<PublishingMedia>,
    reply: AppBskyFeedPost.ReplyRef | undefined
  ): Effect.Effect<AppBskyFeedPost.Record, PublishFailure> =>
    Effect.gen(function* () {
      const { RichText } = yield* atprotoApi
      const rich = new RichText({ text })
      // A mention whose handle does not resolve stays plain text, as in Bluesky's own app.
      yield* call("Finding links, mentions and hashtags", () => rich.detectFacets(session.agent))
      const embed = yield* embedOf(session, media)
      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      return {
        $type: POST,
        text: rich.text,
        ...(rich.facets !== undefined && rich.facets.length > 0 ? { facets: rich.facets } : {}),
        ...(reply === undefined ? {} : { reply }),
        ...(embed === undefined ? {} : { embed }),
        createdAt
      }
    })

  const publishedAt = (session: Session, rkey: string): Published => {
    // A handle that no longer resolves is shown as `handle.invalid`; the DID addresses the same profile for good.
    const profile = session.handle === "handle.invalid" ? session.did : session.handle
    return { remoteId: `at://${session.did}/${POST}/${rkey}`, url: `${webUrl}/profile/${profile}/post/${rkey}` }
  }

  const partsOf = (request: PublishRequest) => splitThread(request.text, TEXT_MAX, request.numberThread)

  const publish = (request: PublishRequest): Effect.Effect<Published, PublishFailure> =>
    withAccount(request.account, (session) =>
      Effect.gen(function* () {
        const parts = partsOf(request)
        let thread: { root: StrongRef; parent: StrongRef } | undefined
        // Parts are written in order, so once one is missing the later ones are too (no need to look them up).
        let mayExist = true
        for (const [index, text] of parts.entries()) {
          const rkey = recordKeyOf(session.TID, request.deliveryId, request.createdAt, index)
          const found: Option.Option<StrongRef> = mayExist ? yield* readPost(session, rkey) : Option.none()
          const ref: StrongRef = Option.isSome(found)
            ? found.value
            : yield* Effect.flatMap(postOf(session, text, index === 0 ? request.media : [], thread), (record) =>
                writePost(session, rkey, record)
              )
          mayExist &&= Option.isSome(found)
          thread = { root: thread?.root ?? ref, parent: ref }
        }
        return publishedAt(session, recordKeyOf(session.TID, request.deliveryId, request.createdAt, 0))
      })
    )

  /**
   * The delivery's post when an earlier try wrote all of it. A thread counts once its last part is there (parts are
   * written in order); a thread cut short answers none, so the delivery's next `publish` completes it.
   */
  const findPublished = (request: PublishRequest): Effect.Effect<Option.Option<Published>, PublishFailure> =>
    withAccount(request.account, (session) =>
      Effect.map(
        readPost(session, recordKeyOf(session.TID, request.deliveryId, request.createdAt, partsOf(request).length - 1)),
        Option.map(() => publishedAt(session, recordKeyOf(session.TID, request.deliveryId, request.createdAt, 0)))
      )
    )

  const withAccount = <A>(account: PublishingAccount, use: (session: Session) => Effect.Effect<A, PublishFailure>) =>
    withSession(account.serviceUrl, account.credentials, use)

  const verify = (
    serviceUrl: string,
    credentials: Readonly<Record<string, unknown>>
  ): Effect.Effect<VerifiedAccount, PublishFailure> =>
    Effect.gen(function* () {
      const origin = yield* serviceOrigin(serviceUrl)
      const login = yield* loginOf(credentials)
      const session = yield* logIn(origin, login)
      sessions.set(sessionKey(origin, { identifier: session.did, appPassword: login.appPassword }), session)
      const displayName = yield* attempt((signal) =>
        session.agent.com.atproto.repo.getRecord(
          { repo: session.did, collection: "app.bsky.actor.profile", rkey: "self" },
          { signal }
        )
      ).pipe(
        Effect.flatMap(({ data }) => Schema.decodeUnknown(ProfileRecord)(data.value)),
        Effect.map(({ displayName }) => (displayName?.trim() ? displayName.trim() : null)),
        // A new account has no profile record yet; it still opens.
        Effect.catchIf(isRecordMissing, () => Effect.succeed(null)),
        Effect.catchAll(failed("Reading the profile"))
      )
      return {
        handle: session.handle,
        displayName,
        serviceUrl: origin,
        // The DID, not the handle, logs in later: a handle can change, the account's DID never does.
        credentials: { identifier: session.did, appPassword: login.appPassword }
      }
    })

  return {
    platform: "bluesky",
    verify: (serviceUrl, credentials) => verify(serviceUrl, credentials).pipe(Effect.withSpan("bluesky.verify")),
    publish: (request) =>
      publish(request).pipe(Effect.withSpan("bluesky.publish", { attributes: { deliveryId: request.deliveryId } })),
    findPublished: (request) =>
      findPublished(request).pipe(
        Effect.withSpan("bluesky.findPublished", { attributes: { deliveryId: request.deliveryId } })
      )
  }
}
