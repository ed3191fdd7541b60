/**
 * Auto-DM on a real local AT Protocol network with an AppView (test/support/atproto-appview.ts): svc publishes a post
 * through the Bluesky publisher, people reply to it and like it on the network, and the auto-DM worker reads the
 * replies from the account's notifications and answers a matching one with a reply, once: not again for a second
 * reply of the same person, nor after a restart (a new worker layer on the same database), even one that lost the
 * inbox's cursor and reads every reply again. The rule asks for a DM where allowed, else a reply: Bluesky's chat
 * service is not part of the open-source network, so the PDS cannot open the conversation (500) and, nothing having
 * been sent, the reply goes out at once. Direct messages themselves are tested against recorded exchanges
 * (bluesky-chat.test.ts).
 */
import type { AppBskyFeedDefs, AtpAgent } from "@atproto/api"
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { AutoDm, AutoDmSending, AutoDmWorkRepo, EngagementInboxesLive, processAutoDm } from "@svc/core/auto-dm"
import { publishDuePosts, Scheduling, SchedulingPortsLive } from "@svc/core/scheduling"
import { Effect, Layer } from "effect"
import { makeBlueskyInbox } from "../../src/auto-dm/bluesky-inbox.js"
import { makeBlueskyPublisher } from "../../src/publisher/bluesky.js"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { AtprotoAppView, AtprotoAppViewLive, atprotoAppViewTool } from "../support/atproto-appview.js"
import { signUp, TEST_PUBLIC_BASE, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { skipWithout } from "../support/external-tool.js"

const skip = skipWithout("the auto-DM tests on a local AT Protocol network with an AppView", await atprotoAppViewTool())

const core = testCoreLayer(
  Layer.mergeAll(
    SchedulingPortsLive(TEST_PUBLIC_BASE, [makeBlueskyPublisher()]),
    EngagementInboxesLive([makeBlueskyInbox()])
  ).pipe(Layer.provide(SqlPortsLive))
)

const worker = { leaseMs: 30_000, concurrency: 4 }

/** Runs the worker until nothing is due now. */
const drain = Effect.gen(function* () {
  for (;;) {
    const { inboxes, sends } = yield* processAutoDm(worker)
    if (inboxes + sends === 0) return
  }
})

/** The replies under a post, as the AppView shows its thread. */
const repliesTo = (agent: AtpAgent, uri: string) =>
  Effect.promise(() => agent.app.bsky.feed.getPostThread({ uri, depth: 2 })).pipe(
    Effect.map(({ data }) => {
      const thread = data.thread as AppBskyFeedDefs.ThreadViewPost
      return (thread.replies ?? []).map((reply) => (reply as AppBskyFeedDefs.ThreadViewPost).post)
    })
  )

describe.skipIf(skip)(`auto-DM on a local Bluesky network (${engineName})`, () => {
  layer(Layer.merge(AtprotoAppViewLive, core), { excludeTestServices: true, timeout: "180 seconds" })((it) => {
    it.effect("answers a matching reply once, also after a restart that reads the replies again", () =>
      Effect.gen(function* () {
        const network = yield* AtprotoAppView
        const shop = yield* network.createAccount("bakery")
        const fan = yield* network.createAccount("fran")
        const quiet = yield* network.createAccount("quietone")
        const fanAgent = yield* network.agentFor(fan)
        const quietAgent = yield* network.agentFor(quiet)
        yield* Effect.promise(() => fanAgent.upsertProfile(() => ({ displayName: "Fran Fan" })))

        // svc: the shop's account connected with its app password, a post published through the publisher.
        const user = yield* signUp({ plan: "starter" })
        const scheduling = yield* Scheduling
        const account = yield* scheduling.connectAccount(user.workspace.id, "bluesky", network.pdsUrl, {
          identifier: shop.handle,
          appPassword: shop.appPassword
        })
        const draft = yield* scheduling.schedulePost(user.workspace.id, user.account.id, {
          text: "Our free baking guide is out. Reply GUIDE and we send it.",
          platforms: ["bluesky"],
          draft: true
        })
        yield* scheduling.publishNow(user.workspace.id, draft.id)
        yield* publishDuePosts({ leaseMs: 60_000 })
        const post = yield* scheduling.getPost(user.workspace.id, draft.id)
        const postUri = post.deliveries[0]?.remoteId ?? ""
        expect(post.status).toBe("posted")

        const rule = yield* (yield* AutoDm).create(user.workspace.id, {
          accountId: account.id,
          postId: post.id,
          keywords: ["guide"],
          template: "Hi {name}! Here is the guide: {link}",
          link: "https://example.com/guide",
          delivery: "dmOrReply"
        })

        // People like the post and reply to it: one with the keyword, one without.
        yield* network.settle
        const { data: thePost } = yield* Effect.promise(() => fanAgent.getPosts({ uris: [postUri] }))
        const cid = thePost.posts[0]?.cid ?? ""
        yield* Effect.promise(() => fanAgent.like(postUri, cid))
        const ref = { uri: postUri, cid }
        const asked = yield* Effect.promise(() =>
          fanAgent.post({ text: "Guide please!", reply: { root: ref, parent: ref } })
        )
        yield* Effect.promise(() => quietAgent.post({ text: "Lovely bread", reply: { root: ref, parent: ref } }))
        yield* network.settle

        yield* drain
        yield* network.settle
        const answers = yield* repliesTo(fanAgent, asked.uri)
        expect(answers.map((a) => [a.author.handle, (a.record as { text: string }).text])).toEqual([
          [shop.handle, "Hi Fran Fan! Here is the guide: https://example.com/guide"]
        ])
        const { data: notifications } = yield* Effect.promise(() =>
          fanAgent.app.bsky.notification.listNotifications({ limit: 20 })
        )
        expect(notifications.notifications.filter((n) => n.reason === "reply").map((n) => n.author.handle)).toEqual([
          shop.handle
        ])

        // The fan asks again; a restarted worker (a new layer on the same database) that lost the inbox's cursor
        // reads every reply again: nobody is answered twice.
        yield* Effect.promise(() => fanAgent.post({ text: "the guide again?", reply: { root: ref, parent: ref } }))
        yield* network.settle
        const sql = yield* SqlClient
        yield* sql`UPDATE auto_dm_inboxes SET cursor = NULL, next_poll_at = now() WHERE account_id = ${account.id}`
        yield* drain.pipe(Effect.provide(Layer.fresh(AutoDmSending.Default)))
        yield* network.settle
        const sends = yield* (yield* AutoDmWorkRepo).sendsOf(rule.id)
        expect(sends.map((s) => [s.personHandle, s.status, s.channel])).toEqual([[fan.handle, "sent", "reply"]])
        expect(yield* repliesTo(fanAgent, asked.uri)).toHaveLength(1)
        const shopAgent = yield* network.agentFor(shop)
        const { data: shopPosts } = yield* Effect.promise(() =>
          shopAgent.com.atproto.repo.listRecords({ repo: shop.did, collection: "app.bsky.feed.post" })
        )
        // The published post and one answer.
        expect(shopPosts.records).toHaveLength(2)
      })
    )
  })
})
