import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { WorkspacesRepo } from "@svc/core/accounts"
import { AnalyticsRepo, checkFeedLink } from "@svc/core/analytics"
import { MailSigner } from "@svc/core/mail"
import { PostsRepo } from "@svc/core/scheduling"
import { now } from "@svc/core/shared"
import { Effect, type Layer, Option } from "effect"
import { PublicUrl } from "../config.js"
import { notePage } from "./pages.js"

/**
 * The own feed's link redirect, `GET /s/<handle>/posts/<post id>/go?to=<address>&sig=<signature>`: the feed pages and
 * feeds (post-feed.ts) write each web address in a post through it. It follows only a link this server signed for that
 * post (so it is no open redirect), counts the click for the post on the day (the feed's `clicks` metric), and answers
 * 302 to the address. Anything else is the feed's 404.
 */
export const FeedClickRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | WorkspacesRepo | PostsRepo | AnalyticsRepo | MailSigner
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const workspaces = yield* WorkspacesRepo
    const posts = yield* PostsRepo
    const analytics = yield* AnalyticsRepo
    const signer = yield* MailSigner
    const notFound = notePage({ base: url.base, title: "Not found", message: "There is no such page.", status: 404 })

    const workspaceOf = (handle: string) =>
      Effect.gen(function* () {
        const store = yield* workspaces.findStoreByHandle(handle.toLowerCase())
        if (Option.isSome(store)) return Option.some(store.value.workspaceId)
        if (!handle.startsWith("ws_")) return Option.none<string>()
        return Option.map(yield* workspaces.findById(handle), (w) => w.id)
      })

    const follow = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const params = yield* HttpLayerRouter.params
        const postId = params.postId ?? ""
        const query = new URL(request.url, url.base).searchParams
        const to = query.get("to") ?? ""
        const signature = query.get("sig") ?? ""
        if (!(yield* checkFeedLink(postId, to, signature).pipe(Effect.provideService(MailSigner, signer)))) {
          return notFound
        }
        const workspaceId = yield* workspaceOf(params.handle ?? "")
        if (Option.isNone(workspaceId)) return notFound
        if (Option.isNone(yield* posts.feedPost(workspaceId.value, postId))) return notFound
        yield* analytics.recordClick(workspaceId.value, postId, yield* now)
        return HttpServerResponse.empty({
          status: 302,
          headers: { location: to, "cache-control": "no-store", "referrer-policy": "no-referrer" }
        })
      })

    yield* router.add("GET", "/s/:handle/posts/:postId/go", (request) => follow(request))
  })
)
