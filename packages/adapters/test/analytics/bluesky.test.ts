/**
 * Bluesky analytics end to end, on a local AT Protocol network with an AppView (test/support/atproto-appview.ts) and
 * the test database: two posts go out through the Bluesky publisher, people on the network like, repost and reply to
 * them, and the metrics worker reads the counts through the account's PDS (which proxies `getPosts` to the AppView),
 * so `svc_list_analytics_posts` and `svc_get_analytics` show them.
 */
import { describe, expect, layer } from "@effect/vitest"
import { fetchDueMetrics } from "@svc/core/analytics"
import { PostsRepo, publishDuePosts, Scheduling } from "@svc/core/scheduling"
import { Effect, Layer, Option } from "effect"
import { makeBlueskyMetricsReader } from "../../src/analytics/bluesky.js"
import { makeBlueskyPublisher } from "../../src/publisher/bluesky.js"
import { callTool } from "../custom-ai/ask-support.js"
import { AtprotoAppView, AtprotoAppViewLive, atprotoAppViewTool } from "../support/atproto-appview.js"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"
import { skipWithout } from "../support/external-tool.js"
import { analyticsTestLayer } from "./support.js"

const skip = skipWithout("the Bluesky analytics tests on a local AppView", await atprotoAppViewTool())

const reader = makeBlueskyMetricsReader({ requestTimeout: "20 seconds" })
const testLayer = Layer.merge(
  analyticsTestLayer([makeBlueskyPublisher({ requestTimeout: "20 seconds" })], [reader]),
  AtprotoAppViewLive
)
const worker = { leaseMs: 60_000, concurrency: 4 }

type Listed = {
  readonly postId: string
  readonly text: string
  readonly likes: number | null
  readonly replies: number | null
  readonly reposts: number | null
  readonly quotes: number | null
  readonly views: number | null
  readonly clicks: number | null
  readonly platforms: ReadonlyArray<{ readonly platform: string; readonly url: string | null }>
}

describe.skipIf(skip)(`Bluesky analytics on a local AppView (${engineName})`, () => {
  layer(testLayer, { excludeTestServices: true, timeout: "180 seconds" })((it) => {
    it.effect("two published posts, liked and replied to on the network, show their counts", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoAppView
        const author = yield* network.createAccount("baker")
        const fan = yield* network.createAccount("crumbfan")
        const other = yield* network.createAccount("neighbour")
        const { principal, workspace } = yield* signUp({ plan: "starter" })
        const scheduling = yield* Scheduling
        yield* scheduling.connectAccount(workspace.id, "bluesky", network.pdsUrl, {
          identifier: author.handle,
          appPassword: author.appPassword
        })

        // Two posts through the Bluesky publisher.
        const publish = (text: string) =>
          Effect.gen(function* () {
            const draft = yield* callTool(principal, "svc_schedule_post", { text, platforms: ["bluesky"], draft: true })
            const id = (draft.post as { readonly id: string }).id
            yield* scheduling.publishNow(workspace.id, id)
            while ((yield* publishDuePosts(worker)) > 0) {}
            const delivery = Option.getOrThrow(yield* (yield* PostsRepo).find(workspace.id, id)).deliveries[0]
            expect(delivery?.status, delivery?.error ?? "").toBe("posted")
            return { id, uri: delivery?.remoteId ?? "" }
          })
        const first = yield* publish("Bread for breakfast, a thread about crumb")
        const second = yield* publish("Rye, second attempt")

        // People like, repost and reply on the network.
        const fanAgent = yield* network.agentFor(fan)
        const otherAgent = yield* network.agentFor(other)
        const cidOf = (uri: string) =>
          Effect.promise(() => fanAgent.app.bsky.feed.getPosts({ uris: [uri] })).pipe(
            Effect.map(({ data }) => data.posts[0]?.cid ?? "")
          )
        yield* network.settle
        const firstCid = yield* cidOf(first.uri)
        const secondCid = yield* cidOf(second.uri)
        yield* Effect.promise(() => fanAgent.like(first.uri, firstCid))
        yield* Effect.promise(() => otherAgent.like(first.uri, firstCid))
        yield* Effect.promise(() => otherAgent.repost(first.uri, firstCid))
        yield* Effect.promise(() =>
          fanAgent.post({
            text: "Looks great!",
            reply: { root: { uri: first.uri, cid: firstCid }, parent: { uri: first.uri, cid: firstCid } }
          })
        )
        yield* Effect.promise(() => otherAgent.like(second.uri, secondCid))
        yield* network.settle

        // The worker reads the counts through the account's PDS.
        expect(yield* fetchDueMetrics(worker)).toBe(2)
        const answer = yield* callTool(principal, "svc_list_analytics_posts", { sort: "likes" })
        expect(answer.ok, JSON.stringify(answer)).toBe(true)
        const posts = answer.posts as ReadonlyArray<Listed>
        expect(posts.map((p) => [p.postId, p.likes, p.replies, p.reposts, p.quotes])).toEqual([
          [first.id, 2, 1, 1, 0],
          [second.id, 1, 0, 0, 0]
        ])
        // Bluesky gives no views and counts no clicks: null, never 0.
        expect(posts[0]).toMatchObject({ views: null, clicks: null })
        expect(posts[0]?.platforms[0]?.url).toContain(`/post/${first.uri.split("/").pop()}`)

        const summary = yield* callTool(principal, "svc_get_analytics", { days: 1 })
        const likes = (summary.figures as ReadonlyArray<{ platform: string; metric: string; value: number | null }>)
          .filter((f) => f.metric === "likes")
          .map((f) => [f.platform, f.value])
        expect(likes).toEqual([
          ["all", 3],
          ["bluesky", 3]
        ])
      })
    )

    it.effect(
      "the reader answers each post the AppView shows, leaves out a deleted one, and refuses a bad password",
      () =>
        Effect.gen(function* () {
          const network = yield* AtprotoAppView
          const writer = yield* network.createAccount("ryewriter")
          const agent = yield* network.agentFor(writer)
          const kept = yield* Effect.promise(() => agent.post({ text: "Kept" }))
          const gone = yield* Effect.promise(() => agent.post({ text: "Deleted soon" }))
          yield* Effect.promise(() => agent.deletePost(gone.uri))
          yield* network.settle
          const account = {
            id: "sac_test",
            platform: "bluesky" as const,
            handle: writer.handle,
            serviceUrl: network.pdsUrl,
            credentials: { identifier: writer.handle, appPassword: writer.appPassword }
          }
          const read = yield* reader.read({ workspaceId: "ws_test", account, remoteIds: [kept.uri, gone.uri] })
          expect([...read.entries()]).toEqual([
            [kept.uri, { likes: 0, replies: 0, reposts: 0, quotes: 0, views: null, clicks: null }]
          ])
          const refused = yield* Effect.flip(
            reader.read({
              workspaceId: "ws_test",
              account: { ...account, credentials: { identifier: writer.handle, appPassword: "wrong-pass-word" } },
              remoteIds: [kept.uri]
            })
          )
          expect(refused.kind).toBe("credentials")
        })
    )
  })
})
