/**
 * The Mastodon publisher, through masto.js: checks an access token, uploads media with their alt text, posts a
 * status (a thread of replies when the text is over the limit) with the request's visibility and content warning,
 * and never posts one delivery twice.
 */
import {
  PLATFORM_RULES,
  type PlatformPublisher,
  type Published,
  PublishFailure,
  type PublishingMedia,
  type PublishRequest,
  splitThread,
  type VerifiedAccount
} from "@svc/core/scheduling"
import { Duration, Effect, Option, Schema } from "effect"
import type { mastodon } from "masto"
import type { Dispatcher } from "undici"
import { makeMastodonCalls } from "./mastodon-client.js"

/** Settings of {@link makeMastodonPublisher}; every one has a default. */
export interface MastodonPublisherOptions {
  /** Longest wait for one API call (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput
  /** Longest wait for one media upload, the file's bytes included (default 5 minutes: 99 MB on a slow link). */
  readonly uploadTimeout?: Duration.DurationInput
  /** Pause between two looks at a media file the instance is still processing (default 2 s). */
  readonly processingInterval?: Duration.DurationInput
  /** Longest wait for the instance to process one media file before the publish fails as temporary (default 5 min). */
  readonly processingTimeout?: Duration.DurationInput
  /** Pages of the account's latest statuses (40 a page) `findPublished` reads (default 2). */
  readonly findPages?: number
  /**
   * Accepts `http://` instance addresses (a local instance, tests). Off by default: the access token is a bearer
   * token, and Mastodon instances are served over https.
   */
  readonly allowPlainHttp?: boolean
  /**
   * The undici dispatcher every call to the instance goes through (default the global one). masto 7 calls the global
   * `fetch` and takes no fetch of its own, but hands its `requestInit` on; the server gives the checked fetch's
   * dispatcher (`makeCheckedFetch`), so an address a person typed cannot reach inside our network.
   */
  readonly dispatcher?: Dispatcher
}

// masto answers in camelCase (it converts the API's snake_case keys); only the fields read here are decoded.
const Account = Schema.Struct({ id: Schema.String, username: Schema.String, displayName: Schema.String })
const Instance = Schema.Struct({ domain: Schema.String })
const Media = Schema.Struct({ id: Schema.String, url: Schema.NullOr(Schema.String) })
const Status = Schema.Struct({
  id: Schema.String,
  uri: Schema.String,
  url: Schema.optional(Schema.NullOr(Schema.String)),
  createdAt: Schema.String,
  inReplyToId: Schema.NullOr(Schema.String),
  spoilerText: Schema.String,
  visibility: Schema.String,
  reblog: Schema.optional(Schema.NullOr(Schema.Unknown)),
  mediaAttachments: Schema.Array(Schema.Struct({ id: Schema.String }))
})
type Status = typeof Status.Type
const StatusSource = Schema.Struct({ id: Schema.String, text: Schema.String, spoilerText: Schema.String })

const rules = PLATFORM_RULES.mastodon
const TEXT_MAX = rules?.textMax ?? 500
const MEDIA_MAX = rules?.mediaMax ?? 4
/** How far the instance's clock may run behind ours when `findPublished` compares creation times. */
const CLOCK_SKEW_MS = 5 * 60_000
/** Candidates whose source text `findPublished` reads at most: each is one more call. */
const SOURCES_MAX = 5

/** A publisher for platform `mastodon`. */
export const makeMastodonPublisher = (options: MastodonPublisherOptions = {}): PlatformPublisher => {
  const requestTimeout = Duration.decode(options.requestTimeout ?? "30 seconds")
  const uploadTimeout = Duration.decode(options.uploadTimeout ?? "5 minutes")
  const processingInterval = Duration.decode(options.processingInterval ?? "2 seconds")
  const processingTimeout = Duration.decode(options.processingTimeout ?? "5 minutes")
  const findPages = Math.max(1, options.findPages ?? 2)

  const { call, opened } = makeMastodonCalls({
    failure: (fields) => new PublishFailure(fields),
    requestTimeout,
    // masto's own timeout caps the calls our bound cannot abort (pages), uploads included.
    clientTimeout: uploadTimeout,
    allowPlainHttp: options.allowPlainHttp === true,
    dispatcher: options.dispatcher
  })

  const verifyCredentials = (client: mastodon.rest.Client) =>
    call("Checking the access token", Account, (signal) =>
      client.v1.accounts.verifyCredentials(undefined, { requestInit: { signal } })
    )

  const verify = (
    serviceUrl: string,
    credentials: Readonly<Record<string, unknown>>
  ): Effect.Effect<VerifiedAccount, PublishFailure> =>
    Effect.gen(function* () {
      const { origin, client, accessToken } = yield* opened(serviceUrl, credentials)
      const account = yield* verifyCredentials(client)
      // The handle's domain is the instance's own (LOCAL_DOMAIN), which may differ from the address its API is served
      // at (WEB_DOMAIN); an instance older than 4.0 has no v2 instance endpoint, and then the address is the best guess.
      const domain = yield* call("Reading the instance", Instance, (signal) =>
        client.v2.instance.fetch(undefined, { requestInit: { signal } })
      ).pipe(
        Effect.map((instance) => instance.domain),
        Effect.catchIf(
          (failure) => failure.kind === "rejected",
          () => Effect.succeed(new URL(origin).host)
        )
      )
      return {
        handle: `@${account.username}@${domain}`,
        displayName: account.displayName.length > 0 ? account.displayName : null,
        serviceUrl: origin,
        credentials: { accessToken, accountId: account.id }
      }
    })

  /** Uploads one file through the v2 endpoint, then waits while the instance still processes it (202, `url: null`). */
  const upload = (client: mastodon.rest.Client, media: PublishingMedia) =>
    Effect.gen(function* () {
      const bytes = yield* media.read
      const file = new File([ownBuffer(bytes)], fileName(media), { type: media.mimeType })
      const created = yield* call(
        `Uploading ${media.kind} ${media.id}`,
        Media,
        (signal) =>
          client.v2.media.create(
            {
              file,
              ...(media.altText === null ? {} : { description: media.altText }),
              // We wait ourselves: bounded, on Effect's clock, and not at all when the answer is already processed.
              skipPolling: true
            },
            { requestInit: { signal } }
          ),
        uploadTimeout
      )
      if (created.url !== null) return created.id
      const look = call(`Checking ${media.kind} ${media.id}`, Media, (signal) =>
        client.v1.media.$select(created.id).fetch(undefined, { requestInit: { signal } })
      )
      const processed = yield* look.pipe(
        Effect.delay(processingInterval),
        Effect.repeat({ until: (media) => media.url !== null }),
        Effect.timeoutFail({
          duration: processingTimeout,
          onTimeout: () =>
            new PublishFailure({
              kind: "temporary",
              message: `The instance was still processing ${media.kind} ${media.id} after ${Duration.format(processingTimeout)}`
            })
        })
      )
      return processed.id
    })

  const publish = (request: PublishRequest): Effect.Effect<Published, PublishFailure> =>
    Effect.gen(function* () {
      const { client } = yield* opened(request.account.serviceUrl, request.account.credentials)
      const parts = splitThread(request.text, TEXT_MAX, request.numberThread)
      if (request.media.length > MEDIA_MAX) {
        return yield* new PublishFailure({
          kind: "rejected",
          message: `Mastodon takes at most ${MEDIA_MAX} media a post`
        })
      }
      // Uploaded again on every try: an earlier try's files are not known here, and the instance drops unattached
      // media by itself. The idempotency key below is what keeps the status from being posted twice.
      const mediaIds = yield* Effect.forEach(request.media, (media) => upload(client, media))
      let first: Status | undefined
      let previous: string | undefined
      for (const [index, text] of parts.entries()) {
        const withMedia = index === 0 && mediaIds.length > 0
        const common = {
          ...(previous === undefined ? {} : { inReplyToId: previous }),
          ...(request.visibility === undefined ? {} : { visibility: request.visibility }),
          ...(request.contentWarning === undefined || request.contentWarning.length === 0
            ? {}
            : { spoilerText: request.contentWarning })
        }
        const status = yield* call(
          parts.length > 1 ? `Posting part ${index + 1} of ${parts.length}` : "Posting the status",
          Status,
          (signal) =>
            client.v1.statuses.create(withMedia ? { ...common, status: text, mediaIds } : { ...common, status: text }, {
              requestInit: { signal, headers: { "Idempotency-Key": idempotencyKey(request.deliveryId, index) } }
            })
        )
        first ??= status
        previous = status.id
      }
      if (first === undefined) {
        return yield* new PublishFailure({ kind: "rejected", message: "Nothing to post: the text is empty" })
      }
      return published(first)
    })

  /**
   * Finds the first status of this delivery among the account's latest ones, for a delivery taken over after a crash.
   *
   * The rule: a status of the account, not a boost and not a reply, created no earlier than the delivery (less
   * {@link CLOCK_SKEW_MS} for the instance's clock), with the delivery's content warning, visibility (when the request
   * sets one) and number of media, whose source text (`GET /api/v1/statuses/:id/source`, the plain text as posted, not
   * the rendered HTML, which rewrites mentions, links and line breaks) equals the first part of the delivery's text.
   * Only the newest `findPages` pages (40 statuses each) are read, and the source of at most {@link SOURCES_MAX}
   * candidates.
   *
   * Its limits: a status the person posted by hand with the same text, warning and media count after the delivery was
   * created is taken for it; a status edited since, deleted, or pushed beyond those pages is not found (the
   * idempotency key still covers a retry within the hour the instance keeps it); a thread cut short by the crash is
   * answered by its first status, since posting it again would be the worse mistake.
   */
  const findPublished = (request: PublishRequest): Effect.Effect<Option.Option<Published>, PublishFailure> =>
    Effect.gen(function* () {
      const { client, accountId } = yield* opened(request.account.serviceUrl, request.account.credentials)
      const id = accountId ?? (yield* verifyCredentials(client)).id
      const firstPart = splitThread(request.text, TEXT_MAX, request.numberThread)[0] ?? ""
      const since = request.createdAt.getTime() - CLOCK_SKEW_MS
      const pages = client.v1.accounts.$select(id).statuses.list({ limit: 40, excludeReblogs: true }).values()
      const candidates: Array<Status> = []
      for (let page = 0; page < findPages; page++) {
        const next = yield* call(
          "Reading the account's statuses",
          Schema.Union(
            Schema.Struct({ done: Schema.Literal(true) }),
            Schema.Struct({ done: Schema.Literal(false), value: Schema.Array(Status) })
          ),
          () => pages.next()
        )
        if (next.done) break
        candidates.push(...next.value.filter((status) => looksLike(status, request)))
        // Newest first: once a page reaches before the delivery, later pages are older still.
        if (next.value.length === 0 || next.value.some((status) => Date.parse(status.createdAt) < since)) break
      }
      for (const status of candidates.filter((status) => Date.parse(status.createdAt) >= since).slice(0, SOURCES_MAX)) {
        const source = yield* call("Reading a status's source", StatusSource, (signal) =>
          client.v1.statuses.$select(status.id).source.fetch(undefined, { requestInit: { signal } })
        )
        if (sameText(source.text, firstPart)) return Option.some(published(status))
      }
      return Option.none()
    })

  return { platform: "mastodon", verify, publish, findPublished }
}

/** The key the instance refuses a second status for (it keeps keys an hour, per account): one per thread part. */
export const idempotencyKey = (deliveryId: string, part: number): string => `svc:${deliveryId}:${part + 1}`

/** Whether a status could be this delivery's first, before its text is read. */
const looksLike = (status: Status, request: PublishRequest): boolean =>
  (status.reblog ?? null) === null &&
  status.inReplyToId === null &&
  status.spoilerText === (request.contentWarning ?? "") &&
  (request.visibility === undefined || status.visibility === request.visibility) &&
  status.mediaAttachments.length === request.media.length

const sameText = (a: string, b: string) => normalise(a) === normalise(b)
const normalise = (text: string) => text.replaceAll("\r\n", "\n").trim()

const published = (status: Status): Published => ({ remoteId: status.id, url: status.url ?? status.uri })

/** The instance's origin from what a person typed: `mastodon.social` and `https://mastodon.social/` alike. */
/** The bytes as a `Blob` takes them: a file read into shared memory is copied out, any other is used as it is. */
const ownBuffer = (bytes: Uint8Array): Uint8Array<ArrayBuffer> =>
  bytes.buffer instanceof ArrayBuffer
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : new Uint8Array(bytes)

const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/heic": "heic",
  "image/avif": "avif",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/webm": "webm",
  "video/x-m4v": "m4v"
}

/** A file name whose extension agrees with the type: the instance checks the two against each other. */
const fileName = (media: PublishingMedia) =>
  `${media.id.replace(/[^\w.-]/g, "_")}.${EXTENSIONS[media.mimeType] ?? media.mimeType.split("/")[1] ?? "bin"}`
