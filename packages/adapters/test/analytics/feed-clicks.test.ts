/**
 * The own feed's link clicks through the real HTTP face (a Node server on loopback, the feed pages and the redirect
 * routes over the test database): each web address in a feed post is written through our signed redirect, following
 * it counts a click for the post and answers 302 to the address, and the metrics worker turns the count into the
 * feed's `clicks` metric. A link we did not sign, or signed for another post, is the feed's 404: no open redirect.
 */
import { createServer } from "node:http"
import { createServer as createNetServer } from "node:net"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { expect, layer } from "@effect/vitest"
import { AnalyticsRepo, fetchDueMetrics } from "@svc/core/analytics"
import { publishDuePosts, Scheduling } from "@svc/core/scheduling"
import { Effect, Layer } from "effect"
import { PublicUrl } from "../../src/http/config.js"
import { FeedClickRoutes } from "../../src/http/public-pages/feed-clicks.js"
import { PostFeedRoutes } from "../../src/http/public-pages/post-feed.js"
import { callTool } from "../custom-ai/ask-support.js"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"
import { analyticsTestLayer } from "./support.js"

const testLayer = analyticsTestLayer([], [])
const worker = { leaseMs: 60_000, concurrency: 4 }

/** A TCP port free on 127.0.0.1 right now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createNetServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

/** The feed pages and the redirect served over the test core by a Node server; answers its address. */
const serveFeed = Effect.gen(function* () {
  const context = yield* Effect.context<Layer.Layer.Success<typeof testLayer>>()
  const port = yield* Effect.promise(freePort)
  const url = `http://127.0.0.1:${port}`
  const routes = Layer.mergeAll(PostFeedRoutes, FeedClickRoutes).pipe(
    Layer.provide(Layer.merge(Layer.succeedContext(context), PublicUrl.layer(url)))
  )
  yield* Layer.build(
    HttpLayerRouter.serve(routes, { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
    )
  )
  return url
})

const get = (url: string) => Effect.promise(() => fetch(url, { redirect: "manual" }))
const text = (response: Response) => Effect.promise(() => response.text())
const attributeText = (href: string) => href.replaceAll("&amp;", "&").replaceAll("&#38;", "&")

layer(testLayer, { excludeTestServices: true, timeout: "120 seconds" })(`feed link clicks (${engineName})`, (it) => {
  it.scoped("a click through a feed post's link is counted and redirected; unsigned links are not followed", () =>
    Effect.gen(function* () {
      const base = yield* serveFeed
      const { principal, workspace, store } = yield* signUp({ plan: "starter" })
      const target = "https://example.com/recipes/rye?from=feed&x=1"
      const draft = yield* callTool(principal, "svc_schedule_post", {
        text: `New recipe: ${target}\nAlso https://example.org/`,
        platforms: ["feed"],
        draft: true
      })
      const postId = (draft.post as { readonly id: string }).id
      yield* (yield* Scheduling).publishNow(workspace.id, postId)
      while ((yield* publishDuePosts(worker)) > 0) {}

      // The page writes both addresses through the redirect, signed for this post; the text still shows them.
      const page = yield* text(yield* get(`${base}/s/${store.handle}/posts/${postId}`))
      const hrefs = [...page.matchAll(/href="([^"]*\/go\?[^"]*)"/g)].map((m) => attributeText(m[1] ?? ""))
      expect(hrefs).toHaveLength(2)
      expect(page).toContain(">https://example.org/</a>")
      const link = new URL(hrefs[0] ?? "")
      expect(link.pathname).toBe(`/s/${store.handle}/posts/${postId}/go`)
      expect(link.searchParams.get("to")).toBe(target)
      // The feeds carry the same links.
      const rss = yield* text(yield* get(`${base}/s/${store.handle}/feed.xml`))
      expect(rss).toContain(`/s/${store.handle}/posts/${postId}/go?to=`)

      // Two clicks: each 302 to the address, not cached.
      for (const _ of [1, 2]) {
        const followed = yield* get(link.toString())
        expect(followed.status).toBe(302)
        expect(followed.headers.get("location")).toBe(target)
        expect(followed.headers.get("cache-control")).toBe("no-store")
      }
      const clicks = yield* (yield* AnalyticsRepo).feedClicks(workspace.id, [postId])
      expect(clicks.get(postId)).toBe(2)

      // Another address with this post's signature, the signature on another post, or none: not followed, not counted.
      const forged = new URL(link)
      forged.searchParams.set("to", "https://evil.example/")
      expect((yield* get(forged.toString())).status).toBe(404)
      const other = yield* callTool(principal, "svc_schedule_post", { text: "Other", platforms: ["feed"], draft: true })
      const otherId = (other.post as { readonly id: string }).id
      yield* (yield* Scheduling).publishNow(workspace.id, otherId)
      while ((yield* publishDuePosts(worker)) > 0) {}
      const moved = new URL(link)
      moved.pathname = `/s/${store.handle}/posts/${otherId}/go`
      expect((yield* get(moved.toString())).status).toBe(404)
      const unsigned = new URL(link)
      unsigned.searchParams.delete("sig")
      expect((yield* get(unsigned.toString())).status).toBe(404)
      expect((yield* get(`${base}/s/no-such-store/posts/${postId}/go${link.search}`)).status).toBe(404)
      expect((yield* (yield* AnalyticsRepo).feedClicks(workspace.id, [postId])).get(postId)).toBe(2)

      // The worker makes them the feed's clicks metric.
      while ((yield* fetchDueMetrics(worker)) > 0) {}
      const listed = yield* callTool(principal, "svc_list_analytics_posts", { platform: "feed", sort: "clicks" })
      expect(listed.posts).toMatchObject([
        { postId, clicks: 2, likes: null, views: null },
        { postId: otherId, clicks: 0 }
      ])
    })
  )
})
