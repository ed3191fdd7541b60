/**
 * The Bluesky publisher against a real local AT Protocol network (a PDS and a PLC directory, test/support): what it
 * writes is read back over the protocol itself (`com.atproto.repo.getRecord`/`listRecords`, `com.atproto.sync.getBlob`).
 */
import { randomBytes, randomUUID } from "node:crypto"
import { createServer, type Socket } from "node:net"
import { type AppBskyFeedPost, AtUri, type AtpAgent, BlobRef } from "@atproto/api"
import { TID } from "@atproto/common-web"
import { describe, expect, it, layer } from "@effect/vitest"
import {
  type PlatformPublisher,
  type Published,
  PublishFailure,
  type PublishingMedia,
  type PublishRequest,
  splitThread
} from "@svc/core/scheduling"
import { Effect, Exit, Option, TestClock, TestContext } from "effect"
import sharp from "sharp"
import { makeBlueskyPublisher } from "../../src/publisher/bluesky.js"
import {
  type AtprotoAccount,
  AtprotoNetwork,
  AtprotoNetworkLive,
  type AtprotoNetworkShape,
  startAtprotoNetwork
} from "../support/atproto-network.js"
import { atprotoTool, skipWithout } from "../support/external-tool.js"

const skip = skipWithout("the Bluesky publisher's tests", await atprotoTool())

const POST = "app.bsky.feed.post"

/** A PNG of one colour (`sharp`), or of random pixels stored uncompressed, to make a large one. */
const png = (width: number, height: number, noise = false) =>
  Effect.promise(() =>
    (noise
      ? sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 })
      : sharp({ create: { width, height, channels: 3, background: "#3366cc" } }).png()
    ).toBuffer()
  ).pipe(Effect.map((buffer) => new Uint8Array(buffer)))

/** The smallest file a PDS takes as `video/mp4`: an `ftyp` box (its type is read from the bytes) and an empty `mdat`. */
const mp4 = (): Uint8Array => {
  const box = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8)
    head.writeUInt32BE(8 + body.length, 0)
    head.write(type, 4, "latin1")
    return Buffer.concat([head, body])
  }
  const ftyp = box("ftyp", Buffer.concat([Buffer.from("isom"), Buffer.from([0, 0, 2, 0]), Buffer.from("isomiso2mp41")]))
  return new Uint8Array(Buffer.concat([ftyp, box("mdat", Buffer.alloc(64))]))
}

const media = (
  bytes: Uint8Array,
  fields: Partial<Omit<PublishingMedia, "read" | "bytes">> & Pick<PublishingMedia, "kind" | "mimeType">
): PublishingMedia => ({
  id: `med_${randomUUID()}`,
  width: null,
  height: null,
  altText: null,
  ...fields,
  bytes: bytes.length,
  read: Effect.succeed(bytes)
})

/** An account connected through `verify`, as the service keeps it. */
interface Connected {
  readonly account: AtprotoAccount
  readonly credentials: Readonly<Record<string, unknown>>
  readonly serviceUrl: string
}

const connect = (publisher: PlatformPublisher, network: AtprotoNetworkShape, account: AtprotoAccount) =>
  Effect.map(
    publisher.verify(network.pdsUrl, { identifier: account.handle, appPassword: account.appPassword }),
    (verified): Connected => ({ account, credentials: verified.credentials, serviceUrl: verified.serviceUrl })
  )

const requestFor = (connected: Connected, fields: Partial<PublishRequest> = {}): PublishRequest => ({
  deliveryId: `dlv_${randomUUID()}`,
  createdAt: new Date(),
  postId: `post_${randomUUID()}`,
  account: {
    id: `acct_${randomUUID()}`,
    platform: "bluesky",
    handle: connected.account.handle,
    serviceUrl: connected.serviceUrl,
    credentials: connected.credentials
  },
  text: "",
  media: [],
  numberThread: false,
  ...fields
})

/** A post's record, read back over the protocol. */
const readRecord = (agent: AtpAgent, uri: string) =>
  Effect.promise(async () => {
    const at = new AtUri(uri)
    const { data } = await agent.com.atproto.repo.getRecord({ repo: at.host, collection: at.collection, rkey: at.rkey })
    return { uri: data.uri, cid: data.cid ?? "", post: data.value as AppBskyFeedPost.Record }
  })

/** Every post of the account, oldest first. */
const listPosts = (agent: AtpAgent, did: string) =>
  Effect.promise(async () => {
    const { data } = await agent.com.atproto.repo.listRecords({ repo: did, collection: POST, limit: 100 })
    return data.records
      .map((record) => ({ uri: record.uri, cid: record.cid, post: record.value as AppBskyFeedPost.Record }))
      .sort((a, b) => (a.uri < b.uri ? -1 : 1))
  })

/** The posts of the thread `first` starts, in order. */
const threadOf = (agent: AtpAgent, did: string, first: Published) =>
  Effect.map(listPosts(agent, did), (posts) =>
    posts.filter((entry) => entry.uri === first.remoteId || entry.post.reply?.root.uri === first.remoteId)
  )

const failureOf = <A>(effect: Effect.Effect<A, PublishFailure>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    if (Exit.isSuccess(exit)) throw new Error(`expected a PublishFailure, got ${JSON.stringify(exit.value)}`)
    const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
    if (!(failure instanceof PublishFailure)) throw new Error(`expected a PublishFailure, got ${String(exit.cause)}`)
    return failure
  })

const bytesBefore = (text: string, needle: string) =>
  new TextEncoder().encode(text.slice(0, text.indexOf(needle))).length
const byteLength = (text: string) => new TextEncoder().encode(text).length

describe.skipIf(skip)("the Bluesky publisher on a local AT Protocol network", () => {
  // Live services: the publisher reads the clock for records and waits, and bounds its calls with real timeouts.
  layer(AtprotoNetworkLive, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
    it.effect("verify opens an account with its app password, and refuses a wrong one as credentials", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoNetwork
        const alice = yield* network.createAccount("alice")
        const agent = yield* network.agentFor(alice)
        yield* Effect.promise(() =>
          agent.com.atproto.repo.putRecord({
            repo: alice.did,
            collection: "app.bsky.actor.profile",
            rkey: "self",
            record: { $type: "app.bsky.actor.profile", displayName: "Alice Example" }
          })
        )
        const publisher = makeBlueskyPublisher()

        const verified = yield* publisher.verify(network.pdsUrl, {
          identifier: alice.handle,
          appPassword: alice.appPassword
        })
        expect(verified).toEqual({
          handle: "alice.test",
          displayName: "Alice Example",
          serviceUrl: network.pdsUrl,
          credentials: { identifier: alice.did, appPassword: alice.appPassword }
        })
        // What is kept logs in again on its own: a publisher of another process has only the stored credentials.
        const again = yield* makeBlueskyPublisher().verify(verified.serviceUrl, verified.credentials)
        expect(again.handle).toBe("alice.test")

        const wrong = yield* failureOf(
          publisher.verify(network.pdsUrl, { identifier: alice.handle, appPassword: "aaaa-bbbb-cccc-dddd" })
        )
        expect(wrong.kind).toBe("credentials")
        expect(wrong.message).toContain("401")
        const missing = yield* failureOf(publisher.verify(network.pdsUrl, { identifier: alice.handle }))
        expect(missing.kind).toBe("credentials")
      })
    )

    it.effect("publishes a link, a mention and a hashtag as facets, and two images with alt text", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoNetwork
        const writer = yield* network.createAccount("writer")
        const bob = yield* network.createAccount("bob")
        const publisher = makeBlueskyPublisher()
        const connected = yield* connect(publisher, network, writer)
        const wide = yield* png(30, 20)
        const tall = yield* png(40, 50)
        // "Grüße" puts two-byte characters first, so byte offsets and character offsets differ.
        const text = "Grüße @bob.test! Notes at https://example.com/notes?x=1 #svcTest"
        const request = requestFor(connected, {
          text,
          media: [
            media(wide, { kind: "image", mimeType: "image/png", width: 30, height: 20, altText: "A wide blue box" }),
            media(tall, { kind: "image", mimeType: "image/png", width: 40, height: 50, altText: "A tall blue box" })
          ]
        })

        const published = yield* publisher.publish(request)

        const rkey = new AtUri(published.remoteId).rkey
        expect(published.remoteId).toBe(`at://${writer.did}/${POST}/${rkey}`)
        expect(published.url).toBe(`https://bsky.app/profile/writer.test/post/${rkey}`)
        // The key is a TID of the delivery's creation time, not of the moment it was written.
        expect(Math.floor(TID.fromStr(rkey).timestamp() / 1000)).toBe(request.createdAt.getTime())

        const agent = yield* network.agentFor(writer)
        const { post } = yield* readRecord(agent, published.remoteId)
        expect(post.text).toBe(text)
        const facet = (type: string) => post.facets?.find((entry) => entry.features[0]?.$type === type)
        expect(facet("app.bsky.richtext.facet#mention")).toMatchObject({
          index: { byteStart: bytesBefore(text, "@bob"), byteEnd: bytesBefore(text, "@bob") + byteLength("@bob.test") },
          features: [{ did: bob.did }]
        })
        const link = "https://example.com/notes?x=1"
        expect(facet("app.bsky.richtext.facet#link")).toMatchObject({
          index: { byteStart: bytesBefore(text, link), byteEnd: bytesBefore(text, link) + byteLength(link) },
          features: [{ uri: link }]
        })
        expect(facet("app.bsky.richtext.facet#tag")).toMatchObject({
          index: { byteStart: bytesBefore(text, "#svc"), byteEnd: byteLength(text) },
          features: [{ tag: "svcTest" }]
        })
        expect(post.facets).toHaveLength(3)

        expect(post.embed?.$type).toBe("app.bsky.embed.images")
        const images = (post.embed as { images: Array<{ image: BlobRef; alt: string; aspectRatio?: unknown }> }).images
        expect(images.map(({ alt, aspectRatio }) => ({ alt, aspectRatio }))).toEqual([
          { alt: "A wide blue box", aspectRatio: { width: 30, height: 20 } },
          { alt: "A tall blue box", aspectRatio: { width: 40, height: 50 } }
        ])
        for (const [index, bytes] of [wide, tall].entries()) {
          const image = images[index]!.image
          expect(image).toBeInstanceOf(BlobRef)
          expect(image.mimeType).toBe("image/png")
          const { data } = yield* Effect.promise(() =>
            agent.com.atproto.sync.getBlob({ did: writer.did, cid: image.ref.toString() })
          )
          expect(Buffer.from(data).equals(Buffer.from(bytes))).toBe(true)
        }
      })
    )

    it.effect(
      "splits 700 characters into a thread of three replies, numbered only when asked, media on the first",
      () =>
        Effect.gen(function* () {
          const network = yield* AtprotoNetwork
          const threader = yield* network.createAccount("threader")
          const publisher = makeBlueskyPublisher()
          const connected = yield* connect(publisher, network, threader)
          const agent = yield* network.agentFor(threader)
          const text = Array.from({ length: 30 }, (_, i) => `Sentence ${i + 1} of the long post says a little more.`)
            .join(" ")
            .slice(0, 700)
          expect(text).toHaveLength(700)

          for (const numberThread of [false, true]) {
            const image = yield* png(8, 8)
            const first = yield* publisher.publish(
              requestFor(connected, {
                text,
                numberThread,
                media: [media(image, { kind: "image", mimeType: "image/png", width: 8, height: 8, altText: "Dot" })]
              })
            )
            const thread = yield* threadOf(agent, threader.did, first)
            expect(thread.map((entry) => entry.post.text)).toEqual(splitThread(text, 300, numberThread))
            expect(thread).toHaveLength(3)
            expect(thread.map((entry) => entry.post.text.endsWith(" 1/3"))).toEqual([numberThread, false, false])
            if (numberThread) expect(thread.map((entry) => entry.post.text.slice(-4))).toEqual([" 1/3", " 2/3", " 3/3"])
            const [one, two, three] = thread
            expect(one!.uri).toBe(first.remoteId)
            expect(one!.post.reply).toBeUndefined()
            expect(two!.post.reply).toMatchObject({
              root: { uri: one!.uri, cid: one!.cid },
              parent: { uri: one!.uri, cid: one!.cid }
            })
            expect(three!.post.reply).toMatchObject({
              root: { uri: one!.uri, cid: one!.cid },
              parent: { uri: two!.uri, cid: two!.cid }
            })
            expect(thread.map((entry) => entry.post.embed?.$type)).toEqual([
              "app.bsky.embed.images",
              undefined,
              undefined
            ])
          }
        })
    )

    it.effect("never posts one delivery twice: a repeat answers the same post, and findPublished sees it", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoNetwork
        const repeater = yield* network.createAccount("repeater")
        const publisher = makeBlueskyPublisher()
        const connected = yield* connect(publisher, network, repeater)
        const agent = yield* network.agentFor(repeater)
        const request = requestFor(connected, { text: "Only once, whatever happens." })

        expect(yield* publisher.findPublished(request)).toEqual(Option.none())
        const first = yield* publisher.publish(request)
        const written = yield* readRecord(agent, first.remoteId)
        // Another process, with only the stored credentials, taking the delivery over.
        const second = yield* makeBlueskyPublisher().publish(request)
        expect(second).toEqual(first)
        expect(yield* publisher.findPublished(request)).toEqual(Option.some(first))
        const posts = yield* listPosts(agent, repeater.did)
        expect(posts.map((entry) => entry.post.text)).toEqual(["Only once, whatever happens."])
        // Left as it was, not written over: a reply elsewhere that points at its CID still points at the post.
        expect(posts[0]!.cid).toBe(written.cid)
      })
    )

    it.effect("two tries racing each other leave one thread, whose replies point at its posts as they are", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoNetwork
        const racer = yield* network.createAccount("racer")
        // Two processes, each logged in already, so their writes meet: one taken for dead while it was still running.
        const [early, late] = [makeBlueskyPublisher(), makeBlueskyPublisher()]
        const connected = yield* connect(early, network, racer)
        yield* connect(late, network, racer)
        const agent = yield* network.agentFor(racer)
        const text = Array.from({ length: 30 }, (_, i) => `Racing line ${i + 1} goes on for a little while.`)
          .join(" ")
          .slice(0, 700)
        const request = requestFor(connected, { text })
        // The later try's clock reads a minute on, so its records differ from the earlier one's (their createdAt).
        const later = Effect.gen(function* () {
          yield* TestClock.setTime(Date.now() + 60_000)
          return yield* late.publish(request)
        }).pipe(Effect.provide(TestContext.TestContext))

        const answers = yield* Effect.all([early.publish(request), later], { concurrency: 2 })
        expect(answers[1]).toEqual(answers[0])
        const posts = yield* listPosts(agent, racer.did)
        expect(posts.map((entry) => entry.post.text)).toEqual(splitThread(text, 300))
        const current = new Map(posts.map((entry) => [entry.uri, entry.cid]))
        for (const { post } of posts.slice(1)) {
          expect(current.get(post.reply!.root.uri)).toBe(post.reply!.root.cid)
          expect(current.get(post.reply!.parent.uri)).toBe(post.reply!.parent.cid)
        }
      })
    )

    it.effect("completes a thread cut short by a crash, without a second copy of its first parts", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoNetwork
        const crasher = yield* network.createAccount("crasher")
        const publisher = makeBlueskyPublisher()
        const connected = yield* connect(publisher, network, crasher)
        const agent = yield* network.agentFor(crasher)
        const text = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a thread that a crash cuts short.`)
          .join(" ")
          .slice(0, 650)
        const request = requestFor(connected, { text })
        const first = yield* publisher.publish(request)
        const whole = yield* threadOf(agent, crasher.did, first)
        expect(whole).toHaveLength(3)
        // As if the try had died after its second post: the last part never reached the PDS.
        const last = new AtUri(whole[2]!.uri)
        yield* Effect.promise(() =>
          agent.com.atproto.repo.deleteRecord({ repo: crasher.did, collection: POST, rkey: last.rkey })
        )

        expect(yield* publisher.findPublished(request)).toEqual(Option.none())
        expect(yield* makeBlueskyPublisher().publish(request)).toEqual(first)
        const completed = yield* threadOf(agent, crasher.did, first)
        expect(completed.map((entry) => entry.uri)).toEqual(whole.map((entry) => entry.uri))
        expect(completed.slice(0, 2).map((entry) => entry.cid)).toEqual(whole.slice(0, 2).map((entry) => entry.cid))
        expect(completed[2]!.post.reply?.parent.uri).toBe(whole[1]!.uri)
        expect(yield* listPosts(agent, crasher.did)).toHaveLength(3)
        expect(yield* publisher.findPublished(request)).toEqual(Option.some(first))
      })
    )

    it.effect("publishes a video alone, its blob on the PDS with its alt text and aspect ratio", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoNetwork
        const filmer = yield* network.createAccount("filmer")
        const publisher = makeBlueskyPublisher()
        const connected = yield* connect(publisher, network, filmer)
        const agent = yield* network.agentFor(filmer)
        const bytes = mp4()
        const video = media(bytes, {
          kind: "video",
          mimeType: "video/mp4",
          width: 1280,
          height: 720,
          altText: "A clip"
        })

        const published = yield* publisher.publish(requestFor(connected, { text: "A clip", media: [video] }))
        const { post } = yield* readRecord(agent, published.remoteId)
        expect(post.embed).toMatchObject({
          $type: "app.bsky.embed.video",
          alt: "A clip",
          aspectRatio: { width: 1280, height: 720 }
        })
        const blob = (post.embed as { video: BlobRef }).video
        expect(blob.mimeType).toBe("video/mp4")
        const { data } = yield* Effect.promise(() =>
          agent.com.atproto.sync.getBlob({ did: filmer.did, cid: blob.ref.toString() })
        )
        expect(Buffer.from(data).equals(Buffer.from(bytes))).toBe(true)

        const image = media(yield* png(4, 4), { kind: "image", mimeType: "image/png" })
        const mixed = yield* failureOf(
          publisher.publish(requestFor(connected, { text: "Both", media: [video, image] }))
        )
        expect(mixed.kind).toBe("rejected")
      })
    )

    it.effect("an image over 1,000,000 bytes is rejected by the PDS, and nothing is posted", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoNetwork
        const heavy = yield* network.createAccount("heavy")
        const publisher = makeBlueskyPublisher()
        const connected = yield* connect(publisher, network, heavy)
        const bytes = yield* png(720, 720, true)
        expect(bytes.length).toBeGreaterThan(1_500_000)
        const big = media(bytes, { kind: "image", mimeType: "image/png", width: 720, height: 720, altText: "Noise" })

        const failure = yield* failureOf(publisher.publish(requestFor(connected, { text: "Too big", media: [big] })))
        expect(failure.kind).toBe("rejected")
        expect(failure.message).toContain("blob too big")
        expect(yield* listPosts(yield* network.agentFor(heavy), heavy.did)).toEqual([])
      })
    )

    it.effect("a revoked app password is credentials; logging in too often is temporary, with the PDS's wait", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoNetwork
        const revoked = yield* network.createAccount("revoked")
        const connected = yield* connect(makeBlueskyPublisher(), network, revoked)
        const agent = yield* network.agentFor(revoked)
        yield* Effect.promise(() => agent.com.atproto.server.revokeAppPassword({ name: "svc" }))
        const failure = yield* failureOf(makeBlueskyPublisher().publish(requestFor(connected, { text: "Still here?" })))
        expect(failure.kind).toBe("credentials")

        // The PDS allows 30 logins to one account in five minutes, then answers 429 with RateLimit-Reset.
        const publisher = makeBlueskyPublisher()
        const kinds: Array<string> = []
        let limited: PublishFailure | undefined
        while (limited === undefined && kinds.length < 40) {
          const next = yield* failureOf(
            publisher.verify(network.pdsUrl, { identifier: revoked.handle, appPassword: revoked.appPassword })
          )
          kinds.push(next.kind)
          if (next.kind === "temporary") limited = next
        }
        expect(new Set(kinds.slice(0, -1))).toEqual(new Set(["credentials"]))
        expect(limited?.message).toContain("429")
        expect(limited?.retryAfterMs).toBeGreaterThan(0)
        expect(limited?.retryAfterMs).toBeLessThanOrEqual(5 * 60_000)
      })
    )
  })

  it.live(
    "a stopped PDS is temporary, for a kept session and for a new login",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const network = yield* startAtprotoNetwork
          const stopping = yield* network.createAccount("stopping")
          const publisher = makeBlueskyPublisher()
          const connected = yield* connect(publisher, network, stopping)
          yield* network.stop

          const kept = yield* failureOf(publisher.publish(requestFor(connected, { text: "Anyone there?" })))
          expect(kept.kind).toBe("temporary")
          expect(kept.message).toContain("ECONNREFUSED")
          const fresh = yield* failureOf(makeBlueskyPublisher().verify(connected.serviceUrl, connected.credentials))
          expect(fresh.kind).toBe("temporary")
        })
      ),
    120_000
  )

  it.live("a server that never answers is temporary once the call's time is up", () =>
    Effect.gen(function* () {
      const sockets = new Set<Socket>()
      const silent = createServer((socket) => sockets.add(socket))
      const port = yield* Effect.async<number>((resume) => {
        silent.listen(0, "127.0.0.1", () => {
          const address = silent.address()
          resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
        })
      })
      const publisher = makeBlueskyPublisher({ requestTimeout: "300 millis" })
      const started = Date.now()
      const failure = yield* failureOf(
        publisher.verify(`http://127.0.0.1:${port}`, { identifier: "someone.test", appPassword: "aaaa-bbbb-cccc-dddd" })
      ).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            for (const socket of sockets) socket.destroy()
            silent.close()
          })
        )
      )
      expect(failure.kind).toBe("temporary")
      expect(Date.now() - started).toBeLessThan(5_000)
    })
  )
})
