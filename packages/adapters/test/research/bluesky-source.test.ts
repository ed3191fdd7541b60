/**
 * The Bluesky research source against a real local AT Protocol network with an AppView (test/support/
 * atproto-appview.ts): accounts, posts, likes, reposts, quotes, replies and follows are seeded through the PDS, and
 * the source reads them back from the AppView as it reads the public one. How it fails is checked against local HTTP
 * servers answering as an XRPC server does when it is overloaded, limits the rate or never answers.
 *
 * PROVENANCE of those error answers: the XRPC error body `{"error","message"}` and the `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` (epoch seconds) and `RateLimit-Policy` headers are what `@atproto/xrpc-server`
 * sends (its `XRPCError` and rate limiter; described at https://docs.bsky.app/docs/advanced-guides/rate-limits and
 * https://atproto.com/specs/xrpc#rate-limits); `Retry-After` is what a proxy in front of an AppView adds.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { AtpAgent, BlobRef } from "@atproto/api"
import { describe, expect, it, layer } from "@effect/vitest"
import type { CreatorKey, SocialPost, SocialSource } from "@svc/core/research"
import { SourceFailure } from "@svc/core/research"
import { Effect, Exit, Option } from "effect"
import sharp from "sharp"
import { actorNameOf, makeBlueskySource, postNameOf } from "../../src/research/bluesky-source.js"
import {
  type AtprotoAccount,
  AtprotoAppView,
  AtprotoAppViewLive,
  atprotoAppViewTool
} from "../support/atproto-appview.js"
import { skipWithout } from "../support/external-tool.js"

const skip = skipWithout("the Bluesky research source's tests", await atprotoAppViewTool())

const uploadImage = (agent: AtpAgent, background: string) =>
  Effect.promise(async (): Promise<BlobRef> => {
    const png = await sharp({ create: { width: 8, height: 6, channels: 3, background } })
      .png()
      .toBuffer()
    const { data } = await agent.uploadBlob(new Uint8Array(png), { encoding: "image/png" })
    return data.blob
  })

const rkeyOf = (uri: string) => uri.split("/").pop() ?? ""

const failureOf = <A>(effect: Effect.Effect<A, SourceFailure>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value)}`)
    const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
    if (!(failure instanceof SourceFailure)) throw new Error(`expected a SourceFailure, got ${String(exit.cause)}`)
    return failure
  })

const some = <A>(option: Option.Option<A>): A => {
  if (Option.isNone(option)) throw new Error("expected a value, got none")
  return option.value
}

describe("how a person names a Bluesky account or post", () => {
  it("recognises handles, DIDs, profile and post addresses and at:// URIs, and leaves other sites alone", () => {
    expect(actorNameOf("alice.bsky.social")).toEqual({ actor: "alice.bsky.social" })
    expect(actorNameOf("  @Alice.BSKY.social ")).toEqual({ actor: "alice.bsky.social" })
    expect(actorNameOf("did:plc:ewvi7nxzyoun6zhxrhs64oiz")).toEqual({ actor: "did:plc:ewvi7nxzyoun6zhxrhs64oiz" })
    expect(actorNameOf("https://bsky.app/profile/alice.bsky.social")).toEqual({ actor: "alice.bsky.social" })
    expect(actorNameOf("bsky.app/profile/alice.bsky.social/post/3kabc")).toEqual({ actor: "alice.bsky.social" })
    expect(actorNameOf("at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3kabc")).toEqual({
      actor: "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    })
    expect(actorNameOf("@alice")).toEqual({ name: "alice" })
    expect(actorNameOf("Alice Example")).toEqual({ name: "Alice Example" })
    expect(actorNameOf("https://example.substack.com/")).toBeUndefined()
    expect(actorNameOf("https://bsky.app/search?q=x")).toBeUndefined()
    expect(actorNameOf("https://www.youtube.com/@alice")).toBeUndefined()
    expect(actorNameOf("")).toBeUndefined()

    expect(postNameOf("https://bsky.app/profile/alice.bsky.social/post/3kabc")).toEqual({
      actor: "alice.bsky.social",
      rkey: "3kabc"
    })
    expect(postNameOf("at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3kabc")).toEqual({
      actor: "did:plc:ewvi7nxzyoun6zhxrhs64oiz",
      rkey: "3kabc"
    })
    expect(postNameOf("https://bsky.app/profile/alice.bsky.social")).toBeUndefined()
    expect(postNameOf("at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.like/3kabc")).toBeUndefined()
    expect(postNameOf("https://example.com/profile/alice.bsky.social/post/3kabc")).toBeUndefined()
  })
})

/** A local server answering every request with `answer`, for the source's failures. */
const withServer = <A, E>(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
  use: (url: string) => Effect.Effect<A, E>
) =>
  Effect.acquireUseRelease(
    Effect.promise(
      () =>
        new Promise<Server>((resolve) => {
          const server = createServer(answer)
          server.listen(0, "127.0.0.1", () => resolve(server))
        })
    ),
    (server) => use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    (server) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
      )
  )

const xrpcError = (response: ServerResponse, status: number, error: string, headers: Record<string, string> = {}) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify({ error, message: `${error} (test)` }))
}

describe("the Bluesky source when the AppView fails", () => {
  it.live("a 5xx is unavailable, naming the AppView and the status", () =>
    withServer(
      (_, response) => xrpcError(response, 503, "ServiceUnavailable"),
      (url) =>
        Effect.gen(function* () {
          const source = makeBlueskySource({ appViewUrl: url })
          const failure = yield* failureOf(source.creators?.resolve({ text: "alice.bsky.social" }) ?? Effect.never)
          expect(failure.kind).toBe("unavailable")
          expect(failure.message).toContain(url)
          expect(failure.message).toContain("503")
        })
    )
  )

  it.live("a 429 is rate-limited with the wait from Retry-After, or else from RateLimit-Reset", () =>
    Effect.gen(function* () {
      yield* withServer(
        (_, response) => xrpcError(response, 429, "RateLimitExceeded", { "retry-after": "42" }),
        (url) =>
          Effect.gen(function* () {
            const source = makeBlueskySource({ appViewUrl: url })
            const failure = yield* failureOf(source.search?.posts("bread", 10) ?? Effect.never)
            expect(failure.kind).toBe("rate-limited")
            expect(failure.retryAfterMs).toBe(42_000)
          })
      )
      const resetAt = Math.floor(Date.now() / 1000) + 120
      yield* withServer(
        (_, response) =>
          xrpcError(response, 429, "RateLimitExceeded", {
            "ratelimit-limit": "3000",
            "ratelimit-remaining": "0",
            "ratelimit-reset": String(resetAt),
            "ratelimit-policy": "3000;w=300"
          }),
        (url) =>
          Effect.gen(function* () {
            const source = makeBlueskySource({ appViewUrl: url })
            const failure = yield* failureOf(
              source.posts?.ofCreator({ platform: "bluesky", id: "did:plc:x", handle: "x.test" }, 10) ?? Effect.never
            )
            expect(failure.kind).toBe("rate-limited")
            expect(failure.retryAfterMs).toBeGreaterThan(110_000)
            expect(failure.retryAfterMs).toBeLessThanOrEqual(120_000)
          })
      )
    })
  )

  it.live("a refusal is refused; an AppView that never answers or is not there is unavailable", () =>
    Effect.gen(function* () {
      yield* withServer(
        (_, response) => xrpcError(response, 403, "Forbidden"),
        (url) =>
          Effect.gen(function* () {
            const failure = yield* failureOf(
              makeBlueskySource({ appViewUrl: url }).search?.posts("bread", 10) ?? Effect.never
            )
            expect(failure.kind).toBe("refused")
          })
      )
      yield* withServer(
        () => undefined,
        (url) =>
          Effect.gen(function* () {
            const source = makeBlueskySource({ appViewUrl: url, deadline: "300 millis" })
            const failure = yield* failureOf(source.creators?.search("bread", 10) ?? Effect.never)
            expect(failure.kind).toBe("unavailable")
            expect(failure.message).toContain("did not answer within")
          })
      )
      const closed = yield* withServer(
        () => undefined,
        (url) => Effect.succeed(url)
      )
      const failure = yield* failureOf(
        makeBlueskySource({ appViewUrl: closed }).creators?.resolve({ text: "alice.test" }) ?? Effect.never
      )
      expect(failure.kind).toBe("unavailable")
      expect(failure.message).toContain("ECONNREFUSED")
    })
  )
})

describe.skipIf(skip)("the Bluesky source on a local AT Protocol network with an AppView", () => {
  layer(AtprotoAppViewLive, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
    /** Seeded once for the file: Bob's posts with their likes, reposts, quotes and replies; Alice's follows. */
    interface Seeded {
      readonly source: SocialSource
      readonly alice: AtprotoAccount
      readonly bob: AtprotoAccount
      readonly carol: AtprotoAccount
      readonly posts: ReadonlyArray<{ readonly uri: string; readonly cid: string }>
      readonly bobKey: CreatorKey
    }
    let seeded: Seeded | undefined

    const seed = Effect.gen(function* () {
      if (seeded !== undefined) return seeded
      const network = yield* AtprotoAppView
      const alice = yield* network.createAccount("alice")
      const bob = yield* network.createAccount("bob")
      const carol = yield* network.createAccount("carol-c")
      const [aliceAgent, bobAgent, carolAgent] = yield* Effect.all([
        network.agentFor(alice),
        network.agentFor(bob),
        network.agentFor(carol)
      ])
      yield* Effect.promise(async () => {
        await bobAgent.upsertProfile(() => ({ displayName: "Bob Baker", description: "Bakes bread." }))
        await carolAgent.upsertProfile(() => ({ displayName: "Carol" }))
      })
      const blue = yield* uploadImage(bobAgent, "#3366cc")
      const orange = yield* uploadImage(bobAgent, "#cc6633")
      const posts = yield* Effect.promise(async () => {
        const p1 = await bobAgent.post({ text: "Sourdough starter day one", createdAt: "2025-03-01T09:00:00.000Z" })
        const p2 = await bobAgent.post({
          text: "Two loaves from the weekend bake",
          createdAt: "2025-03-02T10:30:00.000Z",
          embed: {
            $type: "app.bsky.embed.images",
            images: [
              { image: blue, alt: "loaf one" },
              { image: orange, alt: "loaf two" }
            ]
          }
        })
        const p3 = await bobAgent.post({
          text: "The crumb, close up",
          createdAt: "2025-03-03T08:00:00.000Z",
          embed: { $type: "app.bsky.embed.images", images: [{ image: blue, alt: "crumb" }] }
        })
        const p4 = await bobAgent.post({
          text: "My notes on hydration",
          createdAt: "2025-03-04T12:00:00.000Z",
          embed: {
            $type: "app.bsky.embed.external",
            external: { uri: "https://example.com/hydration", title: "Hydration", description: "Notes" }
          }
        })
        const p5 = await bobAgent.post({ text: "Rye flour is hard to find", createdAt: "2025-03-05T18:15:00.000Z" })
        // Bob's reply in his own thread, and his repost of Carol's post: neither is one of his posts.
        await bobAgent.post({
          text: "More on that soon",
          createdAt: "2025-03-05T18:20:00.000Z",
          reply: { root: { uri: p5.uri, cid: p5.cid }, parent: { uri: p5.uri, cid: p5.cid } }
        })
        const carolPost = await carolAgent.post({ text: "Soup season", createdAt: "2025-03-04T07:00:00.000Z" })
        await bobAgent.repost(carolPost.uri, carolPost.cid)
        await aliceAgent.follow(bob.did)
        await aliceAgent.follow(carol.did)
        await carolAgent.follow(bob.did)
        await aliceAgent.like(p2.uri, p2.cid)
        await carolAgent.like(p2.uri, p2.cid)
        await aliceAgent.like(p1.uri, p1.cid)
        await aliceAgent.repost(p2.uri, p2.cid)
        await aliceAgent.post({
          text: "Lovely loaves",
          reply: { root: { uri: p2.uri, cid: p2.cid }, parent: { uri: p2.uri, cid: p2.cid } }
        })
        await carolAgent.post({
          text: "Start here",
          embed: { $type: "app.bsky.embed.record", record: { uri: p1.uri, cid: p1.cid } }
        })
        return [p1, p2, p3, p4, p5]
      })
      yield* network.settle
      // Pages of two, so reading Bob's five posts (with a reply and a repost among them) takes several pages.
      const source = makeBlueskySource({ appViewUrl: network.appViewUrl, pageSize: 2 })
      seeded = { source, alice, bob, carol, posts, bobKey: { platform: "bluesky", id: bob.did, handle: bob.handle } }
      return seeded
    })

    it.effect("resolves a creator by handle, DID, address, at:// URI or name, with the profile's counts", () =>
      Effect.gen(function* () {
        const { source, bob, carol } = yield* seed
        const resolve = (text: string) => source.creators?.resolve({ text }) ?? Effect.never
        const expected = {
          platform: "bluesky",
          id: bob.did,
          handle: "bob.test",
          name: "Bob Baker",
          bio: "Bakes bread.",
          url: "https://bsky.app/profile/bob.test",
          avatarUrl: null,
          followers: 2,
          following: 0,
          posts: 6,
          source: "bluesky"
        }
        for (const text of [
          "bob.test",
          "@bob.test",
          bob.did,
          "https://bsky.app/profile/bob.test",
          `https://bsky.app/profile/${bob.did}/post/3kabc`,
          `at://${bob.did}`,
          "@bob"
        ]) {
          const found = Option.getOrNull(yield* resolve(text))
          expect({ text, creator: found === null ? null : { ...found } }).toEqual({ text, creator: expected })
        }
        // A name is searched, and matches a handle's first label (above) or a display name. (The local AppView's
        // account search looks at handles only; the public one looks at display names too.)
        expect(Option.map(yield* resolve("carol"), (creator) => creator.id)).toEqual(Option.some(carol.did))
        expect(yield* resolve("nobody.test")).toEqual(Option.none())
        expect(yield* resolve("did:plc:aaaaaaaaaaaaaaaaaaaaaaaa")).toEqual(Option.none())
        expect(yield* resolve("Nobody At All")).toEqual(Option.none())
        expect(yield* resolve("https://example.com/profile/bob.test")).toEqual(Option.none())
      })
    )

    it.effect("searches creators, with their full profiles' counts", () =>
      Effect.gen(function* () {
        const { source, bob, carol } = yield* seed
        const found = yield* source.creators?.search("carol", 10) ?? Effect.never
        expect(found.map((c) => ({ id: c.id, name: c.name, followers: c.followers }))).toEqual([
          { id: carol.did, name: "Carol", followers: 1 }
        ])
        const bobs = yield* source.creators?.search("bob", 10) ?? Effect.never
        expect(bobs.map((c) => c.id)).toContain(bob.did)
        expect(yield* source.creators?.search("  ", 10) ?? Effect.never).toEqual([])
      })
    )

    it.effect("reads a creator's own posts newest first, paged, with engagement, format, images and address", () =>
      Effect.gen(function* () {
        const { source, bobKey, posts } = yield* seed
        const read = yield* source.posts?.ofCreator(bobKey, 50) ?? Effect.never
        const row = (post: SocialPost) => ({
          id: post.id,
          url: post.url,
          text: post.text,
          format: post.format,
          mediaCount: post.mediaCount,
          createdAt: post.createdAt?.toISOString(),
          metrics: post.metrics,
          author: post.author
        })
        const url = (i: number) => `https://bsky.app/profile/bob.test/post/${rkeyOf(posts[i]?.uri ?? "")}`
        const author = { handle: "bob.test", name: "Bob Baker" }
        const metrics = (likes: number, replies: number, reposts: number, quotes: number) => ({
          likes,
          replies,
          reposts,
          quotes,
          views: null
        })
        expect(read.map(row)).toEqual([
          {
            id: posts[4]?.uri,
            url: url(4),
            text: "Rye flour is hard to find",
            format: "text",
            mediaCount: 0,
            createdAt: "2025-03-05T18:15:00.000Z",
            metrics: metrics(0, 1, 0, 0),
            author
          },
          {
            id: posts[3]?.uri,
            url: url(3),
            text: "My notes on hydration",
            format: "link",
            mediaCount: 0,
            createdAt: "2025-03-04T12:00:00.000Z",
            metrics: metrics(0, 0, 0, 0),
            author
          },
          {
            id: posts[2]?.uri,
            url: url(2),
            text: "The crumb, close up",
            format: "image",
            mediaCount: 1,
            createdAt: "2025-03-03T08:00:00.000Z",
            metrics: metrics(0, 0, 0, 0),
            author
          },
          {
            id: posts[1]?.uri,
            url: url(1),
            text: "Two loaves from the weekend bake",
            format: "carousel",
            mediaCount: 2,
            createdAt: "2025-03-02T10:30:00.000Z",
            metrics: metrics(2, 1, 1, 0),
            author
          },
          {
            id: posts[0]?.uri,
            url: url(0),
            text: "Sourdough starter day one",
            format: "text",
            mediaCount: 0,
            createdAt: "2025-03-01T09:00:00.000Z",
            metrics: metrics(1, 0, 0, 1),
            author
          }
        ])
        expect(
          read.every((post) => post.platform === "bluesky" && post.source === "bluesky" && post.title === null)
        ).toBe(true)

        const latestTwo = yield* source.posts?.ofCreator(bobKey, 2) ?? Effect.never
        expect(latestTwo.map((post) => post.id)).toEqual([posts[4]?.uri, posts[3]?.uri])
        const unknown = yield* source.posts?.ofCreator(
          { platform: "bluesky", id: "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", handle: "gone.test" },
          10
        ) ?? Effect.never
        expect(unknown).toEqual([])
      })
    )

    it.effect("reads one post by its bsky.app address or at:// URI; an unknown one is none", () =>
      Effect.gen(function* () {
        const { source, bob, posts } = yield* seed
        const read = (text: string) => source.posts?.read({ text }) ?? Effect.never
        const second = posts[1]
        const byUrl = some(yield* read(`https://bsky.app/profile/bob.test/post/${rkeyOf(second?.uri ?? "")}`))
        expect({ id: byUrl.id, format: byUrl.format, likes: byUrl.metrics.likes }).toEqual({
          id: second?.uri,
          format: "carousel",
          likes: 2
        })
        expect(some(yield* read(second?.uri ?? "")).id).toBe(second?.uri)
        expect(some(yield* read(`https://bsky.app/profile/${bob.did}/post/${rkeyOf(second?.uri ?? "")}`)).id).toBe(
          second?.uri
        )
        expect(yield* read(`at://${bob.did}/app.bsky.feed.post/3zzzzzzzzzzzz`)).toEqual(Option.none())
        expect(yield* read("https://bsky.app/profile/nobody.test/post/3zzzzzzzzzzzz")).toEqual(Option.none())
        expect(yield* read("https://example.com/a-post")).toEqual(Option.none())
      })
    )

    it.effect("searches posts", () =>
      Effect.gen(function* () {
        const { source, posts } = yield* seed
        const found = yield* source.search?.posts("weekend", 10) ?? Effect.never
        expect(found.map((post) => post.id)).toEqual([posts[1]?.uri])
        // Bob's post and Alice's reply to it.
        const both = yield* source.search?.posts("loaves", 10) ?? Effect.never
        expect(both.map((post) => post.author.handle).sort()).toEqual(["alice.test", "bob.test"])
        expect(yield* source.search?.posts("", 10) ?? Effect.never).toEqual([])
      })
    )

    it.effect("lists whom a creator follows, with their counts; an unknown creator follows no one", () =>
      Effect.gen(function* () {
        const { source, alice, bob, carol } = yield* seed
        const follows = yield* source.follows?.of({ platform: "bluesky", id: alice.did, handle: alice.handle }, 10) ??
          Effect.never
        expect(
          follows
            .map((c) => ({ id: c.id, name: c.name, followers: c.followers, posts: c.posts }))
            .sort((a, b) => a.id.localeCompare(b.id))
        ).toEqual(
          [
            { id: bob.did, name: "Bob Baker", followers: 2, posts: 6 },
            { id: carol.did, name: "Carol", followers: 1, posts: 2 }
          ].sort((a, b) => a.id.localeCompare(b.id))
        )
        const none = yield* source.follows?.of(
          { platform: "bluesky", id: "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", handle: "gone.test" },
          10
        ) ?? Effect.never
        expect(none).toEqual([])
      })
    )
  })
})
