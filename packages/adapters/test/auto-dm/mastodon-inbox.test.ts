/**
 * The Mastodon inbox of auto-DM against recorded exchanges replayed on loopback (recordings/mastodon/, PROVENANCE.md
 * beside them): mentions read from the notifications with a cursor, an answer as a reply that mentions the person and
 * carries the send's Idempotency-Key, a retry that finds the earlier answer, and a 429.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Engagement, MessagingAccount, OutgoingMessage } from "@svc/core/auto-dm"
import { Clock, Effect, Option } from "effect"
import { makeMastodonInbox } from "../../src/auto-dm/mastodon-inbox.js"
import { loadRecording, startReplayServer } from "../support/replay-server.js"

const ME = "109348213456789012"

const replayed = (name: string) =>
  Effect.map(
    startReplayServer(loadRecording(new URL(`./recordings/mastodon/${name}.json`, import.meta.url)).exchanges),
    (server) => {
      const account: MessagingAccount = {
        id: "sac_bakery",
        platform: "mastodon",
        handle: "@bakery@mastodon.example",
        serviceUrl: server.origin,
        credentials: { accessToken: "q8Hn2v-Wm4XoTzR1aLkC9sYpE3dF6gJ0uBi7NcVhQyA", accountId: ME }
      }
      return { server, account }
    }
  )

const inbox = makeMastodonInbox({ allowPlainHttp: true })

const franReply: Engagement = {
  remoteId: "113571900000000201",
  cid: null,
  kind: "reply",
  authorId: "109411112222333344",
  authorHandle: "fran@social.example",
  authorName: "Fran 🍞",
  text: "@bakery Could I get the guide, please?",
  parentRemoteId: "113571800000000001",
  rootRemoteId: null,
  root: null,
  direct: false,
  at: new Date("2026-11-29T11:58:00.000Z")
}

const answer = (channel: "dm" | "reply"): OutgoingMessage => ({
  sendId: "ads_m1",
  createdAt: new Date("2026-11-29T12:00:00Z"),
  channel,
  text: "Hi Fran 🍞! Here is the guide: https://example.com/guide",
  trigger: franReply
})

describe("the Mastodon inbox (recorded exchanges)", () => {
  it.scopedLive("reads mentions from the cursor on and answers with a reply that mentions the person", () =>
    Effect.gen(function* () {
      const { server, account } = yield* replayed("read-and-reply")
      const since = new Date("2026-11-29T11:00:00Z")
      const first = yield* inbox.readNew(account, null, since)
      expect(first.cursor).toBe("34975870")
      expect(first.items.map((i) => [i.authorHandle, i.kind, i.direct, i.authorName])).toEqual([
        ["fran@social.example", "reply", false, "Fran 🍞"],
        ["sam", "mention", true, null]
      ])
      expect(first.items[0]?.text).toMatch(/^@bakery Could I get the guide, please\?$/i)
      expect(first.items[1]?.text).toBe("@bakery hello there & thanks")

      const sent = yield* inbox.send(account, answer("reply"))
      expect(sent).toEqual({ channel: "reply", remoteId: "113571930000000301" })

      const next = yield* inbox.readNew(account, first.cursor, since)
      expect(next).toEqual({ items: [], cursor: "34975870" })
      yield* server.check({ allUsed: true })
    })
  )

  it.scopedLive("finds the direct answer an earlier try made", () =>
    Effect.gen(function* () {
      const { server, account } = yield* replayed("retry-found")
      const found = yield* inbox.findSent(account, answer("dm"))
      expect(found).toEqual(Option.some({ channel: "dm", remoteId: "113571930000000302" }))
      yield* server.check({ allUsed: true })
    })
  )

  // A clock stopped at the recording's time (the wait is read against it), given with `Effect.withClock`: the
  // TestClock's setTime failed once on CI in engine-free files.
  const millis = Date.parse("2026-11-29T12:00:00Z")
  const stopped = Object.assign(Object.create(Clock.make()) as Clock.Clock, {
    unsafeCurrentTimeMillis: () => millis,
    currentTimeMillis: Effect.succeed(millis),
    unsafeCurrentTimeNanos: () => BigInt(millis) * 1_000_000n,
    currentTimeNanos: Effect.succeed(BigInt(millis) * 1_000_000n)
  })
  it.scopedLive("waits until the instance's X-RateLimit-Reset after a 429", () =>
    Effect.gen(function* () {
      const { server, account } = yield* replayed("rate-limited")
      const failure = yield* Effect.flip(inbox.send(account, answer("reply")))
      expect(failure).toMatchObject({ kind: "temporary", retryAfterMs: 30 * 60_000 })
      yield* server.check({ allUsed: true })
    }).pipe(Effect.withClock(stopped))
  )
})
