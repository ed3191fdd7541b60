/**
 * Both publishers through the checked fetch, as the server composes them: an account whose server address is inside
 * our network is refused before any connection (`rejected`, naming the rule), and reached when loopback is allowed.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { PlatformPublisher, PublishRequest } from "@svc/core/scheduling"
import { Effect } from "effect"
import { makeCheckedFetch } from "../../src/http-sender/index.js"
import { makeBlueskyPublisher, makeMastodonPublisher } from "../../src/publisher/index.js"
import { loadRecording, startReplayServer } from "../support/replay-server.js"

// A server on loopback standing where an account says its server is: it only counts what reaches it.
let server: Server
let origin = ""
let requests = 0
let connections = 0

beforeAll(async () => {
  server = createServer((_, response) => {
    requests++
    response.writeHead(503, { "content-type": "application/json" }).end('{"error":"unavailable"}')
  })
  server.on("connection", () => connections++)
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
})

const checkedFetch = (allowLoopback: boolean) =>
  Effect.acquireRelease(
    Effect.sync(() => makeCheckedFetch({ allowLoopback })),
    (checked) => Effect.promise(checked.close)
  )

const publishersOver = (allowLoopback: boolean) =>
  Effect.map(checkedFetch(allowLoopback), (checked) => ({
    bluesky: makeBlueskyPublisher({ fetch: checked, requestTimeout: "5 seconds" }),
    // Plain http allowed on its own: the refusal below is the address rule's, not the scheme's.
    mastodon: makeMastodonPublisher({
      allowPlainHttp: true,
      dispatcher: checked.dispatcher,
      requestTimeout: "5 seconds"
    })
  }))

const credentials = {
  bluesky: { identifier: "harbour.test", appPassword: "abcd-efgh-ijkl-mnop" },
  mastodon: { accessToken: "ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0" }
} as const

const requestOn = (publisher: PlatformPublisher, serviceUrl: string): PublishRequest => ({
  deliveryId: "dlv_checked",
  createdAt: new Date("2026-11-29T12:00:00.000Z"),
  postId: "post_checked",
  account: {
    id: `acc_${publisher.platform}`,
    platform: publisher.platform,
    handle: "@harbourlog",
    serviceUrl,
    credentials: credentials[publisher.platform as keyof typeof credentials]
  },
  text: "Morning at the harbour.",
  media: [],
  numberThread: false
})

describe("publishers through the checked fetch", () => {
  it.scopedLive("refuse an account on a loopback address, before connecting, as a rejected publish", () =>
    Effect.gen(function* () {
      const publishers = yield* publishersOver(false)
      const before = { requests, connections }
      for (const publisher of [publishers.bluesky, publishers.mastodon]) {
        const request = requestOn(publisher, origin)
        const published = yield* Effect.flip(publisher.publish(request))
        expect(published._tag, publisher.platform).toBe("PublishFailure")
        expect(published.kind, publisher.platform).toBe("rejected")
        expect(published.message, publisher.platform).toContain(
          "Refused to connect to 127.0.0.1: the host resolves to a private, loopback or otherwise non-public address"
        )
        const verified = yield* Effect.flip(publisher.verify(origin, request.account.credentials))
        expect(verified.kind, publisher.platform).toBe("rejected")
      }
      expect({ requests, connections }).toEqual(before)
    })
  )

  it.scopedLive("reach a server on this machine when loopback is allowed", () =>
    Effect.gen(function* () {
      const publishers = yield* publishersOver(true)
      const before = requests
      // The server answers 503: a temporary failure, after the request reached it.
      const bluesky = yield* Effect.flip(publishers.bluesky.publish(requestOn(publishers.bluesky, origin)))
      expect(bluesky.kind).toBe("temporary")
      expect(requests).toBe(before + 1)
      // Mastodon against its recorded exchanges: the dispatcher carries masto's calls to the instance and back.
      const replay = yield* startReplayServer(
        loadRecording(new URL("./recordings/mastodon/verify.json", import.meta.url)).exchanges
      )
      const verified = yield* publishers.mastodon.verify(replay.origin, credentials.mastodon)
      expect(verified.handle).toBe("@harbourlog@mastodon.example")
    })
  )
})
