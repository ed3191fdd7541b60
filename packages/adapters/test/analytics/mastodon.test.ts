/**
 * The Mastodon metrics reader against recorded exchanges replayed by a local server (no instance is reachable here;
 * see recordings/mastodon/README.md): the counts a status gives, null for what Mastodon does not count, a deleted
 * status left out, and a revoked token or a rate limit as the failures the worker backs off from.
 */
import { describe, expect, it } from "@effect/vitest"
import type { PublishingAccount } from "@svc/core/scheduling"
import { Effect } from "effect"
import { makeMastodonMetricsReader } from "../../src/analytics/mastodon.js"
import { loadRecording, startReplayServer } from "../support/replay-server.js"

const TOKEN = "ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0"

const replay = (scenario: string) =>
  startReplayServer(loadRecording(new URL(`./recordings/mastodon/${scenario}.json`, import.meta.url)).exchanges)

const reader = makeMastodonMetricsReader({ requestTimeout: "5 seconds", allowPlainHttp: true })

const accountAt = (serviceUrl: string, accessToken = TOKEN): PublishingAccount => ({
  id: "sac_mastodon",
  platform: "mastodon",
  handle: "@harbourlog@mastodon.example",
  serviceUrl,
  credentials: { accessToken, accountId: "109348213456789012" }
})

describe("Mastodon metrics reader", () => {
  it.scopedLive(
    "reads favourites, replies, boosts and quotes; views and clicks are null; a deleted status is left out",
    () =>
      Effect.gen(function* () {
        const server = yield* replay("metrics")
        const read = yield* reader.read({
          workspaceId: "ws_test",
          account: accountAt(server.origin),
          remoteIds: ["113571930000000101", "113571930000000202", "113571930000000303"]
        })
        expect(Object.fromEntries(read)).toEqual({
          "113571930000000101": { likes: 11, replies: 3, reposts: 2, quotes: 1, views: null, clicks: null },
          // An instance before 4.5 counts no quotes: null, not 0.
          "113571930000000202": { likes: 4, replies: 0, reposts: 0, quotes: null, views: null, clicks: null }
        })
        yield* server.check({ allUsed: true })
      })
  )

  it.scopedLive("a revoked token is a credentials failure, a rate limit a temporary one", () =>
    Effect.gen(function* () {
      const server = yield* replay("refused")
      const revoked = yield* Effect.flip(
        reader.read({
          workspaceId: "ws_test",
          account: accountAt(server.origin, "revoked-token-0000000000000000000000000000"),
          remoteIds: ["113571930000000101"]
        })
      )
      expect(revoked.kind).toBe("credentials")
      expect(revoked.message).toContain("The access token is invalid")
      const limited = yield* Effect.flip(
        reader.read({ workspaceId: "ws_test", account: accountAt(server.origin), remoteIds: ["113571930000000101"] })
      )
      expect(limited.kind).toBe("temporary")
      // No token goes out in clear unless plain http is allowed.
      const plain = yield* Effect.flip(
        makeMastodonMetricsReader().read({
          workspaceId: "ws_test",
          account: accountAt(server.origin),
          remoteIds: ["113571930000000101"]
        })
      )
      expect(plain.kind).toBe("rejected")
      yield* server.check({ allUsed: true })
    })
  )
})
