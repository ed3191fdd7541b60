import { Effect, Option } from "effect"
import { WorkspacesRepo } from "../accounts/ports.js"
import { Conflict, type InvalidInput, invalid, NotFound } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"
import type { PageRequest } from "../shared/paging.js"
import { Ids, Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { now } from "../shared/time.js"
import { type CheckedMedia, checkForPlatform } from "./checks.js"
import { isPlatform, PLATFORMS, type Platform } from "./platforms.js"
import {
  CredentialSealer,
  type PostFilter,
  PostingSchedulesRepo,
  PostMediaFiles,
  PostsRepo,
  SocialAccountsRepo
} from "./ports.js"
import { Publishers } from "./publisher.js"
import {
  CONTENT_WARNING_MAX,
  type Delivery,
  OPEN_POST_STATUSES,
  PENDING_POSTS_MAX,
  POST_MEDIA_MAX,
  POST_TEXT_MAX,
  type Post,
  type PostingSchedule,
  type PostingSlot,
  type PostView,
  SCHEDULE_AHEAD_MAX_DAYS,
  type SocialAccount,
  type Visibility
} from "./schema.js"
import { checkSlots, checkTimeZone, SLOT_LOOKAHEAD_DAYS, slotLookaheadMs, upcomingSlots } from "./slots.js"

/** The fields a post is made or changed with; an update keeps what it leaves out. */
export interface PostFields {
  readonly text?: string | undefined
  readonly platforms?: ReadonlyArray<string> | undefined
  /** When it goes out; none: the next free posting slot (or, for a draft, no time yet). */
  readonly scheduledAt?: Date | undefined
  readonly draft?: boolean | undefined
  readonly media?: ReadonlyArray<{ readonly id: string; readonly altText?: string | undefined }> | undefined
  readonly numberThread?: boolean | undefined
  readonly visibility?: Visibility | undefined
  /** `""` clears it. */
  readonly contentWarning?: string | undefined
}

/** What `svc_list_schedules` shows: the time zone, the slots, the accounts and where posts can go. */
export interface SchedulingOverview {
  readonly schedule: PostingSchedule
  readonly accounts: ReadonlyArray<SocialAccount>
  /** The next free slot times, earliest first. */
  readonly nextSlots: ReadonlyArray<Date>
  /** The platforms this server publishes to. */
  readonly publishableTo: ReadonlyArray<Platform>
  /** The handle of the workspace's own feed (`/s/<handle>/posts`). */
  readonly feedHandle: string
}

/** The schedule of a workspace that never set one. */
const defaultSchedule = (workspaceId: string): PostingSchedule => ({
  workspaceId,
  timeZone: "UTC",
  slots: [],
  updatedAt: null
})

const postNotFound = (id: string) =>
  new NotFound({ message: `no post ${excerpt(id)} in this workspace; list them with svc_list_scheduled_posts` })

const DAY_MS = 86_400_000
const NEXT_SLOTS_SHOWN = 5

/**
 * Scheduling and publishing: a workspace's posting schedule, its connected accounts, and its posts, checked against
 * every platform's rules when they are made. Posts go out through the publishing worker (`publishing.ts`).
 */
export class Scheduling extends Effect.Service<Scheduling>()("svc/scheduling/Scheduling", {
  effect: Effect.gen(function* () {
    const posts = yield* PostsRepo
    const accounts = yield* SocialAccountsRepo
    const schedules = yield* PostingSchedulesRepo
    const mediaFiles = yield* PostMediaFiles
    const publishers = yield* Publishers
    const sealer = yield* CredentialSealer
    const workspaces = yield* WorkspacesRepo
    const ids = yield* Ids
    const transactor = yield* Transactor

    const publishableTo = PLATFORMS.filter((platform) => publishers.has(platform))
    const networks = publishableTo.filter((platform) => platform !== "feed")
    /** Where this server publishes, for refusals. */
    const whereTo =
      networks.length === 0
        ? "it publishes to the workspace's own feed (feed)"
        : `it publishes to feed (the workspace's own, always) and to ${networks.join(" and ")} once an account is connected (svc_connect_social_accounts)`

    const scheduleOf = (workspaceId: string) =>
      Effect.map(
        schedules.find(workspaceId),
        Option.getOrElse(() => defaultSchedule(workspaceId))
      )

    const feedHandle = (workspaceId: string) =>
      Effect.map(
        workspaces.findStore(workspaceId),
        Option.match({ onNone: () => workspaceId, onSome: (store) => store.handle })
      )

    /** The free slots after `at`, skipping the times other posts of the workspace already hold. */
    const freeSlots = (schedule: PostingSchedule, at: Date, count: number) =>
      Effect.map(posts.takenTimes(schedule.workspaceId, at, new Date(at.getTime() + slotLookaheadMs)), (taken) =>
        upcomingSlots(schedule.slots, schedule.timeZone, at, count, new Set(taken.map((d) => d.getTime())))
      )

    const overview = (workspaceId: string) =>
      Effect.gen(function* () {
        const schedule = yield* scheduleOf(workspaceId)
        const at = yield* now
        return {
          schedule,
          accounts: yield* accounts.list(workspaceId),
          nextSlots: yield* freeSlots(schedule, at, NEXT_SLOTS_SHOWN),
          publishableTo,
          feedHandle: yield* feedHandle(workspaceId)
        } satisfies SchedulingOverview
      })

    const updateSchedule = (
      workspaceId: string,
      input: { readonly timeZone?: string | undefined; readonly slots?: ReadonlyArray<PostingSlot> | undefined }
    ) =>
      Effect.gen(function* () {
        const current = yield* scheduleOf(workspaceId)
        const timeZone = input.timeZone === undefined ? current.timeZone : yield* checkTimeZone(input.timeZone)
        const slots = input.slots === undefined ? current.slots : yield* checkSlots(input.slots)
        yield* schedules.save({ workspaceId, timeZone, slots, updatedAt: yield* now })
        return yield* overview(workspaceId)
      }).pipe(withSpan("Scheduling.updateSchedule"))

    /** The platforms named, each known, publishable here and with a working account in the workspace. */
    const checkedPlatforms = (workspaceId: string, names: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        if (names.length === 0) {
          return yield* invalid(
            "platforms",
            `name at least one platform; this server publishes to ${publishableTo.join(", ")}`
          )
        }
        const connected = yield* accounts.list(workspaceId)
        const chosen: Array<{ readonly platform: Platform; readonly account: SocialAccount | null }> = []
        for (const [i, name] of names.entries()) {
          const path = `platforms.${i}`
          if (!isPlatform(name)) {
            return yield* invalid(path, `"${excerpt(name)}" is not a platform; known: ${PLATFORMS.join(", ")}`)
          }
          if (chosen.some((c) => c.platform === name)) return yield* invalid(path, `${name} is named twice`)
          if (!publishers.has(name)) {
            return yield* invalid(path, `this server cannot publish to ${name}; ${whereTo}`)
          }
          if (name === "feed") {
            chosen.push({ platform: name, account: null })
            continue
          }
          const account = connected.find((a) => a.platform === name)
          if (account === undefined) {
            return yield* invalid(
              path,
              `no ${name} account is connected to this workspace; a person connects one at the address svc_connect_social_accounts answers`
            )
          }
          if (account.status === "needs_reconnect") {
            return yield* invalid(
              path,
              `the ${name} account ${account.handle} needs reconnecting (${account.statusReason ?? "its credentials stopped working"}); a person reconnects it at the address svc_connect_social_accounts answers`
            )
          }
          chosen.push({ platform: name, account })
        }
        return chosen
      })

    const checkedMedia = (
      workspaceId: string,
      media: ReadonlyArray<{ readonly id: string; readonly altText: string | null }>
    ) =>
      Effect.gen(function* () {
        if (media.length > POST_MEDIA_MAX)
          return yield* invalid("media", `at most ${POST_MEDIA_MAX} media files a post`)
        const assets = yield* mediaFiles.findReady(
          workspaceId,
          media.map((m) => m.id)
        )
        return assets.map((asset, i): CheckedMedia => ({ asset, altText: media[i]?.altText ?? null }))
      })

    const checkedText = (text: string) =>
      text.trim().length === 0 || text.length > POST_TEXT_MAX
        ? Effect.fail(invalid("text", `text must be 1 to ${POST_TEXT_MAX} characters`))
        : Effect.succeed(text)

    /** The time a post goes out: the one given (in the future, within a year), or the next free slot. */
    const checkedTime = (workspaceId: string, given: Date | undefined, at: Date) =>
      Effect.gen(function* () {
        if (given !== undefined) {
          if (Number.isNaN(given.getTime())) return yield* invalid("scheduledAtIso", "scheduledAtIso is not a time")
          if (given.getTime() <= at.getTime()) {
            return yield* invalid(
              "scheduledAtIso",
              `scheduledAtIso ${given.toISOString()} is not in the future (now is ${at.toISOString()}); to post at once use svc_publish_post_now`
            )
          }
          if (given.getTime() > at.getTime() + SCHEDULE_AHEAD_MAX_DAYS * DAY_MS) {
            return yield* invalid(
              "scheduledAtIso",
              `a post may be scheduled at most ${SCHEDULE_AHEAD_MAX_DAYS} days ahead`
            )
          }
          return { scheduledFor: given, fromSlot: false }
        }
        const schedule = yield* scheduleOf(workspaceId)
        if (schedule.slots.length === 0) {
          return yield* invalid(
            "scheduledAtIso",
            "give scheduledAtIso, or set weekly posting slots with svc_update_schedule so the next free slot is taken"
          )
        }
        const [slot] = yield* freeSlots(schedule, at, 1)
        if (slot === undefined) {
          return yield* invalid(
            "scheduledAtIso",
            `every posting slot of the next ${SLOT_LOOKAHEAD_DAYS / 7} weeks is taken; give scheduledAtIso or add slots with svc_update_schedule`
          )
        }
        return { scheduledFor: slot, fromSlot: true }
      })

    const deliveriesOf = (
      post: Post,
      targets: ReadonlyArray<{ readonly platform: Platform; readonly account: SocialAccount | null }>
    ) =>
      Effect.forEach(targets, ({ platform, account }) =>
        Effect.map(
          ids.make("pdl_"),
          (id): Delivery => ({
            id,
            postId: post.id,
            workspaceId: post.workspaceId,
            platform,
            socialAccountId: account?.id ?? null,
            status: "pending",
            attempts: 0,
            nextAttemptAt: post.scheduledFor,
            remoteId: null,
            url: null,
            error: null,
            postedAt: null,
            createdAt: post.updatedAt
          })
        )
      )

    /**
     * Checks a post's fields as they will be (the fields given over `current`), and answers the post and its
     * deliveries (none for a draft).
     */
    const build = (
      workspaceId: string,
      fields: PostFields,
      current: Post | undefined,
      make: { readonly id: string; readonly accountId: string; readonly at: Date }
    ) =>
      Effect.gen(function* () {
        const text = yield* checkedText(fields.text ?? current?.text ?? "")
        const targets = yield* checkedPlatforms(workspaceId, fields.platforms ?? current?.platforms ?? [])
        const mediaInput =
          fields.media?.map((m) => ({ id: m.id, altText: m.altText?.trim() ? m.altText.trim() : null })) ??
          current?.media ??
          []
        const media = yield* checkedMedia(workspaceId, mediaInput)
        const numberThread = fields.numberThread ?? current?.numberThread ?? false
        for (const { platform } of targets) {
          yield* checkForPlatform(platform, text, media, numberThread)
        }
        const contentWarning =
          fields.contentWarning === undefined ? (current?.contentWarning ?? null) : fields.contentWarning.trim() || null
        if (contentWarning !== null && contentWarning.length > CONTENT_WARNING_MAX) {
          return yield* invalid("contentWarning", `contentWarning must be at most ${CONTENT_WARNING_MAX} characters`)
        }
        const draft = fields.draft ?? current?.status === "draft"
        // A time the caller gives is checked; an update that gives none keeps a time the caller chose, and a
        // slot's time is taken again only when the post had none.
        const keep =
          fields.scheduledAt === undefined && current?.scheduledFor != null && current.scheduledFor > make.at
            ? { scheduledFor: current.scheduledFor, fromSlot: current.fromSlot }
            : undefined
        const time =
          keep ??
          (draft && fields.scheduledAt === undefined
            ? { scheduledFor: null, fromSlot: false }
            : yield* checkedTime(workspaceId, fields.scheduledAt, make.at))
        const post: Post = {
          id: make.id,
          workspaceId,
          accountId: make.accountId,
          text,
          platforms: targets.map((t) => t.platform),
          media: media.map((m) => ({ id: m.asset.id, altText: m.altText })),
          status: draft ? "draft" : "scheduled",
          scheduledFor: time.scheduledFor,
          fromSlot: time.fromSlot,
          numberThread,
          visibility: fields.visibility ?? current?.visibility ?? "public",
          contentWarning,
          postedAt: null,
          error: null,
          createdAt: current?.createdAt ?? make.at,
          updatedAt: make.at
        }
        return { post, deliveries: draft ? [] : yield* deliveriesOf(post, targets) }
      })

    const view = (post: Post, deliveries: ReadonlyArray<Delivery>): PostView => ({ ...post, deliveries })

    const schedulePost = (workspaceId: string, accountId: string, fields: PostFields) =>
      Effect.gen(function* () {
        const at = yield* now
        const id = yield* ids.make("post_")
        const { post, deliveries } = yield* build(workspaceId, fields, undefined, { id, accountId, at })
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            if ((yield* posts.countOpen(workspaceId)) >= PENDING_POSTS_MAX) {
              return yield* new Conflict({
                message: `this workspace has ${PENDING_POSTS_MAX} drafts and scheduled posts, the most it may hold; cancel some with svc_cancel_scheduled_post`
              })
            }
            yield* posts.insert(post, deliveries)
            return view(post, deliveries)
          })
        )
      }).pipe(withSpan("Scheduling.schedulePost"))

    /** Locks an open post (a draft, or scheduled and not yet going out) for a change. */
    const lockOpen = (workspaceId: string, postId: string, doing: string) =>
      Effect.gen(function* () {
        const post = yield* Effect.flatMap(
          posts.lock(workspaceId, postId),
          Option.match({
            onNone: () => Effect.fail(postNotFound(postId)),
            onSome: Effect.succeed
          })
        )
        if (!OPEN_POST_STATUSES.includes(post.status)) {
          return yield* new Conflict({
            message: `post ${post.id} is ${post.status}, so it cannot be ${doing}; only drafts and scheduled posts that have not started going out can`
          })
        }
        return post
      })

    const updatePost = (workspaceId: string, postId: string, fields: PostFields) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            const current = yield* lockOpen(workspaceId, postId, "changed")
            const at = yield* now
            const { post, deliveries } = yield* build(workspaceId, fields, current, {
              id: current.id,
              accountId: current.accountId,
              at
            })
            yield* posts.save(post, deliveries)
            return view(post, deliveries)
          })
        )
        .pipe(withSpan("Scheduling.updatePost"))

    const cancelPost = (workspaceId: string, postId: string) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const current = yield* lockOpen(workspaceId, postId, "cancelled")
          const at = yield* now
          const post: Post = { ...current, status: "cancelled", updatedAt: at }
          yield* posts.save(post, [])
          return view(post, [])
        })
      )

    /** Sends an open post (a draft or a scheduled one) out now: it is due at once, for the worker to publish. */
    const publishNow = (workspaceId: string, postId: string) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const current = yield* lockOpen(workspaceId, postId, "published now")
          const at = yield* now
          const targets = yield* checkedPlatforms(workspaceId, current.platforms)
          const post: Post = { ...current, status: "scheduled", scheduledFor: at, fromSlot: false, updatedAt: at }
          const deliveries = yield* deliveriesOf(post, targets)
          yield* posts.save(post, deliveries)
          return view(post, deliveries)
        })
      )

    const getPost = (workspaceId: string, postId: string) =>
      Effect.flatMap(
        posts.find(workspaceId, postId),
        Option.match({ onNone: () => Effect.fail(postNotFound(postId)), onSome: Effect.succeed })
      )

    /**
     * The post once it is done going out (or no longer open to go out), looking every quarter second for at most
     * `maxMs`; then as it stands.
     */
    const awaitOutcome = (workspaceId: string, postId: string, maxMs: number) =>
      Effect.gen(function* () {
        const until = (yield* now).getTime() + maxMs
        for (;;) {
          const post = yield* getPost(workspaceId, postId)
          const going = post.status === "scheduled" || post.status === "publishing"
          if (!going || (yield* now).getTime() >= until) return post
          yield* Effect.sleep("250 millis")
        }
      })

    const listPosts = (workspaceId: string, filter: PostFilter, page: PageRequest) =>
      posts.listPage(workspaceId, filter, page)

    /**
     * Connects an account: the platform's publisher checks the credentials a person gave and answers the account
     * they open; the credentials are kept sealed with the server key. Replaces the workspace's account on that
     * platform (and brings back one that needed reconnecting).
     */
    const connectAccount = (
      workspaceId: string,
      platform: Platform,
      serviceUrl: string,
      credentials: Readonly<Record<string, unknown>>
    ): Effect.Effect<SocialAccount, InvalidInput> =>
      Effect.gen(function* () {
        const publisher = publishers.get(platform)
        if (platform === "feed" || publisher === undefined) {
          return yield* invalid(
            "platform",
            `accounts can be connected for ${publishableTo.filter((p) => p !== "feed").join(", ")}`
          )
        }
        const verified = yield* publisher
          .verify(serviceUrl, credentials)
          .pipe(
            Effect.catchTag("PublishFailure", (failure) =>
              Effect.fail(
                invalid(
                  failure.kind === "credentials" ? "credentials" : "serviceUrl",
                  failure.kind === "credentials"
                    ? `${platform} refused these credentials: ${failure.message}`
                    : `${platform} could not be reached at ${serviceUrl}: ${failure.message}`
                )
              )
            )
          )
        const at = yield* now
        return yield* accounts.upsert({
          id: yield* ids.make("sac_"),
          workspaceId,
          platform,
          handle: verified.handle,
          displayName: verified.displayName,
          serviceUrl: verified.serviceUrl,
          credentialsSealed: yield* sealer.seal(JSON.stringify(verified.credentials)),
          status: "connected",
          statusReason: null,
          createdAt: at,
          updatedAt: at
        })
      }).pipe(withSpan("Scheduling.connectAccount", { attributes: { platform } }))

    const disconnectAccount = (workspaceId: string, accountId: string) =>
      Effect.flatMap(accounts.remove(workspaceId, accountId), (removed) =>
        removed
          ? Effect.void
          : Effect.fail(
              new NotFound({
                message: `no connected account ${excerpt(accountId)} in this workspace; svc_list_schedules lists them`
              })
            )
      )

    return {
      publishableTo,
      overview,
      updateSchedule,
      schedulePost,
      updatePost,
      cancelPost,
      publishNow,
      getPost,
      awaitOutcome,
      listPosts,
      connectAccount,
      disconnectAccount,
      feedHandle
    }
  })
}) {}
