/**
 * Auto-DM through its tools and its worker, on the real test database: rules and their refusals, replies matched by
 * keyword and answered once per person, a DM that falls back to a reply, Retry-After, two workers racing one reply,
 * and a crash after a send followed by a restart (a new worker layer on the same database). The platform is an
 * inbox the test scripts (an outside network), the storage is ours.
 */
import { describe, expect, layer } from "@effect/vitest"
import {
  AutoDmSending,
  AutoDmWorkRepo,
  type EngagementInbox,
  EngagementInboxesLive,
  type Engagement,
  MessageFailure,
  processAutoDm,
  runAutoDmWorker,
  type SentMessage
} from "@svc/core/auto-dm"
import {
  type PlatformPublisher,
  type Published,
  publishDuePosts,
  Scheduling,
  SchedulingPortsLive
} from "@svc/core/scheduling"
import { Deferred, Effect, Fiber, Layer, Option, TestClock } from "effect"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { callTool, realPause } from "../custom-ai/ask-support.js"
import { signUp, TEST_PUBLIC_BASE, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

/** A publisher for the platforms the test connects accounts on (bluesky, and x, which cannot send messages). */
const publisherFor = (platform: "bluesky" | "x"): PlatformPublisher => ({
  platform,
  verify: (_serviceUrl, credentials) =>
    Effect.succeed({
      handle: String(credentials.identifier),
      displayName: null,
      serviceUrl: "https://pds.test",
      credentials
    }),
  publish: (request) =>
    Effect.succeed<Published>({
      remoteId: `at://did:plc:me/app.bsky.feed.post/${request.deliveryId}`,
      url: `https://bsky.test/${request.deliveryId}`
    }),
  findPublished: () => Effect.succeed(Option.none())
})

/**
 * The network's side, scripted: `items` are the replies and mentions it holds (the cursor is how many were read),
 * `sent` what went out by send and channel, `closedDms` the people who take no direct messages, `next` what the
 * next sends do, and `crash` a send that goes out and then never answers (the process dies there).
 */
const network = {
  accountId: "",
  items: [] as Array<Engagement>,
  sent: new Map<string, SentMessage & { readonly text: string; readonly to: string }>(),
  sends: 0,
  closedDms: new Set<string>(),
  next: [] as Array<"ok" | MessageFailure>,
  crash: undefined as Deferred.Deferred<void> | undefined,
  slowMs: 0
}

const scriptedInbox: EngagementInbox = {
  platform: "bluesky",
  readNew: (account, cursor) =>
    Effect.sync(() => {
      // Accounts of earlier tests read nothing new.
      if (account.id !== network.accountId) return { items: [], cursor }
      const from = cursor === null ? 0 : Number(cursor)
      return { items: network.items.slice(from), cursor: String(network.items.length) }
    }),
  send: (_account, message) =>
    Effect.gen(function* () {
      if (network.slowMs > 0) yield* realPause(network.slowMs)
      const step = network.next.shift() ?? "ok"
      if (step !== "ok") return yield* step
      if (message.channel === "dm" && network.closedDms.has(message.trigger.authorId)) {
        return yield* new MessageFailure({ kind: "unavailable", message: "recipient requires incoming messages" })
      }
      network.sends += 1
      const sent = { channel: message.channel, remoteId: `msg-${message.sendId}-${message.channel}` }
      network.sent.set(`${message.sendId}:${message.channel}`, {
        ...sent,
        text: message.text,
        to: message.trigger.authorHandle
      })
      const crash = network.crash
      if (crash !== undefined) {
        yield* Deferred.succeed(crash, undefined)
        return yield* Effect.never
      }
      return sent
    }),
  findSent: (_account, message) =>
    Effect.sync(() =>
      Option.map(Option.fromNullable(network.sent.get(`${message.sendId}:${message.channel}`)), (s) => ({
        channel: s.channel,
        remoteId: s.remoteId
      }))
    )
}

// The core serves auto-DM (its rules, tools and sending); the test gives it the scripted platform's inbox.
const testLayer = testCoreLayer(
  Layer.mergeAll(
    SchedulingPortsLive(TEST_PUBLIC_BASE, [publisherFor("bluesky"), publisherFor("x")]),
    EngagementInboxesLive([scriptedInbox])
  ).pipe(Layer.provide(SqlPortsLive))
)

const START = Date.parse("2026-12-01T08:00:00Z")
const worker = { leaseMs: 60_000, concurrency: 4 }

type RuleRecord = {
  readonly id: string
  readonly keywords: ReadonlyArray<string>
  readonly delivery: string
  readonly enabled: boolean
  readonly postId: string | null
  readonly link: string | null
  readonly sentCount: number
  readonly failedCount: number
}

const refusal = (answer: Record<string, unknown>) => {
  expect(answer.ok).toBe(false)
  return answer as { readonly status: string; readonly message: string }
}

let people = 0
/** A reply (or mention) by a new person, or by `author` again, made `minutesAfterStart` into the test. */
const engagement = (
  text: string,
  options: { readonly author?: string; readonly parent?: string; readonly kind?: "reply" | "mention" } = {}
): Engagement => {
  people += 1
  const author = options.author ?? `person${people}`
  return {
    remoteId: `at://did:plc:${author}/app.bsky.feed.post/r${people}`,
    cid: `cid${people}`,
    kind: options.kind ?? "reply",
    authorId: `did:plc:${author}`,
    authorHandle: `${author}.test`,
    authorName: author === "anna" ? "Anna Lindqvist" : null,
    text,
    parentRemoteId: options.parent ?? null,
    rootRemoteId: options.parent ?? null,
    root: options.parent === undefined ? null : { uri: options.parent, cid: "cidroot" },
    direct: false,
    at: new Date(START + 60_000)
  }
}

/** Runs the worker until nothing is due at the test clock's time. */
const drain = Effect.gen(function* () {
  for (;;) {
    const { inboxes, sends } = yield* processAutoDm(worker)
    if (inboxes + sends === 0) return
  }
})

/** A Starter workspace with its Bluesky account connected; answers the user and the account's id. */
const withAccount = Effect.gen(function* () {
  yield* TestClock.setTime(START)
  network.items = []
  network.sent.clear()
  network.sends = 0
  network.next = []
  network.crash = undefined
  network.slowMs = 0
  const user = yield* signUp({ plan: "starter" })
  const account = yield* (yield* Scheduling).connectAccount(user.workspace.id, "bluesky", "https://pds.test", {
    identifier: "me.test",
    appPassword: "app"
  })
  network.accountId = account.id
  return { user, accountId: account.id }
})

const createRule = (principal: Parameters<typeof callTool>[0], args: Record<string, unknown>) =>
  Effect.map(callTool(principal, "svc_create_auto_dm_automation", args), (answer) => {
    expect(answer).toMatchObject({ ok: true })
    return answer.rule as RuleRecord
  })

layer(testLayer, { timeout: "120 seconds" })(`auto-DM (${engineName})`, (it) => {
  describe("rules", () => {
    it.effect("are made, listed a page at a time, changed and deleted", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        const rule = yield* createRule(user.principal, {
          accountId,
          keywords: ["  Guide ", "free   PDF", "guide"],
          template: "Hi {name}, here it is: {link}",
          link: "https://example.com/guide"
        })
        expect(rule).toMatchObject({
          keywords: ["guide", "free pdf"],
          delivery: "dmOrReply",
          enabled: true,
          postId: null,
          sentCount: 0
        })
        for (let i = 0; i < 3; i++) {
          yield* TestClock.adjust("1 second")
          yield* createRule(user.principal, { accountId, keywords: [`k${i}`], template: "Thanks {handle}!" })
        }
        const first = yield* callTool(user.principal, "svc_list_auto_dm_rules", { limit: 3 })
        const firstRules = first.rules as ReadonlyArray<RuleRecord>
        expect(firstRules.map((r) => r.keywords[0])).toEqual(["k2", "k1", "k0"])
        const second = yield* callTool(user.principal, "svc_list_auto_dm_rules", { limit: 3, cursor: first.nextCursor })
        expect((second.rules as ReadonlyArray<RuleRecord>).map((r) => r.id)).toEqual([rule.id])
        expect(second.nextCursor).toBeUndefined()

        const updated = yield* callTool(user.principal, "svc_update_auto_dm_automation", {
          ruleId: rule.id,
          delivery: "reply",
          enabled: false,
          template: "Hi {name}",
          link: ""
        })
        expect(updated.rule).toMatchObject({ delivery: "reply", enabled: false, link: null, template: "Hi {name}" })

        const deleted = yield* callTool(user.principal, "svc_delete_auto_dm_automation", { ruleId: rule.id })
        expect(deleted).toMatchObject({ ok: true, deleted: true, rule: { id: rule.id } })
        const again = yield* callTool(user.principal, "svc_delete_auto_dm_automation", { ruleId: rule.id })
        expect(refusal(again).status).toBe("not-found")
      })
    )

    it.effect("refuse what they cannot do, naming the field", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        const base = { accountId, keywords: ["guide"], template: "Hi {name}" }
        const cases: ReadonlyArray<readonly [Record<string, unknown>, string, RegExp]> = [
          [{ ...base, keywords: [] }, "invalid", /keywords/],
          [{ ...base, keywords: ["*", "guide"] }, "invalid", /stands alone/],
          [{ ...base, template: "Hi {firstname}" }, "invalid", /unknown placeholder \{firstname\}/],
          [{ ...base, template: "Read {link}" }, "invalid", /give link/],
          [{ ...base, link: "ftp://example.com" }, "invalid", /http\(s\)/],
          [{ ...base, accountId: "feed" }, "invalid", /capability "dm" or "reply"/],
          [{ ...base, accountId: "sac_nope" }, "not-found", /no connected account/],
          [{ ...base, postId: "post_nope" }, "not-found", /no post/]
        ]
        for (const [args, status, message] of cases) {
          const answer = refusal(yield* callTool(user.principal, "svc_create_auto_dm_automation", args))
          expect(answer.status, JSON.stringify(args)).toBe(status)
          expect(answer.message).toMatch(message)
        }
        // An account on a platform that cannot send messages.
        const x = yield* (yield* Scheduling).connectAccount(user.workspace.id, "x", "https://x.test", {
          identifier: "me"
        })
        const onX = refusal(
          yield* callTool(user.principal, "svc_create_auto_dm_automation", { ...base, accountId: x.id })
        )
        expect(onX).toMatchObject({ status: "invalid" })
        expect(onX.message).toMatch(/^x cannot send messages here \(capability "dm" or "reply"/)
        // A post that has not gone out yet.
        const scheduling = yield* Scheduling
        const draft = yield* scheduling.schedulePost(user.workspace.id, user.account.id, {
          text: "soon",
          platforms: ["bluesky"],
          draft: true
        })
        const early = refusal(
          yield* callTool(user.principal, "svc_create_auto_dm_automation", { ...base, postId: draft.id })
        )
        expect(early.message).toMatch(/has not gone out on bluesky/)
      })
    )

    it.effect("are at most 50 a workspace", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        for (let i = 0; i < 50; i++) {
          yield* createRule(user.principal, { accountId, keywords: [`k${i}`], template: "Hi" })
        }
        const over = refusal(
          yield* callTool(user.principal, "svc_create_auto_dm_automation", {
            accountId,
            keywords: ["more"],
            template: "Hi"
          })
        )
        expect(over.status).toBe("conflict")
      })
    )
  })

  describe("the worker", () => {
    it.effect("answers each matching person once, by DM, else by reply where the rule allows", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        const rule = yield* createRule(user.principal, {
          accountId,
          keywords: ["guide", "free pdf"],
          template: "Hi {name} ({handle}), here it is: {link}",
          link: "https://example.com/guide"
        })
        const anna = engagement("Could I get the GUIDE please?", { author: "anna" })
        network.items.push(
          anna,
          engagement("nice post", {}),
          engagement("guidelines, anyone?", {}),
          engagement("send the free  PDF!", { author: "ben" })
        )
        network.closedDms.add("did:plc:ben")
        yield* drain
        const sent = [...network.sent.values()].sort((a, b) => a.to.localeCompare(b.to))
        expect(sent.map((s) => [s.to, s.channel])).toEqual([
          ["anna.test", "dm"],
          ["ben.test", "reply"]
        ])
        expect(sent[0]?.text).toBe("Hi Anna Lindqvist (@anna.test), here it is: https://example.com/guide")
        expect(sent[1]?.text).toBe("Hi ben.test (@ben.test), here it is: https://example.com/guide")

        // Anna asks again, on another post: she has had this rule's message.
        network.items.push(engagement("guide again?", { author: "anna" }))
        yield* TestClock.adjust("61 seconds")
        yield* drain
        expect(network.sends).toBe(2)

        const listed = yield* callTool(user.principal, "svc_list_auto_dm_rules", {})
        expect((listed.rules as ReadonlyArray<RuleRecord>)[0]).toMatchObject({ id: rule.id, sentCount: 2 })
        const sends = [...(yield* (yield* AutoDmWorkRepo).sendsOf(rule.id))].sort((a, b) =>
          a.personHandle.localeCompare(b.personHandle)
        )
        expect(sends.map((s) => [s.personHandle, s.status, s.channel])).toEqual([
          ["anna.test", "sent", "dm"],
          ["ben.test", "sent", "reply"]
        ])
      })
    )

    it.effect("keeps a rule on a post to replies in that post's thread, and a dm-only rule to DMs", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        const scheduling = yield* Scheduling
        const post = yield* scheduling.schedulePost(user.workspace.id, user.account.id, {
          text: "The guide is out",
          platforms: ["bluesky"],
          draft: true
        })
        yield* scheduling.publishNow(user.workspace.id, post.id)
        yield* publishDuePosts({ leaseMs: 60_000 })
        const published = yield* scheduling.getPost(user.workspace.id, post.id)
        const remoteId = published.deliveries[0]?.remoteId ?? ""
        expect(remoteId).toMatch(/^at:\/\//)
        const rule = yield* createRule(user.principal, {
          accountId,
          postId: post.id,
          keywords: ["*"],
          template: "Thanks {name}!",
          delivery: "dm"
        })
        network.closedDms.add("did:plc:closed")
        network.items.push(
          engagement("me!", { parent: remoteId }),
          engagement("me too", { parent: "at://did:plc:me/app.bsky.feed.post/other" }),
          engagement("hey @me", { kind: "mention" }),
          engagement("me!", { parent: remoteId, author: "closed" })
        )
        yield* drain
        const sends = yield* (yield* AutoDmWorkRepo).sendsOf(rule.id)
        const byHandle = new Map(sends.map((s) => [s.personHandle, s]))
        expect(sends).toHaveLength(2)
        expect(byHandle.get("closed.test")).toMatchObject({ status: "failed", channel: null })
        expect(byHandle.get("closed.test")?.error).toMatch(/recipient requires incoming messages/)
        expect([...byHandle.values()].filter((s) => s.status === "sent").map((s) => s.channel)).toEqual(["dm"])
        const listed = yield* callTool(user.principal, "svc_list_auto_dm_rules", { postId: post.id })
        expect((listed.rules as ReadonlyArray<RuleRecord>)[0]).toMatchObject({ sentCount: 1, failedCount: 1 })
      })
    )

    it.effect("waits as long as the platform's Retry-After says, then asks before sending again", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        const rule = yield* createRule(user.principal, { accountId, keywords: ["guide"], template: "Hi {name}" })
        network.next = [new MessageFailure({ kind: "temporary", message: "rate limited (429)", retryAfterMs: 90_000 })]
        network.items.push(engagement("guide?", {}))
        yield* drain
        const waiting = (yield* (yield* AutoDmWorkRepo).sendsOf(rule.id))[0]
        expect(waiting).toMatchObject({ status: "pending", attempts: 1 })
        expect(waiting?.nextAttemptAt?.getTime()).toBe(START + 90_000)
        yield* TestClock.adjust("80 seconds")
        yield* drain
        expect(network.sends).toBe(0)
        yield* TestClock.adjust("11 seconds")
        yield* drain
        expect(network.sends).toBe(1)
        expect((yield* (yield* AutoDmWorkRepo).sendsOf(rule.id))[0]).toMatchObject({ status: "sent", attempts: 2 })
      })
    )

    it.effect("replies at once when a DM fails before anything went out, and retries a DM that may have", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        const rule = yield* createRule(user.principal, { accountId, keywords: ["guide"], template: "Hi {name}" })
        network.next = [
          new MessageFailure({ kind: "temporary", message: "chat service unreachable (500)", beforeSending: true })
        ]
        network.items.push(engagement("guide?", { author: "early" }))
        yield* drain
        network.next = [new MessageFailure({ kind: "temporary", message: "timed out while sending" })]
        network.items.push(engagement("guide?", { author: "late" }))
        yield* TestClock.adjust("61 seconds")
        yield* drain
        const byHandle = new Map((yield* (yield* AutoDmWorkRepo).sendsOf(rule.id)).map((s) => [s.personHandle, s]))
        expect(byHandle.get("early.test")).toMatchObject({ status: "sent", channel: "reply", triedChannels: ["reply"] })
        expect(byHandle.get("late.test")).toMatchObject({ status: "pending", attempts: 1, triedChannels: ["dm"] })
        yield* TestClock.adjust("31 seconds")
        yield* drain
        expect(
          (yield* (yield* AutoDmWorkRepo).sendsOf(rule.id)).find((s) => s.personHandle === "late.test")
        ).toMatchObject({
          status: "sent",
          channel: "dm",
          attempts: 2
        })
        expect(network.sends).toBe(2)
      })
    )

    it.effect("keeps each account within its budget of 100 messages an hour, without counting a try", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        const rule = yield* createRule(user.principal, { accountId, keywords: ["*"], template: "Hi {name}" })
        for (let i = 0; i < 101; i++) network.items.push(engagement("me!", {}))
        yield* drain
        expect(network.sends).toBe(100)
        const waiting = (yield* (yield* AutoDmWorkRepo).sendsOf(rule.id)).filter((s) => s.status === "pending")
        expect(waiting).toHaveLength(1)
        expect(waiting[0]).toMatchObject({ attempts: 0, error: "waiting for the account's message budget" })
        expect(waiting[0]?.nextAttemptAt?.getTime()).toBeGreaterThan(START + 3_000_000)
        yield* TestClock.adjust("1 hour")
        yield* drain
        expect(network.sends).toBe(101)
      })
    )

    it.effect("sends once when two workers race for the same reply", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        const rule = yield* createRule(user.principal, { accountId, keywords: ["guide"], template: "Hi {name}" })
        network.items.push(engagement("guide?", {}))
        network.slowMs = 50
        // Two workers, each with its own service (as two instances have), over the one database.
        const otherWorker = processAutoDm(worker).pipe(Effect.provide(Layer.fresh(AutoDmSending.Default)))
        yield* Effect.all([processAutoDm(worker), otherWorker, processAutoDm(worker), otherWorker], {
          concurrency: 4
        })
        yield* drain
        expect(network.sends).toBe(1)
        expect((yield* (yield* AutoDmWorkRepo).sendsOf(rule.id)).map((s) => s.status)).toEqual(["sent"])
      })
    )

    it.effect("does not send again after a crash past the send, nor after a restart reads the reply again", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        const rule = yield* createRule(user.principal, { accountId, keywords: ["guide"], template: "Hi {name}" })
        const reply = engagement("guide?", {})
        network.items.push(reply)
        const crashed = yield* Deferred.make<void>()
        network.crash = crashed
        // The worker reads the reply, sends, and dies before it records the send.
        const running = yield* Effect.fork(drain)
        yield* Deferred.await(crashed)
        yield* Fiber.interrupt(running)
        network.crash = undefined
        expect(network.sends).toBe(1)
        expect((yield* (yield* AutoDmWorkRepo).sendsOf(rule.id))[0]).toMatchObject({ status: "pending" })

        // A new process: a fresh worker layer on the same database, after the dead one's lease.
        const restarted = Layer.fresh(AutoDmSending.Default)
        yield* TestClock.adjust("61 seconds")
        // The network hands the same reply out again (its cursor as the new process reads it).
        network.items.push(reply)
        yield* drain.pipe(Effect.provide(restarted))
        expect(network.sends).toBe(1)
        const [send] = yield* (yield* AutoDmWorkRepo).sendsOf(rule.id)
        expect(send).toMatchObject({ status: "sent", attempts: 2, remoteId: `msg-${send?.id}-dm` })
        const listed = yield* callTool(user.principal, "svc_list_auto_dm_rules", {})
        expect((listed.rules as ReadonlyArray<RuleRecord>)[0]).toMatchObject({ sentCount: 1 })
      })
    )

    it.scoped("runs as a loop that reads and answers new replies by itself", () =>
      Effect.gen(function* () {
        const { user, accountId } = yield* withAccount
        yield* createRule(user.principal, { accountId, keywords: ["guide"], template: "Hi {name}" })
        yield* Effect.forkScoped(runAutoDmWorker({ leaseMs: 60_000, concurrency: 2, idleMs: 1_000 }))
        network.items.push(engagement("guide?", {}))
        for (let i = 0; i < 100 && network.sends === 0; i++) {
          yield* TestClock.adjust("1 second")
          yield* realPause(20)
        }
        expect(network.sends).toBe(1)
      })
    )
  })
})
