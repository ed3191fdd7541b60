/**
 * The local AT Protocol network with an AppView (test/support/atproto-appview.ts) that the research, analytics and
 * auto-DM tests stand on: what is seeded through the PDS as people would write it is read back from the AppView with
 * @atproto/api, as a client of the public AppView reads it.
 */
import type { AppBskyEmbedImages, AppBskyFeedDefs, AtpAgent } from "@atproto/api"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import sharp from "sharp"
import { AtprotoAppView, AtprotoAppViewLive, atprotoAppViewTool } from "../support/atproto-appview.js"
import { skipWithout } from "../support/external-tool.js"

const skip = skipWithout("the tests on a local AT Protocol network with an AppView", await atprotoAppViewTool())

/** A small PNG of one colour, uploaded as a blob of the agent's account. */
const uploadImage = (agent: AtpAgent, background: string) =>
  Effect.promise(async () => {
    const png = await sharp({ create: { width: 8, height: 6, channels: 3, background } })
      .png()
      .toBuffer()
    const { data } = await agent.uploadBlob(new Uint8Array(png), { encoding: "image/png" })
    return data.blob
  })

describe.skipIf(skip)("a local AT Protocol network with an AppView", () => {
  layer(AtprotoAppViewLive, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
    it.effect("answers profiles, feeds with counts, follows, search, threads and notifications of seeded data", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoAppView
        const alice = yield* network.createAccount("alice")
        const bob = yield* network.createAccount("bob")
        const aliceAgent = yield* network.agentFor(alice)
        const bobAgent = yield* network.agentFor(bob)

        // Bob writes a profile and three posts with given times (one with two images); Alice follows him, likes two
        // posts, reposts one, replies to one and mentions him in a post of her own.
        yield* Effect.promise(() =>
          bobAgent.upsertProfile(() => ({ displayName: "Bob Baker", description: "Bakes bread and writes about it." }))
        )
        const images = [yield* uploadImage(bobAgent, "#3366cc"), yield* uploadImage(bobAgent, "#cc6633")]
        const first = yield* Effect.promise(() =>
          bobAgent.post({ text: "Sourdough starter day one", createdAt: "2025-03-01T09:00:00.000Z" })
        )
        const second = yield* Effect.promise(() =>
          bobAgent.post({
            text: "Two loaves from the weekend bake",
            createdAt: "2025-03-02T10:30:00.000Z",
            embed: {
              $type: "app.bsky.embed.images",
              images: images.map((image, index) => ({ image, alt: `loaf ${index + 1}` }))
            }
          })
        )
        const third = yield* Effect.promise(() =>
          bobAgent.post({ text: "Rye flour is hard to find", createdAt: "2025-03-03T18:15:00.000Z" })
        )
        yield* Effect.promise(async () => {
          await aliceAgent.follow(bob.did)
          await aliceAgent.like(first.uri, first.cid)
          await aliceAgent.like(second.uri, second.cid)
          await aliceAgent.repost(second.uri, second.cid)
          await aliceAgent.post({
            text: "They look great",
            reply: { root: { uri: second.uri, cid: second.cid }, parent: { uri: second.uri, cid: second.cid } }
          })
          // A mention in a reply to Bob is notified once, as a mention: this one stands alone.
          await aliceAgent.post({
            text: "Learning to bake with @bob.test",
            facets: [
              {
                index: { byteStart: 22, byteEnd: 31 },
                features: [{ $type: "app.bsky.richtext.facet#mention", did: bob.did }]
              }
            ]
          })
        })
        yield* network.settle

        const appView = network.publicAgent()
        const read = <A>(call: () => Promise<{ data: A }>) => Effect.promise(() => call().then(({ data }) => data))

        const profile = yield* read(() => appView.app.bsky.actor.getProfile({ actor: bob.handle }))
        expect(profile).toMatchObject({
          did: bob.did,
          handle: "bob.test",
          displayName: "Bob Baker",
          description: "Bakes bread and writes about it.",
          followersCount: 1,
          followsCount: 0,
          postsCount: 3
        })

        const feed = yield* read(() =>
          appView.app.bsky.feed.getAuthorFeed({ actor: bob.did, filter: "posts_no_replies", limit: 10 })
        )
        const byUri = new Map(
          feed.feed.filter((item) => item.reason === undefined).map((item) => [item.post.uri, item.post])
        )
        expect([...byUri.keys()]).toEqual([third.uri, second.uri, first.uri])
        const counts = (post: AppBskyFeedDefs.PostView | undefined) => ({
          likes: post?.likeCount,
          replies: post?.replyCount,
          reposts: post?.repostCount,
          quotes: post?.quoteCount
        })
        expect(counts(byUri.get(first.uri))).toEqual({ likes: 1, replies: 0, reposts: 0, quotes: 0 })
        expect(counts(byUri.get(second.uri))).toEqual({ likes: 1, replies: 1, reposts: 1, quotes: 0 })
        expect(counts(byUri.get(third.uri))).toEqual({ likes: 0, replies: 0, reposts: 0, quotes: 0 })
        const embed = byUri.get(second.uri)?.embed as AppBskyEmbedImages.View | undefined
        expect(embed?.$type).toBe("app.bsky.embed.images#view")
        expect(embed?.images.map((image) => image.alt)).toEqual(["loaf 1", "loaf 2"])
        expect(byUri.get(first.uri)?.record).toMatchObject({ createdAt: "2025-03-01T09:00:00.000Z" })

        const follows = yield* read(() => appView.app.bsky.graph.getFollows({ actor: alice.handle }))
        expect(follows.follows.map((actor) => actor.did)).toEqual([bob.did])

        const found = yield* read(() => appView.app.bsky.feed.searchPosts({ q: "loaves" }))
        expect(found.posts.map((post) => post.uri)).toEqual([second.uri])

        const actors = yield* read(() => appView.app.bsky.actor.searchActors({ q: "bob" }))
        expect(actors.actors.map((actor) => actor.did)).toContain(bob.did)

        const thread = yield* read(() => appView.app.bsky.feed.getPostThread({ uri: second.uri }))
        const replies = (thread.thread as AppBskyFeedDefs.ThreadViewPost).replies ?? []
        expect(replies.map((reply) => (reply as AppBskyFeedDefs.ThreadViewPost).post.author.did)).toEqual([alice.did])

        // Notifications need the account: Bob's agent asks his PDS, which proxies to the AppView.
        const notifications = yield* read(() => bobAgent.app.bsky.notification.listNotifications({ limit: 20 }))
        expect(notifications.notifications.map((n) => n.reason).sort()).toEqual(
          ["follow", "like", "like", "mention", "reply", "repost"].sort()
        )
        expect(new Set(notifications.notifications.map((n) => n.author.did))).toEqual(new Set([alice.did]))
      })
    )
  })
})
