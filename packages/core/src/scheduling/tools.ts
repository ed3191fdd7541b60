import { Effect, Either, Schema } from "effect"
import { invalid } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"
import { Cursor, decodeCursor, encodeCursor, Limit } from "../shared/paging.js"
import { Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import { ConnectLinks } from "./connect-links.js"
import { liveLinks } from "./live-links.js"
import { PLATFORMS } from "./platforms.js"
import {
  CONTENT_WARNING_MAX,
  POST_MEDIA_MAX,
  POST_TEXT_MAX,
  type PostView,
  SLOTS_MAX,
  type SocialAccount
} from "./schema.js"
import { type PostFields, Scheduling, type SchedulingOverview } from "./service.js"

const Id = Schema.String.pipe(Schema.maxLength(100))
const PostId = Id.annotations({ description: "Post id (post_…) from svc_list_scheduled_posts." })
const PlatformName = Schema.Literal(...PLATFORMS)
const PostStatusField = Schema.Literal("draft", "scheduled", "publishing", "posted", "partial", "failed", "cancelled")

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i

/** An ISO 8601 time with its zone (`Z` or an offset), as a `Date`; `invalid` names `field`. */
const isoTime = (field: string, text: string) => {
  const at = new Date(text)
  return ISO_WITH_ZONE.test(text) && !Number.isNaN(at.getTime())
    ? Either.right(at)
    : Either.left(
        invalid(field, `${field} "${excerpt(text)}" is not an ISO 8601 time with a zone; e.g. "2026-12-01T09:30:00Z"`)
      )
}

// An upload's answer may be passed as it is: its other fields are dropped (the stored file's own are read).
const MediaRef = Schema.Struct({
  id: Id.annotations({ description: "Media id (med_…) from an upload." }),
  altText: Schema.optional(
    Schema.String.pipe(Schema.maxLength(2_000)).annotations({ description: "Alt text (platforms cap it lower)." })
  )
}).annotations({ parseOptions: { onExcessProperty: "ignore" } })

// The fields scheduling and updating share; every one optional on an update.
const postFields = {
  text: Schema.String.pipe(Schema.maxLength(POST_TEXT_MAX)).annotations({
    description: `Post text. Over a platform's length it becomes a thread on bluesky (300) and mastodon (500).`
  }),
  platforms: Schema.Array(PlatformName)
    .pipe(Schema.minItems(1), Schema.maxItems(PLATFORMS.length))
    .annotations({ description: 'Where it goes, e.g. ["feed","bluesky"]; svc_list_schedules says which work.' }),
  scheduledAtIso: Schema.String.pipe(Schema.maxLength(40)).annotations({
    description: "When, ISO 8601 UTC, e.g. 2026-12-01T09:30:00Z; omit for the next free slot."
  }),
  draft: Schema.Boolean.annotations({ description: "true: save for review, not going out." }),
  media: Schema.Array(MediaRef)
    .pipe(Schema.maxItems(POST_MEDIA_MAX))
    .annotations({ description: "Uploaded media: {id, altText}, or the upload's answer as is." }),
  numberThread: Schema.Boolean.annotations({ description: 'Number thread parts ("1/3"); default false.' }),
  visibility: Schema.Literal("public", "unlisted", "private").annotations({
    description: "Mastodon audience; default public."
  }),
  contentWarning: Schema.String.pipe(Schema.maxLength(CONTENT_WARNING_MAX)).annotations({
    description: 'Mastodon content warning; "" clears it.'
  })
}

const Delivery = Schema.Struct({
  platform: PlatformName,
  status: Schema.Literal("pending", "posted", "failed", "cancelled").annotations({
    description: "pending: waiting for its time or its next try."
  }),
  url: Schema.NullOr(Schema.String).annotations({ description: "The live post's address." }),
  error: Schema.NullOr(Schema.String).annotations({ description: "Why it failed, or why it is being retried." }),
  attempts: Schema.Int,
  nextAttemptAt: Schema.NullOr(Timestamp),
  postedAt: Schema.NullOr(Timestamp)
})

const PostRecord = Schema.Struct({
  id: Schema.String.annotations({ description: "Post id (post_…)." }),
  status: PostStatusField.annotations({
    description: "draft, scheduled, publishing, then posted, partial or failed; or cancelled."
  }),
  text: Schema.String,
  platforms: Schema.Array(PlatformName),
  media: Schema.Array(Schema.Struct({ id: Schema.String, altText: Schema.NullOr(Schema.String) })),
  scheduledFor: Schema.NullOr(Timestamp).annotations({ description: "When it goes out; null for an untimed draft." }),
  fromSlot: Schema.Boolean.annotations({ description: "The time is a posting slot's." }),
  numberThread: Schema.Boolean,
  visibility: Schema.Literal("public", "unlisted", "private"),
  contentWarning: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String).annotations({ description: "First live link." }),
  postedAt: Schema.NullOr(Timestamp),
  error: Schema.NullOr(Schema.String),
  deliveries: Schema.Array(Delivery).annotations({ description: "One per platform once scheduled." }),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

/** A post as the scheduling tools answer it (`url`: the first live link, in the order of its platforms). */
export const postRecord = (post: PostView): typeof PostRecord.Type => ({
  id: post.id,
  status: post.status,
  text: post.text,
  platforms: post.platforms,
  media: post.media,
  scheduledFor: post.scheduledFor,
  fromSlot: post.fromSlot,
  numberThread: post.numberThread,
  visibility: post.visibility,
  contentWarning: post.contentWarning,
  url: liveLinks(post)[0] ?? null,
  postedAt: post.postedAt,
  error: post.error,
  deliveries: post.deliveries.map((d) => ({
    platform: d.platform,
    status: d.status,
    url: d.url,
    error: d.error,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt,
    postedAt: d.postedAt
  })),
  createdAt: post.createdAt,
  updatedAt: post.updatedAt
})

const Slot = Schema.Struct({
  weekday: Schema.Int.pipe(Schema.between(1, 7)).annotations({ description: "1 Monday … 7 Sunday." }),
  time: Schema.String.pipe(Schema.maxLength(5)).annotations({ description: 'Local time "HH:MM".' })
})

const Account = Schema.Struct({
  id: Schema.String.annotations({ description: "Account id (sac_…)." }),
  platform: PlatformName,
  handle: Schema.String,
  displayName: Schema.NullOr(Schema.String),
  status: Schema.Literal("connected", "needs_reconnect").annotations({
    description: "needs_reconnect: posts to it fail until a person reconnects it."
  }),
  statusReason: Schema.NullOr(Schema.String),
  connectedAt: Timestamp
})

const accountRecord = (account: SocialAccount): typeof Account.Type => ({
  id: account.id,
  platform: account.platform,
  handle: account.handle,
  displayName: account.displayName,
  status: account.status,
  statusReason: account.statusReason,
  connectedAt: account.updatedAt
})

const overviewOutput = {
  timeZone: Schema.String.annotations({ description: "IANA time zone of the slots." }),
  slots: Schema.Array(Slot).annotations({ description: "Weekly posting slots, local time." }),
  nextSlots: Schema.Array(Timestamp).annotations({ description: "Next free slot times (UTC)." }),
  accounts: Schema.Array(Account).annotations({ description: "Connected social accounts." }),
  needsReconnect: Schema.Array(Schema.String).annotations({ description: "Handles to reconnect." }),
  publishableTo: Schema.Array(PlatformName).annotations({ description: "Platforms this server publishes to." }),
  feedUrl: Schema.String.annotations({ description: "The workspace's public posts page (platform feed)." })
}

/** Scheduling's tools: schedules and accounts, and posts from draft to published. */
export const schedulingTools = Effect.gen(function* () {
  const scheduling = yield* Scheduling
  const links = yield* ConnectLinks

  const overviewRecord = (overview: SchedulingOverview) => ({
    timeZone: overview.schedule.timeZone,
    slots: overview.schedule.slots,
    nextSlots: overview.nextSlots,
    accounts: overview.accounts.map(accountRecord),
    needsReconnect: overview.accounts.filter((a) => a.status === "needs_reconnect").map((a) => a.handle),
    publishableTo: overview.publishableTo,
    feedUrl: links.feedUrl(overview.feedHandle)
  })

  /** The use case's fields from a tool's input. */
  const fieldsOf = (input: {
    readonly text?: string | undefined
    readonly platforms?: ReadonlyArray<string> | undefined
    readonly scheduledAtIso?: string | undefined
    readonly draft?: boolean | undefined
    readonly media?: ReadonlyArray<{ readonly id: string; readonly altText?: string | undefined }> | undefined
    readonly numberThread?: boolean | undefined
    readonly visibility?: "public" | "unlisted" | "private" | undefined
    readonly contentWarning?: string | undefined
  }) =>
    Effect.gen(function* () {
      const scheduledAt =
        input.scheduledAtIso === undefined || input.scheduledAtIso === ""
          ? undefined
          : yield* isoTime("scheduledAtIso", input.scheduledAtIso)
      const fields: PostFields = {
        text: input.text,
        platforms: input.platforms,
        scheduledAt,
        draft: input.draft,
        media: input.media?.map((m) => ({ id: m.id, altText: m.altText })),
        numberThread: input.numberThread,
        visibility: input.visibility,
        contentWarning: input.contentWarning
      }
      return fields
    })

  const schedulePost = defineTool({
    name: "svc_schedule_post",
    title: "Schedule post",
    group: "Scheduling",
    write: true,
    aliases: [{ name: "svc_create_scheduling_draft", title: "Create scheduling draft" }],
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    description:
      "Schedule a post to platforms at scheduledAtIso or the next free slot, or save a draft (draft true). Checked per platform now. Free. Publishes via the worker; webhooks get post.published/post.failed.",
    input: {
      text: postFields.text,
      platforms: postFields.platforms,
      scheduledAtIso: Schema.optional(postFields.scheduledAtIso),
      draft: Schema.optional(postFields.draft),
      media: Schema.optional(postFields.media),
      numberThread: Schema.optional(postFields.numberThread),
      visibility: Schema.optional(postFields.visibility),
      contentWarning: Schema.optional(postFields.contentWarning)
    },
    output: { post: PostRecord.annotations({ description: "The post as it now is." }) },
    handler: (input, { principal, workspace }) =>
      Effect.gen(function* () {
        const { id } = yield* workspace
        const fields = yield* fieldsOf(input)
        return { post: postRecord(yield* scheduling.schedulePost(id, principal.accountId, fields)) }
      })
  })

  return [
    defineTool({
      name: "svc_list_schedules",
      title: "List schedules",
      group: "Scheduling",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "The workspace's time zone, weekly posting slots, next free slots, connected social accounts (and which need reconnecting), and the platforms posts can go to. Free.",
      input: {},
      output: overviewOutput,
      handler: (_input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return overviewRecord(yield* scheduling.overview(id))
        })
    }),
    defineTool({
      name: "svc_update_schedule",
      title: "Update schedule",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Set the workspace's IANA time zone and/or replace its weekly posting slots (local weekday and time; daylight saving keeps the local time). Returns the schedule. Free.",
      input: {
        timeZone: Schema.optional(
          Schema.String.pipe(Schema.maxLength(64)).annotations({ description: 'IANA zone, e.g. "Europe/Berlin".' })
        ),
        slots: Schema.optional(
          Schema.Array(Slot).pipe(Schema.maxItems(SLOTS_MAX)).annotations({ description: "All slots; [] clears." })
        )
      },
      output: overviewOutput,
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return overviewRecord(yield* scheduling.updateSchedule(id, input))
        })
    }),
    schedulePost,
    defineTool({
      name: "svc_publish_post_now",
      title: "Publish post now",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
      description:
        "Publish now: a draft or scheduled post (postId), or a new post (text, platforms, media). Waits up to 10 s for the outcome; else check svc_list_scheduled_posts. Free.",
      input: {
        postId: Schema.optional(PostId),
        text: Schema.optional(postFields.text),
        platforms: Schema.optional(postFields.platforms),
        media: Schema.optional(postFields.media),
        numberThread: Schema.optional(postFields.numberThread),
        visibility: Schema.optional(postFields.visibility),
        contentWarning: Schema.optional(postFields.contentWarning)
      },
      output: { post: PostRecord.annotations({ description: "The post as it now is." }) },
      handler: ({ postId, ...input }, { principal, workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          if (postId !== undefined && (input.text !== undefined || input.platforms !== undefined)) {
            return yield* invalid(
              "postId",
              "give postId to publish a saved post, or text and platforms for a new one, not both"
            )
          }
          if (postId === undefined && (input.text === undefined || input.platforms === undefined)) {
            return yield* invalid("text", "give postId to publish a saved post, or text and platforms for a new one")
          }
          const target =
            postId ??
            (yield* scheduling.schedulePost(id, principal.accountId, { ...(yield* fieldsOf(input)), draft: true })).id
          yield* scheduling.publishNow(id, target)
          return { post: postRecord(yield* scheduling.awaitOutcome(id, target, 10_000)) }
        })
    }),
    defineTool({
      name: "svc_update_scheduled_post",
      title: "Update scheduled post",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Change a draft or scheduled post before it goes out (others stay); draft false schedules a draft. Rechecked per platform. Returns the post. Free.",
      input: {
        postId: PostId,
        text: Schema.optional(postFields.text),
        platforms: Schema.optional(postFields.platforms),
        scheduledAtIso: Schema.optional(postFields.scheduledAtIso),
        draft: Schema.optional(postFields.draft),
        media: Schema.optional(postFields.media),
        numberThread: Schema.optional(postFields.numberThread),
        visibility: Schema.optional(postFields.visibility),
        contentWarning: Schema.optional(postFields.contentWarning)
      },
      output: { post: PostRecord.annotations({ description: "The post as it now is." }) },
      handler: ({ postId, ...input }, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { post: postRecord(yield* scheduling.updatePost(id, postId, yield* fieldsOf(input))) }
        })
    }),
    defineTool({
      name: "svc_cancel_scheduled_post",
      title: "Cancel scheduled post",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description:
        "Cancel a draft or scheduled post before it goes out; a post already going out cannot be. Returns it (cancelled). Free.",
      input: { postId: PostId },
      output: { post: PostRecord.annotations({ description: "The post as it now is." }) },
      handler: ({ postId }, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { post: postRecord(yield* scheduling.cancelPost(id, postId)) }
        })
    }),
    defineTool({
      name: "svc_list_scheduled_posts",
      title: "List scheduled posts",
      group: "Scheduling",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List posts, newest first, with status and each platform's delivery (url, error). Filter by status, platform and scheduled time window. Paged. Free.",
      input: {
        status: Schema.optional(PostStatusField.annotations({ description: "Only this status." })),
        platform: Schema.optional(PlatformName.annotations({ description: "Only posts to this platform." })),
        fromIso: Schema.optional(
          Schema.String.pipe(Schema.maxLength(40)).annotations({ description: "Scheduled at or after (ISO)." })
        ),
        toIso: Schema.optional(
          Schema.String.pipe(Schema.maxLength(40)).annotations({ description: "Scheduled before (ISO)." })
        ),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        posts: Schema.Array(PostRecord).annotations({ description: "The posts, newest first." }),
        nextCursor: Schema.optional(Schema.String.annotations({ description: "Cursor of the next page, if any." }))
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const from = input.fromIso === undefined ? undefined : yield* isoTime("fromIso", input.fromIso)
          const to = input.toIso === undefined ? undefined : yield* isoTime("toIso", input.toIso)
          const after = input.cursor === undefined ? undefined : yield* decodeCursor(input.cursor)
          const page = yield* scheduling.listPosts(
            id,
            { statuses: input.status === undefined ? undefined : [input.status], platform: input.platform, from, to },
            { limit: input.limit ?? 25, after }
          )
          return {
            posts: page.rows.map(postRecord),
            ...(page.next ? { nextCursor: encodeCursor(page.next) } : {})
          }
        })
    }),
    defineTool({
      name: "svc_connect_social_accounts",
      title: "Connect social accounts",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Answer an address for a person to open in a browser to connect (or reconnect) a social account: Bluesky (handle and app password) or Mastodon. Valid 1 hour. Also lists connected accounts. Free.",
      input: {
        platform: Schema.optional(
          Schema.Literal("bluesky", "mastodon").annotations({ description: "Open that platform's form first." })
        )
      },
      output: {
        connectUrl: Schema.String.annotations({ description: "Give it to the person; it expires." }),
        expiresAt: Timestamp,
        accounts: Schema.Array(Account).annotations({ description: "Connected accounts." })
      },
      handler: ({ platform }, { principal, workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const link = yield* links.connectLink(id, principal.accountId, platform)
          const overview = yield* scheduling.overview(id)
          return { ...link, accounts: overview.accounts.map(accountRecord) }
        })
    })
  ]
})
