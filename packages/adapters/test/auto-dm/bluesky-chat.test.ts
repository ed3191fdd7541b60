/**
 * Direct messages of the Bluesky inbox against recorded exchanges of Bluesky's chat service, replayed on loopback
 * (recordings/bluesky-chat/, PROVENANCE.md beside them): the chat service is not part of the open-source AT Protocol
 * network, so no local peer can answer these. Every chat call must carry the `atproto-proxy` header naming the chat
 * service (the recordings match on it).
 */
import { describe, expect, it } from "@effect/vitest"
import type { Engagement, MessagingAccount, OutgoingMessage } from "@svc/core/auto-dm"
import { Effect, Exit, Option } from "effect"
import { makeBlueskyInbox } from "../../src/auto-dm/bluesky-inbox.js"
import { loadRecording, startReplayServer } from "../support/replay-server.js"

const BAKERY = "did:plc:bakery7bakery7bakery7bak"
const FRAN = "did:plc:fran2fran2fran2fran2fran"
const TEXT = "Hi Fran! Here is the guide: https://example.com/guide"

const recording = (name: string) => loadRecording(new URL(`./recordings/bluesky-chat/${name}.json`, import.meta.url))

const replayed = (name: string) =>
  Effect.map(startReplayServer(recording(name).exchanges), (server) => {
    const account: MessagingAccount = {
      id: "sac_bakery",
      platform: "bluesky",
      handle: "bakery.example",
      serviceUrl: server.origin,
      credentials: { identifier: BAKERY, appPassword: "abcd-efgh-ijkl-mnop" }
    }
    return { server, account }
  })

const trigger: Engagement = {
  remoteId: `at://${FRAN}/app.bsky.feed.post/3lfranreply01`,
  cid: "bafyreib2rxk3rh6kzwq",
  kind: "reply",
  authorId: FRAN,
  authorHandle: "fran.example",
  authorName: "Fran",
  text: "guide please!",
  parentRemoteId: `at://${BAKERY}/app.bsky.feed.post/3lbakerypost1`,
  rootRemoteId: `at://${BAKERY}/app.bsky.feed.post/3lbakerypost1`,
  root: { uri: `at://${BAKERY}/app.bsky.feed.post/3lbakerypost1`, cid: "bafyreiaroot" },
  direct: false,
  at: new Date("2026-11-29T09:59:00Z")
}

const message: OutgoingMessage = {
  sendId: "ads_chat1",
  createdAt: new Date("2026-11-29T10:00:00Z"),
  channel: "dm",
  text: TEXT,
  trigger
}

const bodyOf = (body: Uint8Array) => JSON.parse(Buffer.from(body).toString("utf8")) as Record<string, unknown>

describe("the Bluesky inbox's direct messages (recorded chat exchanges)", () => {
  it.scopedLive("sends into the conversation that exists, with the link as a facet, through the chat proxy", () =>
    Effect.gen(function* () {
      const { server, account } = yield* replayed("dm-send")
      const sent = yield* makeBlueskyInbox().send(account, message)
      expect(sent).toEqual({ channel: "dm", remoteId: "3lbakerymsg0001" })
      const request = server.received.find((r) => r.path.startsWith("/xrpc/chat.bsky.convo.sendMessage"))
      expect(request?.headers["atproto-proxy"]).toBe("did:web:api.bsky.chat#bsky_chat")
      expect(bodyOf(request?.body ?? new Uint8Array())).toEqual({
        convoId: "3lbakeryfranconvo",
        message: {
          text: TEXT,
          facets: [
            {
              index: { byteStart: 28, byteEnd: 53 },
              features: [{ $type: "app.bsky.richtext.facet#link", uri: "https://example.com/guide" }]
            }
          ]
        }
      })
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("opens a conversation when there is none yet", () =>
    Effect.gen(function* () {
      const { server, account } = yield* replayed("dm-new-conversation")
      const sent = yield* makeBlueskyInbox().send(account, message)
      expect(sent.remoteId).toBe("3lbakerymsg0001")
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("finds the message an earlier try sent, so a retry sends nothing", () =>
    Effect.gen(function* () {
      const { server, account } = yield* replayed("dm-retry-found")
      const found = yield* makeBlueskyInbox().findSent(account, message)
      expect(found).toEqual(Option.some({ channel: "dm", remoteId: "3lbakerymsg0001" }))
      // Another send's text is not taken for this one.
      expect(server.received.some((r) => r.path.includes("sendMessage"))).toBe(false)
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("is unavailable when the person takes no messages, and then holds none of ours", () =>
    Effect.gen(function* () {
      const { server, account } = yield* replayed("dm-closed")
      const inbox = makeBlueskyInbox()
      const refused = yield* Effect.exit(inbox.send(account, message))
      expect(refused).toMatchObject(
        Exit.fail(expect.objectContaining({ kind: "unavailable", message: expect.stringMatching(/does not accept/) }))
      )
      expect(yield* inbox.findSent(account, message)).toEqual(Option.none())
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("is unavailable, not a broken account, when the app password has no DM access", () =>
    Effect.gen(function* () {
      const { server, account } = yield* replayed("dm-no-access")
      const failure = yield* Effect.flip(makeBlueskyInbox().send(account, message))
      expect(failure.kind).toBe("unavailable")
      expect(failure.message).toMatch(/app password has no access to direct messages/)
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("waits as the chat service's Retry-After says", () =>
    Effect.gen(function* () {
      const { server, account } = yield* replayed("dm-rate-limited")
      const failure = yield* Effect.flip(makeBlueskyInbox().send(account, message))
      expect(failure).toMatchObject({ kind: "temporary", retryAfterMs: 30_000 })
      yield* server.check({ allUsed: true })
    })
  )
})
