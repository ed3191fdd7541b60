import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { BrowserSessions } from "@svc/core/auth"
import { RateLimiter } from "@svc/core/limits"
import { type MediaAsset, MediaLibrary } from "@svc/core/media"
import type { Forbidden, NotFound } from "@svc/core/shared"
import { type LessonView, type NoSuchLesson, StoreCourses } from "@svc/core/store"
import { Effect, type Layer, Option } from "effect"
import { errorPages, redirectTo } from "../browser/index.js"
import { PublicUrl } from "../config.js"
import { notePage, plausibleLinkPart } from "../public-pages/pages.js"
import { makePublicPost } from "../public-pages/public-post.js"
import { coursePage, type LessonNotice, learnerLinks, lessonPage } from "./course-pages.js"

const plausible = plausibleLinkPart

const NOTICES: ReadonlySet<string> = new Set(["finished", "finished-course", "asked"])

/**
 * A learner's course pages, opened from the link of their access email: `/learn/<learner>?k=<key>` (the outline and
 * their progress), `/learn/<learner>/<lesson>` (a lesson, its questions), posts to finish a lesson or ask on it, and
 * the lesson's media. The key is the learner's secret, so the forms need no session token; a forged link is not found
 * (404), a lesson of another course too, and a learner whose access ended (refunded, removed) is told so (403). Posts
 * must come from our own origin, and each address may post only so often to one link.
 */
export const CourseRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | BrowserSessions | RateLimiter | StoreCourses | MediaLibrary
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const courses = yield* StoreCourses
    const media = yield* MediaLibrary
    const admitted = makePublicPost(url, yield* BrowserSessions, yield* RateLimiter)
    const errors = errorPages(url.base)

    const linkOf = (request: HttpServerRequest) =>
      Effect.map(HttpLayerRouter.params, (params) => {
        const search = new URL(request.url, url.base).searchParams
        const id = params.learner ?? ""
        const key = search.get("k") ?? ""
        const lessonId = params.lesson ?? ""
        const notice = search.get("n") ?? ""
        return {
          id,
          key,
          lessonId,
          notice: NOTICES.has(notice) ? (notice as LessonNotice) : undefined,
          links: learnerLinks(url.base, id, key),
          plausible: plausible(id) && plausible(key) && (params.lesson === undefined || plausible(lessonId))
        }
      })

    const notFound = notePage({
      base: url.base,
      title: "Not found",
      message: "There is no such course page. Open the link from your email as it is.",
      status: 404
    })
    const noLesson = notePage({
      base: url.base,
      title: "Not found",
      message: "This course has no such lesson: it may have been removed. Go back to the course's page.",
      status: 404
    })
    const ended = notePage({
      base: url.base,
      title: "Access ended",
      message: "Your access to this course has ended. Ask the seller if you think it should not have.",
      status: 403
    })
    // What a learner's page answers when the link, the lesson or the access is not good.
    const refusal = (error: NotFound | NoSuchLesson | Forbidden) =>
      Effect.succeed(error._tag === "NotFound" ? notFound : error._tag === "NoSuchLesson" ? noLesson : ended)

    // The lesson's media asset, while it is still in the workspace's library.
    const assetOf = (view: Pick<LessonView, "course" | "lesson">) =>
      view.lesson.mediaId === null
        ? Effect.succeed<MediaAsset | null>(null)
        : media.findReady(view.course.learner.workspaceId, [view.lesson.mediaId]).pipe(
            Effect.map((found) => found[0] ?? null),
            Effect.orElseSucceed(() => null)
          )

    const outline = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const link = yield* linkOf(request)
        if (!link.plausible) return notFound
        return yield* courses.open(link.id, link.key).pipe(
          Effect.map((course) => (course.hasAccess ? coursePage(url.base, link.links, course) : ended)),
          Effect.catchAll(refusal)
        )
      })

    const lesson = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const link = yield* linkOf(request)
        if (!link.plausible) return notFound
        return yield* courses.lesson(link.id, link.key, link.lessonId).pipe(
          Effect.flatMap((view) =>
            Effect.map(assetOf(view), (asset) =>
              lessonPage(url.base, link.links, view, asset, { ...(link.notice ? { notice: link.notice } : {}) })
            )
          ),
          Effect.catchAll(refusal)
        )
      })

    const complete = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const link = yield* linkOf(request)
        if (!link.plausible) return notFound
        const admit = yield* admitted(request, `learn:${link.id}`, "lesson", { spendToken: false })
        if ("refused" in admit) return admit.refused
        return yield* courses.complete(link.id, link.key, link.lessonId).pipe(
          Effect.map((done) =>
            redirectTo(
              `${link.links.lesson(link.lessonId)}&n=${done.finishedCourse ? "finished-course" : "finished"}`,
              303
            )
          ),
          Effect.catchAll(refusal)
        )
      })

    const ask = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const link = yield* linkOf(request)
        if (!link.plausible) return notFound
        const admit = yield* admitted(request, `learn:${link.id}`, "lesson-question", { spendToken: false })
        if ("refused" in admit) return admit.refused
        const fields = admit.fields
        const typed = { text: fields.get("text") ?? "", name: fields.get("name") ?? "" }
        // Filled in by a bot: nothing is asked, and the page says nothing a bot could learn from.
        if ((fields.get("website") ?? "") !== "") return notFound
        return yield* courses.ask(link.id, link.key, link.lessonId, typed).pipe(
          Effect.map(() => redirectTo(`${link.links.lesson(link.lessonId)}&n=asked#questions`, 303)),
          Effect.catchTags({
            Conflict: (conflict) =>
              Effect.succeed(
                notePage({ base: url.base, title: "Too many questions", message: conflict.message, status: 429 })
              ),
            InvalidInput: (invalid) =>
              courses.lesson(link.id, link.key, link.lessonId).pipe(
                Effect.flatMap((view) =>
                  Effect.map(assetOf(view), (asset) =>
                    lessonPage(url.base, link.links, view, asset, {
                      errors: Object.fromEntries(invalid.errors.map((e) => [e.path, e.message])),
                      typed,
                      status: 422
                    })
                  )
                ),
                Effect.catchAll(refusal)
              )
          }),
          Effect.catchAll(refusal)
        )
      })

    /** The lesson's media, to learners who hold the course only; never cached by a shared cache. */
    const lessonMedia = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const link = yield* linkOf(request)
        if (!link.plausible) return notFound
        const view = yield* Effect.option(courses.lessonOf(link.id, link.key, link.lessonId))
        if (Option.isNone(view)) return notFound
        const asset = yield* assetOf(view.value)
        if (asset === null) return notFound
        return HttpServerResponse.stream(media.open(asset), {
          contentType: asset.mimeType,
          contentLength: asset.bytes,
          headers: {
            "cache-control": "private, max-age=300",
            "x-content-type-options": "nosniff",
            "content-security-policy": "default-src 'none'; sandbox",
            "cross-origin-resource-policy": "same-origin"
          }
        })
      })

    yield* router.addAll([
      HttpLayerRouter.route("GET", "/learn/:learner", (request) => errors.answerDefects(outline(request))),
      HttpLayerRouter.route("GET", "/learn/:learner/:lesson", (request) => errors.answerDefects(lesson(request))),
      HttpLayerRouter.route("POST", "/learn/:learner/:lesson/complete", (request) =>
        errors.answerDefects(complete(request))
      ),
      HttpLayerRouter.route("POST", "/learn/:learner/:lesson/questions", (request) =>
        errors.answerDefects(ask(request))
      ),
      HttpLayerRouter.route("GET", "/learn/:learner/:lesson/media", (request) =>
        errors.answerDefects(lessonMedia(request))
      )
    ])
  })
)
