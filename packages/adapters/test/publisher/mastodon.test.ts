/**
 * The Mastodon publisher against recorded exchanges replayed by a local server (no instance is reachable here; see
 * recordings/mastodon/README.md): what it sends, and how it reads what an instance answers.
 */
import { describe, expect, it } from "@effect/vitest"
import type { PublishingMedia, PublishRequest } from "@svc/core/scheduling"
import { Effect, Option } from "effect"
import { idempotencyKey, makeMastodonPublisher } from "../../src/publisher/index.js"
import { ManualClock } from "../support/predictable.js"
import { formOf, loadRecording, type ReceivedRequest, startReplayServer } from "../support/replay-server.js"

const TOKEN = "ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0"
const ACCOUNT_ID = "109348213456789012"

const replay = (scenario: string) =>
  startReplayServer(loadRecording(new URL(`./recordings/mastodon/${scenario}.json`, import.meta.url)).exchanges)

const publisher = makeMastodonPublisher({
  processingInterval: "10 millis",
  requestTimeout: "5 seconds",
  allowPlainHttp: true
})

const requestTo = (serviceUrl: string, fields: Partial<PublishRequest> & Pick<PublishRequest, "deliveryId">) =>
  ({
    createdAt: new Date("2026-11-29T12:00:00.000Z"),
    postId: "post_harbour",
    account: {
      id: "acc_mastodon",
      platform: "mastodon",
      handle: "@harbourlog@mastodon.example",
      serviceUrl,
      credentials: { accessToken: TOKEN, accountId: ACCOUNT_ID }
    },
    text: "",
    media: [],
    numberThread: false,
    ...fields
  }) satisfies PublishRequest

const fileOf = (id: string, kind: PublishingMedia["kind"], mimeType: string, bytes: Uint8Array, altText: string) =>
  ({
    id,
    kind,
    mimeType,
    bytes: bytes.length,
    width: null,
    height: null,
    altText,
    read: Effect.succeed(bytes)
  }) satisfies PublishingMedia

const jsonOf = (request: ReceivedRequest | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(request?.body ?? new Uint8Array()).toString("utf8"))

const posts = (received: ReadonlyArray<ReceivedRequest>) =>
  received.filter((request) => request.method === "POST" && request.path === "/api/v1/statuses")

describe("Mastodon publisher", () => {
  it.scopedLive("verify answers the account a good token opens, as @user@instance, and keeps its id", () =>
    Effect.gen(function* () {
      const server = yield* replay("verify")
      const verified = yield* publisher.verify(`${server.origin}/`, { accessToken: TOKEN })
      expect(verified).toEqual({
        handle: "@harbourlog@mastodon.example",
        displayName: "Harbour Log",
        serviceUrl: server.origin,
        credentials: { accessToken: TOKEN, accountId: ACCOUNT_ID }
      })
      const refused = yield* Effect.flip(
        publisher.verify(server.origin, { accessToken: "not-a-token-this-instance-issued" })
      )
      expect(refused.kind).toBe("credentials")
      expect(refused.message).toContain("The access token is invalid")
      const missing = yield* Effect.flip(publisher.verify(server.origin, {}))
      expect(missing.kind).toBe("credentials")
      // A bearer token never goes out in clear unless plain http is allowed (a local instance).
      const plain = yield* Effect.flip(makeMastodonPublisher().verify(server.origin, { accessToken: TOKEN }))
      expect(plain.kind).toBe("rejected")
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("posts two images with their alt text, unlisted, behind a content warning", () =>
    Effect.gen(function* () {
      const server = yield* replay("status-with-images")
      const gulls = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
      const lighthouse = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7, 6])
      const published = yield* publisher.publish(
        requestTo(server.origin, {
          deliveryId: "dlv_images",
          text: "Morning at the harbour.",
          visibility: "unlisted",
          contentWarning: "Bright flash photos",
          media: [
            fileOf("med_gulls", "image", "image/png", gulls, "Gulls on the harbour wall at dawn"),
            fileOf("med_lighthouse", "image", "image/png", lighthouse, "The lighthouse in fog")
          ]
        })
      )
      expect(published).toEqual({
        remoteId: "113571920512345601",
        url: "https://mastodon.example/@harbourlog/113571920512345601"
      })
      yield* server.check({ allUsed: true })

      const uploads = server.received.filter((request) => request.path === "/api/v2/media")
      const sent = yield* Effect.promise(() =>
        Promise.all(
          uploads.map(async (upload) => {
            const form = await formOf(upload.headers, upload.body)
            const file = form?.get("file")
            if (!(file instanceof File)) throw new Error("no file part in the upload")
            return {
              name: file.name,
              type: file.type,
              bytes: new Uint8Array(await file.arrayBuffer()),
              description: form?.get("description")
            }
          })
        )
      )
      expect(sent).toEqual([
        { name: "med_gulls.png", type: "image/png", bytes: gulls, description: "Gulls on the harbour wall at dawn" },
        { name: "med_lighthouse.png", type: "image/png", bytes: lighthouse, description: "The lighthouse in fog" }
      ])
      const [status] = posts(server.received)
      expect(jsonOf(status)).toEqual({
        status: "Morning at the harbour.",
        media_ids: ["113571920456789001", "113571920456789002"],
        visibility: "unlisted",
        spoiler_text: "Bright flash photos"
      })
      expect(status?.headers["idempotency-key"]).toBe(idempotencyKey("dlv_images", 0))
    })
  )

  it.scopedLive("posts a 1,100-character text as a thread of three, each part replying to the one before", () =>
    Effect.gen(function* () {
      const server = yield* replay("thread")
      const notes = Array.from(
        { length: 20 },
        (_, i) => `Note ${String(i + 1).padStart(2, "0")}: the tide came in over the old harbour wall.`
      )
      const text = `${notes.join(" ")} All of the boats were safely in by nine.`
      expect(text).toHaveLength(1100)
      const published = yield* publisher.publish(requestTo(server.origin, { deliveryId: "dlv_thread", text }))
      expect(published.remoteId).toBe("113571930000000101")
      yield* server.check({ allUsed: true })

      const sent = posts(server.received).map(jsonOf)
      expect(sent.map((body) => body.in_reply_to_id)).toEqual([undefined, "113571930000000101", "113571930000000102"])
      expect(sent.every((body) => typeof body.status === "string" && body.status.length <= 500)).toBe(true)
      expect(sent.map((body) => body.status).join(" ")).toBe(text)
      expect(posts(server.received).map((request) => request.headers["idempotency-key"])).toEqual([
        "svc:dlv_thread:1",
        "svc:dlv_thread:2",
        "svc:dlv_thread:3"
      ])
    })
  )

  it.scopedLive("sends the same Idempotency-Key when a delivery is tried again", () =>
    Effect.gen(function* () {
      const server = yield* replay("idempotent-retry")
      const request = requestTo(server.origin, { deliveryId: "dlv_retry", text: "Ferry times change on Monday." })
      const first = yield* Effect.flip(publisher.publish(request))
      expect(first.kind).toBe("temporary")
      const second = yield* publisher.publish(request)
      expect(second.remoteId).toBe("113571940000000201")
      yield* server.check({ allUsed: true })
      const keys = posts(server.received).map((post) => post.headers["idempotency-key"])
      expect(keys).toEqual(["svc:dlv_retry:1", "svc:dlv_retry:1"])
    })
  )

  it.scopedLive("waits while the instance still processes a video, then posts it", () =>
    Effect.gen(function* () {
      const server = yield* replay("media-processing")
      const video = new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32])
      const published = yield* publisher.publish(
        requestTo(server.origin, {
          deliveryId: "dlv_video",
          text: "Stormy pier.",
          media: [fileOf("med_pier", "video", "video/mp4", video, "Waves breaking on the pier")]
        })
      )
      expect(published.remoteId).toBe("113571950000000302")
      yield* server.check({ allUsed: true })
      expect(server.received.map((request) => `${request.method} ${request.path}`)).toEqual([
        "POST /api/v2/media",
        "GET /api/v1/media/113571950000000301",
        "GET /api/v1/media/113571950000000301",
        "GET /api/v1/media/113571950000000301",
        "POST /api/v1/statuses"
      ])
    })
  )

  it.scopedLive("gives up on media processing after its bound, as a temporary failure", () =>
    Effect.gen(function* () {
      const server = yield* replay("media-processing")
      const impatient = makeMastodonPublisher({
        processingInterval: "50 millis",
        processingTimeout: "70 millis",
        allowPlainHttp: true
      })
      const failure = yield* Effect.flip(
        impatient.publish(
          requestTo(server.origin, {
            deliveryId: "dlv_video",
            text: "Stormy pier.",
            media: [fileOf("med_pier", "video", "video/mp4", new Uint8Array([1]), "Waves breaking on the pier")]
          })
        )
      )
      expect(failure.kind).toBe("temporary")
      expect(failure.message).toContain("still processing")
      expect(posts(server.received)).toHaveLength(0)
    })
  )

  it.scoped("a 429 is temporary, with the wait X-RateLimit-Reset names", () =>
    Effect.gen(function* () {
      const server = yield* replay("rate-limited")
      // The recording's present as the service's clock, a clock of its own (a fork's default services proved
      // unreliable for TestClock.setTime on a loaded machine).
      const failure = yield* Effect.flip(
        publisher
          .publish(requestTo(server.origin, { deliveryId: "dlv_busy", text: "Harbour closed at noon." }))
          .pipe(Effect.withClock(new ManualClock(Date.parse("2026-11-29T12:04:30.000Z"))))
      )
      expect(failure.kind).toBe("temporary")
      expect(failure.retryAfterMs).toBe(30_000)
      expect(failure.message).toContain("Too many requests")
      yield* server.check({ allUsed: true })
    })
  )

  it.scoped("a 429 from a proxy in front, with Retry-After in seconds, waits that long", () =>
    Effect.gen(function* () {
      // Not a recording of Mastodon (its throttles send no Retry-After): what a rate-limiting proxy answers.
      const server = yield* startReplayServer([
        {
          name: "post status, throttled by a proxy",
          request: { method: "POST", path: "/api/v1/statuses" },
          response: { status: 429, headers: { "Retry-After": "120" }, json: { error: "Too many requests" } }
        }
      ])
      const failure = yield* Effect.flip(
        publisher.publish(requestTo(server.origin, { deliveryId: "dlv_proxy", text: "Harbour closed at noon." }))
      )
      expect(failure.kind).toBe("temporary")
      expect(failure.retryAfterMs).toBe(120_000)
    })
  )

  it.scopedLive("a 422 is rejected, with the instance's message", () =>
    Effect.gen(function* () {
      const server = yield* replay("rejected")
      const failure = yield* Effect.flip(publisher.publish(requestTo(server.origin, { deliveryId: "dlv_empty" })))
      expect(failure.kind).toBe("rejected")
      expect(failure.message).toContain("Validation failed: Text can't be blank")
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("a 401 asks for the account to be reconnected", () =>
    Effect.gen(function* () {
      const server = yield* replay("token-revoked")
      const failure = yield* Effect.flip(
        publisher.publish(requestTo(server.origin, { deliveryId: "dlv_revoked", text: "Low tide at six." }))
      )
      expect(failure.kind).toBe("credentials")
      expect(failure.message).toContain("The access token was revoked")
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("an instance that is gone is a temporary failure", () =>
    Effect.gen(function* () {
      const server = yield* replay("token-revoked")
      yield* server.close
      const failure = yield* Effect.flip(
        publisher.publish(requestTo(server.origin, { deliveryId: "dlv_gone", text: "Low tide at six." }))
      )
      expect(failure.kind).toBe("temporary")
      expect(failure.message).toContain("ECONNREFUSED")
    })
  )

  it.scopedLive("an instance that does not answer within the bound is a temporary failure", () =>
    Effect.gen(function* () {
      // Not a recording: a stuck server has no shape to record.
      const server = yield* startReplayServer([
        {
          name: "post status, no answer in time",
          request: { method: "POST", path: "/api/v1/statuses" },
          response: { status: 200, json: {}, delayMs: 5_000 }
        }
      ])
      const hasty = makeMastodonPublisher({ requestTimeout: "200 millis", allowPlainHttp: true })
      const failure = yield* Effect.flip(
        hasty.publish(requestTo(server.origin, { deliveryId: "dlv_stuck", text: "Fog all day." }))
      )
      expect(failure.kind).toBe("temporary")
      expect(failure.message).toContain("did not answer within")
    })
  )

  it.scopedLive("findPublished recognises the delivery's status by its source text among the latest pages", () =>
    Effect.gen(function* () {
      const server = yield* replay("find-published")
      const found = yield* publisher.findPublished(
        requestTo(server.origin, { deliveryId: "dlv_images", text: "Morning at the harbour." })
      )
      expect(found).toEqual(
        Option.some({ remoteId: "113571960000000402", url: "https://mastodon.example/@harbourlog/113571960000000402" })
      )
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("findPublished answers none when nothing since the delivery was created matches", () =>
    Effect.gen(function* () {
      const server = yield* replay("find-published-none")
      const request = requestTo(server.origin, { deliveryId: "dlv_images", text: "Morning at the harbour." })
      const found = yield* publisher.findPublished({
        ...request,
        account: { ...request.account, credentials: { accessToken: TOKEN } }
      })
      expect(found).toEqual(Option.none())
      yield* server.check({ allUsed: true })
    })
  )
})
