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
  BlobRef,
  ComAtprotoRepoStrongRef
} from "@atproto/api"
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
import { isRecordMissing, isRecordPresent } from "./bluesky-failure.js"
import { recordKeyOf } from "./bluesky-record-keys.js"
import {
  type AtprotoApiWithTid,
  type BlueskySession,
  loadAtprotoApiWithTid,
  makeBlueskyCalls
} from "./bluesky-session.js"

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

/** The parts of a profile record read when connecting (`app.bsky.actor.profile`, key `self`). */
const ProfileRecord = Schema.Struct({ displayName: Schema.optional(Schema.String) })

const POST = "app.bsky.feed.post"
const rules = PLATFORM_RULES.bluesky
const TEXT_MAX = rules?.textMax ?? 300
const MEDIA_MAX = rules?.mediaMax ?? 4

/** A logged-in account; its API's TID makes the delivery's record keys. */
type Session = BlueskySession<AtprotoApiWithTid>

type StrongRef = ComAtprotoRepoStrongRef.Main
type PostEmbed = AppBskyFeedPost.Record["embed"]

/** A publisher for platform `bluesky`. */
export const makeBlueskyPublisher = (options: BlueskyPublisherOptions = {}): PlatformPublisher => {
  const requestTimeout = Duration.decode(options.requestTimeout ?? "30 seconds")
  const videoUploadTimeout = Duration.decode(options.videoUploadTimeout ?? "120 seconds")
  const webUrl = (options.webUrl ?? "https://bsky.app").replace(/\/+$/, "")
  const bluesky = makeBlueskyCalls({
    // An optional peer of @svc/adapters (@svc/server brings it): a team that never publishes to Bluesky installs none.
    api: loadAtprotoApiWithTid("publishing to Bluesky"),
    failure: (fields) => new PublishFailure(fields),
    requestTimeout,
    fetch: options.fetch
  })
  const { attempt, call, failed, withSession } = bluesky

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
      const rich = new session.api.RichText({ text })
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
          const rkey = recordKeyOf(session.api.TID, request.deliveryId, request.createdAt, index)
          const found: Option.Option<StrongRef> = mayExist ? yield* readPost(session, rkey) : Option.none()
          const ref: StrongRef = Option.isSome(found)
            ? found.value
            : yield* Effect.flatMap(postOf(session, text, index === 0 ? request.media : [], thread), (record) =>
                writePost(session, rkey, record)
              )
          mayExist &&= Option.isSome(found)
          thread = { root: thread?.root ?? ref, parent: ref }
        }
        return publishedAt(session, recordKeyOf(session.api.TID, request.deliveryId, request.createdAt, 0))
      })
    )

  /**
   * The delivery's post when an earlier try wrote all of it. A thread counts once its last part is there (parts are
   * written in order); a thread cut short answers none, so the delivery's next `publish` completes it.
   */
  const findPublished = (request: PublishRequest): Effect.Effect<Option.Option<Published>, PublishFailure> =>
    withAccount(request.account, (session) =>
      Effect.map(
        readPost(
          session,
          recordKeyOf(session.api.TID, request.deliveryId, request.createdAt, partsOf(request).length - 1)
        ),
        Option.map(() => publishedAt(session, recordKeyOf(session.api.TID, request.deliveryId, request.createdAt, 0)))
      )
    )

  const withAccount = <A>(account: PublishingAccount, use: (session: Session) => Effect.Effect<A, PublishFailure>) =>
    withSession(account.serviceUrl, account.credentials, use)

  const verify = (
    serviceUrl: string,
    credentials: Readonly<Record<string, unknown>>
  ): Effect.Effect<VerifiedAccount, PublishFailure> =>
    Effect.gen(function* () {
      const origin = yield* bluesky.serviceOrigin(serviceUrl)
      const login = yield* bluesky.loginOf(credentials)
      const session = yield* bluesky.logIn(origin, login)
      bluesky.keepSession(origin, { identifier: session.did, appPassword: login.appPassword }, session)
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
