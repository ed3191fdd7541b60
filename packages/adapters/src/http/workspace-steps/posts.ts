import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import {
  liveLinks,
  CONTENT_WARNING_MAX,
  PLATFORMS,
  POST_MEDIA_MAX,
  POST_TEXT_MAX,
  type PostView,
  Scheduling
} from "@svc/core/scheduling"
import type { ToolServer } from "@svc/core/tools"
import { Effect, type Layer, Schema } from "effect"
import { HttpFaceSettings, type PublicUrl } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { answerStep, stepJson } from "../ai-steps/caller.js"
import { makeWorkspaceStepGate } from "./gate.js"
import {
  namedWorkspace,
  pageRequestOf,
  pagingQueryFields,
  readBody,
  readQuery,
  refusalIn,
  StepId,
  workspaceQueryFields
} from "./input.js"
import type { StepOperation } from "./operation.js"
import { Ok, PageAnswer, pageAnswer, SCHEDULING_PREFIX, Time } from "./wire.js"

/** `{scheduling_url}/mcp/schedule-post`: the Schedule a post step. */
export const SCHEDULE_POST_PATH = `${SCHEDULING_PREFIX}/mcp/schedule-post` as const
/** `{scheduling_url}/mcp/drafts`: the Schedule a post step, saving a draft. */
export const DRAFTS_PATH = `${SCHEDULING_PREFIX}/mcp/drafts` as const
/** `{scheduling_url}/mcp/posts`: the Post published / failed trigger. */
export const POSTS_PATH = `${SCHEDULING_PREFIX}/mcp/posts` as const

const POST_STATUSES = ["draft", "scheduled", "publishing", "posted", "partial", "failed", "cancelled"] as const
const PostStatusLiteral = Schema.Literal(...POST_STATUSES)
const PlatformName = Schema.Literal(...PLATFORMS)

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i

/** An ISO 8601 time with its zone (the step reads it as a `Date`); `""` counts as left out (the next free slot). */
const IsoTime = Schema.String.annotations({ description: "ISO 8601 time with a zone." }).pipe(
  Schema.maxLength(40),
  Schema.filter((text) => text === "" || (ISO_WITH_ZONE.test(text) && !Number.isNaN(new Date(text).getTime())), {
    message: () => 'must be an ISO 8601 time with a zone, e.g. "2026-12-01T09:30:00Z"'
  })
)

const AltText = Schema.String.pipe(Schema.maxLength(2_000)).annotations({
  description: "Alt text, up to 2,000 characters (platforms cap it lower)."
})

// A media file as the automation tool sends it: the prepare step's media_id as it is, or `{ id, alt_text }`.
const MediaEntry = Schema.Union(
  StepId,
  Schema.Struct({
    id: StepId.annotations({ description: "Media id (med_…) from the prepare step's media_id." }),
    alt_text: Schema.optionalWith(AltText, { nullable: true }),
    altText: Schema.optionalWith(AltText.annotations({ description: "The same as alt_text." }), { nullable: true })
  })
)

/** The schedule steps' body: `svc_schedule_post`'s fields, as the spec names them. */
const SchedulePostBody = Schema.Struct({
  text: Schema.String.pipe(Schema.maxLength(POST_TEXT_MAX)).annotations({ description: "The post's text." }),
  platforms: Schema.Array(PlatformName)
    .pipe(Schema.minItems(1), Schema.maxItems(PLATFORMS.length))
    .annotations({ description: 'Where it goes, e.g. ["feed","bluesky"]; GET /mcp/schedules says which work.' }),
  scheduledAtIso: Schema.optionalWith(IsoTime, { nullable: true }).annotations({
    description: "When, ISO 8601 with a zone (2026-12-01T09:30:00Z). Left out: the next free slot (a draft: no time)."
  }),
  draft: Schema.optionalWith(Schema.Boolean, { nullable: true }).annotations({
    description: "true: save for review instead (what POST /mcp/drafts does)."
  }),
  media: Schema.optionalWith(Schema.Array(MediaEntry).pipe(Schema.maxItems(POST_MEDIA_MAX)), {
    nullable: true
  }).annotations({ description: "Media ids from the prepare step (med_…), or { id, alt_text } objects." }),
  numberThread: Schema.optionalWith(Schema.Boolean, { nullable: true }),
  visibility: Schema.optionalWith(Schema.Literal("public", "unlisted", "private"), { nullable: true }),
  contentWarning: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(CONTENT_WARNING_MAX)), { nullable: true }),
  workspaceId: Schema.optionalWith(StepId, { nullable: true }).annotations({
    description: "Workspace id (ws_…), also taken as workspace_id; left out: the default workspace."
  }),
  workspace_id: Schema.optionalWith(StepId, { nullable: true })
})

const Delivery = Schema.Struct({
  platform: Schema.String,
  status: Schema.Literal("pending", "posted", "failed", "cancelled"),
  url: Schema.NullOr(Schema.String).annotations({ description: "The live post's address." }),
  error: Schema.NullOr(Schema.String),
  attempts: Schema.Int,
  next_attempt_at: Schema.NullOr(Time),
  posted_at: Schema.NullOr(Time)
})

const PostRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Post id (post_…): the trigger's dedupe key." }),
  status: PostStatusLiteral.annotations({
    description: "draft, scheduled, publishing, then posted, partial or failed; or cancelled."
  }),
  text: Schema.String,
  platforms: Schema.Array(Schema.String),
  media: Schema.Array(Schema.Struct({ id: Schema.String, alt_text: Schema.NullOr(Schema.String) })),
  scheduled_at: Schema.NullOr(Time).annotations({ description: "When it goes out; null for an untimed draft." }),
  from_slot: Schema.Boolean,
  url: Schema.NullOr(Schema.String).annotations({ description: "The first live link." }),
  posted_at: Schema.NullOr(Time),
  error: Schema.NullOr(Schema.String),
  deliveries: Schema.Array(Delivery).annotations({ description: "One per platform once scheduled." }),
  workspace_id: Schema.String,
  created_at: Time,
  updated_at: Time
})

const postRow = (post: PostView): typeof PostRow.Type => ({
  id: post.id,
  status: post.status,
  text: post.text,
  platforms: post.platforms,
  media: post.media.map((m) => ({ id: m.id, alt_text: m.altText })),
  scheduled_at: post.scheduledFor,
  from_slot: post.fromSlot,
  url: liveLinks(post)[0] ?? null,
  posted_at: post.postedAt,
  error: post.error,
  deliveries: post.deliveries.map((d) => ({
    platform: d.platform,
    status: d.status,
    url: d.url,
    error: d.error,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt,
    posted_at: d.postedAt
  })),
  workspace_id: post.workspaceId,
  created_at: post.createdAt,
  updated_at: post.updatedAt
})

const PostAnswer = Schema.extend(Schema.Struct({ ok: Ok }), PostRow)

// `status=posted&status=partial` or `status=posted,partial`: every value, each split at commas.
const StatusList = Schema.transform(
  Schema.Union(Schema.String, Schema.Array(Schema.String)),
  Schema.Array(PostStatusLiteral),
  {
    strict: false,
    decode: (given) =>
      (typeof given === "string" ? [given] : given)
        .flatMap((value) => value.split(","))
        .map((value) => value.trim())
        .filter((value) => value !== ""),
    encode: (statuses) => statuses.join(",")
  }
).annotations({
  jsonSchema: {
    type: "string",
    description: `Only posts in these statuses (${POST_STATUSES.join(", ")}): repeat status or separate with commas.`
  }
})

const PostsQuery = Schema.Struct({
  status: Schema.optional(StatusList),
  ...workspaceQueryFields,
  ...pagingQueryFields
})

const PostsAnswer = PageAnswer(PostRow)

const encodePost = Schema.encodeSync(PostAnswer)
const encodePosts = Schema.encodeSync(PostsAnswer)

const scheduleDescription = (draft: boolean) =>
  `${draft ? "Saves a draft" : "Schedules a post at scheduledAtIso or the next free slot (or a draft with draft: true)"}, checked against every platform's rules now, as svc_schedule_post. The rules of the Scheduling tools (edit access, the Starter plan).`

/** The OpenAPI entry of the Schedule a post step. */
export const schedulePostOperation: StepOperation = {
  method: "post",
  path: SCHEDULE_POST_PATH,
  operationId: "schedulePost",
  summary: "Schedule a post",
  description: scheduleDescription(false),
  group: "Scheduling",
  write: true,
  body: SchedulePostBody,
  answer: PostAnswer
}

/** The OpenAPI entry of the Schedule a post step's draft form. */
export const draftOperation: StepOperation = {
  ...schedulePostOperation,
  path: DRAFTS_PATH,
  operationId: "savePostDraft",
  summary: "Schedule a post: save a draft",
  description: scheduleDescription(true)
}

/** The OpenAPI entry of the Post published / failed trigger. */
export const postsOperation: StepOperation = {
  method: "get",
  path: POSTS_PATH,
  operationId: "listPosts",
  summary: "Post published / failed",
  description:
    "Polling trigger: the workspace's posts in the statuses asked (status=posted&status=partial for published, status=failed&status=partial for failed), newest first, paged. The rules of the Scheduling tools (read access, the Starter plan).",
  group: "Scheduling",
  write: false,
  query: PostsQuery,
  answer: PostsAnswer
}

const postFields = refusalIn({})

/**
 * The scheduling steps over `Scheduling`: `POST {scheduling_url}/mcp/schedule-post` and `/mcp/drafts` (a post or a
 * draft, as `svc_schedule_post`) and `GET {scheduling_url}/mcp/posts` (the Post published / failed trigger).
 */
export const PostRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | HttpFaceSettings | Scheduling
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeWorkspaceStepGate
    const scheduling = yield* Scheduling
    const { maxBodyBytes } = yield* HttpFaceSettings

    const schedule = (request: FaceRequest, draft: boolean) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Scheduling", write: true })
        const body = yield* readBody(request, maxBodyBytes, SchedulePostBody)
        const workspace = yield* steps.workspaceOf(
          principal,
          namedWorkspace({ workspace_id: body.workspace_id, workspaceId: body.workspaceId })
        )
        const at = body.scheduledAtIso ? new Date(body.scheduledAtIso) : undefined
        const post = yield* Effect.mapError(
          scheduling.schedulePost(workspace.id, principal.accountId, {
            text: body.text,
            platforms: body.platforms,
            scheduledAt: at,
            draft: draft || body.draft === true,
            media: body.media?.map((entry) =>
              typeof entry === "string" ? { id: entry } : { id: entry.id, altText: entry.alt_text ?? entry.altText }
            ),
            numberThread: body.numberThread,
            visibility: body.visibility,
            contentWarning: body.contentWarning
          }),
          postFields
        )
        return stepJson(200, encodePost({ ok: true, ...postRow(post) }))
      })

    const list = (request: FaceRequest, url: string) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Scheduling", write: false })
        const query = yield* readQuery(url, PostsQuery)
        const page = yield* pageRequestOf(query)
        const workspace = yield* steps.workspaceOf(principal, namedWorkspace(query))
        const posts = yield* scheduling.listPosts(workspace.id, { statuses: query.status }, page)
        return stepJson(200, encodePosts(pageAnswer(posts, page, postRow)))
      })

    yield* router.add("POST", SCHEDULE_POST_PATH, (request) =>
      answerStep(schedule(platformFaceRequest(request), false))
    )
    yield* router.add("POST", DRAFTS_PATH, (request) => answerStep(schedule(platformFaceRequest(request), true)))
    yield* router.add("GET", POSTS_PATH, (request) => answerStep(list(platformFaceRequest(request), request.url)))
  })
)
