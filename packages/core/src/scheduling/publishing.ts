import { Effect, Option } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { makeAccountOpener } from "./accounts.js"
import { liveLinks } from "./live-links.js"
import { now } from "../shared/time.js"
import { type ClaimedDelivery, type DeliveryRecord, PostMediaFiles, PostsRepo, SocialAccountsRepo } from "./ports.js"
import { type Published, PublishFailure, Publishers, type PublishingAccount, type PublishRequest } from "./publisher.js"
import { DELIVERY_MAX_ATTEMPTS, type PostStatus, type PostView } from "./schema.js"
import { Scheduling } from "./service.js"

/** The wait before try `attempt + 1` after a temporary failure of try `attempt`: 30 s, 2, 10 and 30 minutes, 1 hour. */
export const publishRetryDelayMs = (attempt: number): number =>
  [30_000, 120_000, 600_000, 1_800_000, 3_600_000][Math.min(attempt, 5) - 1] ?? 3_600_000

/** The longest wait a network's `Retry-After` is honoured for; a longer one waits this long. */
const RETRY_AFTER_MAX_MS = 3_600_000

/** What became of one try of a delivery. */
type Outcome =
  | { readonly _tag: "posted"; readonly published: Published }
  | { readonly _tag: "lost" }
  | { readonly _tag: "failed"; readonly failure: PublishFailure }

/** The event data of a finished post (the spec's post event data), for `post.published` and `post.failed`. */
export const postEventData = (post: PostView, status: PostStatus) => {
  const order = (platform: string) => post.platforms.indexOf(platform as never)
  const deliveries = [...post.deliveries].sort((a, b) => order(a.platform) - order(b.platform))
  const links = liveLinks(post)
  const postedAt = deliveries.flatMap((d) => (d.postedAt === null ? [] : [d.postedAt.getTime()]))
  return {
    post_id: post.id,
    status,
    text: post.text,
    scheduled_for: post.scheduledFor?.toISOString() ?? null,
    posted_at: postedAt.length === 0 ? null : new Date(Math.min(...postedAt)).toISOString(),
    url: links[0] ?? null,
    links,
    error: post.error,
    platforms: deliveries.map((d) => ({
      platform: d.platform,
      status: d.status === "posted" ? "posted" : "failed",
      url: d.url,
      error: d.error
    }))
  }
}

/** The outcome of a post whose deliveries are all done. */
const outcomeOf = (post: PostView) => {
  const posted = post.deliveries.filter((d) => d.status === "posted")
  const failed = post.deliveries.filter((d) => d.status !== "posted")
  const status: PostStatus = failed.length === 0 ? "posted" : posted.length === 0 ? "failed" : "partial"
  const error = failed.length === 0 ? null : failed.map((d) => `${d.platform}: ${d.error ?? "failed"}`).join("; ")
  const times = posted.flatMap((d) => (d.postedAt === null ? [] : [d.postedAt.getTime()]))
  return { status, error, postedAt: times.length === 0 ? null : new Date(Math.min(...times)) }
}

/**
 * Publishes claimed deliveries: one platform's copy of one post per delivery. The network's post id is recorded
 * before the claim is released, and a delivery tried before (a retry, or one taken over after a crash) first asks
 * its publisher whether that try already made the post. When a post's last delivery is done, the post gets its
 * outcome and `post.published` (some platform took it) or `post.failed` (none did) is recorded once, in the same
 * transaction, for its workspace's webhooks.
 */
export class PostPublishing extends Effect.Service<PostPublishing>()("svc/scheduling/PostPublishing", {
  dependencies: [Scheduling.Default],
  effect: Effect.gen(function* () {
    const posts = yield* PostsRepo
    const accounts = yield* SocialAccountsRepo
    const mediaFiles = yield* PostMediaFiles
    const publishers = yield* Publishers
    const openAccount = yield* makeAccountOpener
    const scheduling = yield* Scheduling
    const transactor = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    const fail = (kind: PublishFailure["kind"], message: string) => new PublishFailure({ kind, message })

    /** The account a delivery goes out on, opened; the own feed's is the workspace's feed. */
    const accountOf = (delivery: ClaimedDelivery) =>
      Effect.gen(function* () {
        if (delivery.platform === "feed") {
          return {
            id: "feed",
            platform: "feed",
            handle: yield* scheduling.feedHandle(delivery.workspaceId),
            serviceUrl: "",
            credentials: {}
          } satisfies PublishingAccount
        }
        const account = yield* Effect.flatMap(
          accounts.find(delivery.socialAccountId ?? ""),
          Option.match({
            onNone: () => Effect.fail(fail("rejected", `the ${delivery.platform} account was disconnected`)),
            onSome: Effect.succeed
          })
        )
        return yield* openAccount(account, (reason) => fail("credentials", reason))
      })

    const requestOf = (delivery: ClaimedDelivery, post: PostView) =>
      Effect.gen(function* () {
        const assets = yield* mediaFiles
          .findReady(
            post.workspaceId,
            post.media.map((m) => m.id)
          )
          .pipe(Effect.catchTag("NotFound", (missing) => Effect.fail(fail("rejected", missing.message))))
        return {
          deliveryId: delivery.id,
          createdAt: delivery.createdAt,
          postId: post.id,
          account: yield* accountOf(delivery),
          text: post.text,
          media: assets.map((asset, i) => ({
            id: asset.id,
            kind: asset.kind,
            mimeType: asset.mimeType,
            bytes: asset.bytes,
            width: asset.width,
            height: asset.height,
            altText: post.media[i]?.altText ?? null,
            read: mediaFiles.read(asset)
          })),
          numberThread: post.numberThread,
          visibility: post.visibility,
          contentWarning: post.contentWarning ?? undefined
        } satisfies PublishRequest
      })

    /** One try: asks first whether an earlier try already posted, then publishes. */
    const attempt = (delivery: ClaimedDelivery, post: PostView): Effect.Effect<Outcome> =>
      Effect.gen(function* () {
        const publisher = publishers.get(delivery.platform)
        if (publisher === undefined) {
          return yield* fail("rejected", `this server no longer publishes to ${delivery.platform}`)
        }
        const request = yield* requestOf(delivery, post)
        const earlier = delivery.attempts > 1 ? yield* publisher.findPublished(request) : Option.none<Published>()
        if (Option.isSome(earlier)) return { _tag: "posted", published: earlier.value } as const
        // A worker that stalled past its lease (another took the delivery over) must not publish a second copy.
        if (!(yield* posts.holds(delivery.id, delivery.claimToken, yield* now))) return { _tag: "lost" } as const
        return { _tag: "posted", published: yield* publisher.publish(request) } as const
      }).pipe(
        Effect.catchAll((failure) => Effect.succeed({ _tag: "failed", failure } as const)),
        // A defect in a publisher fails this try for a while, never the worker.
        Effect.catchAllDefect((defect) =>
          Effect.succeed({
            _tag: "failed",
            failure: fail("temporary", `the publisher broke: ${String(defect)}`)
          } as const)
        )
      )

    /** What a try's outcome makes of the delivery. */
    const recordOf = (
      delivery: ClaimedDelivery,
      outcome: Exclude<Outcome, { _tag: "lost" }>,
      at: Date
    ): DeliveryRecord => {
      if (outcome._tag === "posted") {
        return {
          status: "posted",
          attempts: delivery.attempts,
          nextAttemptAt: null,
          remoteId: outcome.published.remoteId,
          url: outcome.published.url,
          error: null,
          postedAt: at
        }
      }
      const { failure } = outcome
      const retry = failure.kind === "temporary" && delivery.attempts < DELIVERY_MAX_ATTEMPTS
      const waitMs = Math.min(
        RETRY_AFTER_MAX_MS,
        Math.max(failure.retryAfterMs ?? 0, publishRetryDelayMs(delivery.attempts))
      )
      return {
        status: retry ? "pending" : "failed",
        attempts: delivery.attempts,
        nextAttemptAt: retry ? new Date(at.getTime() + waitMs) : null,
        remoteId: null,
        url: null,
        error:
          failure.kind === "credentials"
            ? `the account's credentials stopped working (${failure.message}); reconnect it at the address svc_connect_social_accounts answers`
            : retry
              ? `${failure.message} (try ${delivery.attempts} of ${DELIVERY_MAX_ATTEMPTS}; trying again)`
              : failure.message,
        postedAt: null
      }
    }

    /** Gives the post its outcome and records its event, when its last delivery is done (in the caller's transaction). */
    const finishIfDone = (workspaceId: string, postId: string, at: Date) =>
      Effect.gen(function* () {
        const locked = yield* posts.lock(workspaceId, postId)
        if (Option.isNone(locked)) return
        const post = locked.value
        if (post.status !== "publishing" || post.deliveries.some((d) => d.status === "pending")) return
        const outcome = outcomeOf(post)
        yield* posts.finish(post.id, outcome, at)
        const finished: PostView = { ...post, ...outcome }
        const failedEverywhere = outcome.status === "failed"
        yield* recordEvent(
          workspaceId,
          failedEverywhere ? "post.failed" : "post.published",
          postEventData(finished, outcome.status)
        )
      })

    /** Publishes one claimed delivery and records what became of it. */
    const run = (delivery: ClaimedDelivery) =>
      Effect.gen(function* () {
        const post = yield* posts.find(delivery.workspaceId, delivery.postId)
        const at0 = yield* now
        const outcome: Outcome = Option.isNone(post)
          ? { _tag: "failed", failure: fail("rejected", "the post was deleted") }
          : yield* attempt(delivery, post.value)
        // The claim was lost before publishing: whoever holds it now publishes and records it.
        if (outcome._tag === "lost") return
        const at = yield* now
        const record = recordOf(delivery, outcome, at)
        if (outcome._tag === "failed" && outcome.failure.kind === "credentials" && delivery.socialAccountId !== null) {
          yield* accounts.markNeedsReconnect(delivery.socialAccountId, outcome.failure.message, at)
        }
        yield* transactor.withTransaction(
          Effect.gen(function* () {
            const held = yield* posts.recordDelivery(delivery.id, delivery.claimToken, record)
            if (held && record.status !== "pending") yield* finishIfDone(delivery.workspaceId, delivery.postId, at)
          })
        )
        yield* Effect.annotateCurrentSpan("svc.publish.ms", at.getTime() - at0.getTime())
      }).pipe(
        withSpan("PostPublishing.run", {
          attributes: { "svc.delivery.id": delivery.id, "svc.platform": delivery.platform }
        })
      )

    return { run }
  })
}) {}
