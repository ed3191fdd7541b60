/**
 * Scheduling through its tools and the publishing worker, on the real test database: schedules and slots, posts
 * from draft to published on the own feed, refusals, and a scripted outside network (a platform publisher the test
 * controls) for retries, partial and failed outcomes, reconnects and a takeover after a crash.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import type { Principal } from "@svc/core/auth"
import { EventLog } from "@svc/core/events"
import { WEBHOOK_EVENT_DATA } from "@svc/core/store-api"
import {
  claimDueDeliveries,
  type PlatformPublisher,
  PostPublishing,
  type Published,
  PublishFailure,
  publishDuePosts,
  readConnectLink,
  type PublishRequest,
  Scheduling,
  SchedulingPortsLive
} from "@svc/core/scheduling"
import { Duration, Effect, Fiber, Layer, Option, Schema, TestClock } from "effect"
import { callTool, realPause } from "../custom-ai/ask-support.js"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { signUp, TEST_PUBLIC_BASE, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

/**
 * A network the test scripts: `next` says what the next publish does; `posts` is what it holds, by delivery, so a
 * repeat of a delivery is seen.
 */
const network = {
  next: [] as Array<"ok" | PublishFailure>,
  posts: new Map<string, Published>(),
  publishes: 0
}

const scripted: PlatformPublisher = {
  platform: "bluesky",
  verify: (_serviceUrl, credentials) =>
    credentials.appPassword === "right"
      ? Effect.succeed({
          handle: String(credentials.identifier),
          displayName: "Test",
          serviceUrl: "https://pds.test",
          credentials
        })
      : Effect.fail(new PublishFailure({ kind: "credentials", message: "Invalid identifier or password" })),
  publish: (request: PublishRequest) =>
    Effect.suspend(() => {
      network.publishes += 1
      const step = network.next.shift() ?? "ok"
      if (step !== "ok") return Effect.fail(step)
      const published = {
        remoteId: `at://did:test/${request.deliveryId}`,
        url: `https://bsky.test/${request.deliveryId}`
      }
      network.posts.set(request.deliveryId, published)
      return Effect.succeed(published)
    }),
  findPublished: (request) => Effect.sync(() => Option.fromNullable(network.posts.get(request.deliveryId)))
}

const testLayer = testCoreLayer(SchedulingPortsLive(TEST_PUBLIC_BASE, [scripted]).pipe(Layer.provide(SqlPortsLive)))

const START = Date.parse("2026-12-01T08:00:00Z")
const worker = { leaseMs: 60_000, concurrency: 4 }

type PostRecord = {
  readonly id: string
  readonly status: string
  readonly scheduledFor: string | null
  readonly fromSlot: boolean
  readonly url: string | null
  readonly error: string | null
  readonly deliveries: ReadonlyArray<{
    readonly platform: string
    readonly status: string
    readonly url: string | null
    readonly error: string | null
    readonly attempts: number
  }>
}

const call = (principal: Principal, name: string, args: Record<string, unknown>) => callTool(principal, name, args)
const postOf = (answer: Record<string, unknown>) => answer.post as PostRecord
const refusal = (answer: Record<string, unknown>) => {
  expect(answer.ok).toBe(false)
  return answer as { readonly status: string; readonly message: string }
}

/** Runs the worker until nothing is due (at the test clock's time). */
const publishAll = Effect.gen(function* () {
  while ((yield* publishDuePosts(worker)) > 0) {}
})

/** The workspace's events of a post type, newest first; each one's data must be what the webhooks document. */
const eventsOf = (workspaceId: string, type: "post.published" | "post.failed") =>
  Effect.map(
    Effect.flatMap(EventLog, (log) => log.list(workspaceId, { type }, { limit: 10, after: undefined })),
    (page) => {
      const data: Schema.Schema<unknown, unknown> = WEBHOOK_EVENT_DATA[type] as Schema.Schema<unknown, unknown>
      for (const event of page.rows) Schema.decodeUnknownSync(data)(event.data)
      return page.rows
    }
  )

/** A Starter account with the scripted network's account connected. */
const withNetwork = Effect.gen(function* () {
  const user = yield* signUp({ plan: "starter" })
  const scheduling = yield* Scheduling
  yield* scheduling.connectAccount(user.workspace.id, "bluesky", "https://pds.test", {
    identifier: "me.test",
    appPassword: "right"
  })
  return user
})

layer(testLayer, { timeout: "120 seconds" })(`scheduling (${engineName})`, (it) => {
  describe("schedules", () => {
    it.effect("a new workspace posts in UTC with no slots, to its own feed; the schedule keeps local times", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const { principal, store } = yield* signUp()
        const fresh = yield* call(principal, "svc_list_schedules", {})
        expect(fresh).toMatchObject({ ok: true, timeZone: "UTC", slots: [], nextSlots: [], accounts: [] })
        expect(fresh.publishableTo).toEqual(["feed", "bluesky"])
        // The feed lives under the store's handle.
        expect(fresh.feedUrl).toBe(`${TEST_PUBLIC_BASE}/s/${store.handle}/posts`)

        const badZone = refusal(yield* call(principal, "svc_update_schedule", { timeZone: "Mars/Olympus" }))
        expect(badZone.message).toContain("not an IANA time zone")
        const badTime = refusal(
          yield* call(principal, "svc_update_schedule", { slots: [{ weekday: 1, time: "25:00" }] })
        )
        expect(badTime.message).toContain('"HH:MM"')

        // Tuesday 1 December 2026, 08:00 UTC = 09:00 in Berlin: today's 09:30 slot comes first.
        const set = yield* call(principal, "svc_update_schedule", {
          timeZone: "Europe/Berlin",
          slots: [
            { weekday: 2, time: "09:30" },
            { weekday: 4, time: "18:00" },
            { weekday: 2, time: "09:30" }
          ]
        })
        expect(set).toMatchObject({ timeZone: "Europe/Berlin", slots: [{ weekday: 2 }, { weekday: 4 }] })
        expect((set.nextSlots as ReadonlyArray<string>).slice(0, 3)).toEqual([
          "2026-12-01T08:30:00.000Z",
          "2026-12-03T17:00:00.000Z",
          "2026-12-08T08:30:00.000Z"
        ])
      })
    )
  })

  describe("posts on the own feed", () => {
    it.effect("a post scheduled for the next free slot goes out there, and post.published is recorded once", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const { principal, workspace, store } = yield* signUp()
        const noSlots = refusal(yield* call(principal, "svc_schedule_post", { text: "Hello", platforms: ["feed"] }))
        expect(noSlots.message).toContain("svc_update_schedule")

        yield* call(principal, "svc_update_schedule", { slots: [{ weekday: 2, time: "09:00" }] })
        const first = postOf(yield* call(principal, "svc_schedule_post", { text: "First #post", platforms: ["feed"] }))
        expect(first).toMatchObject({ status: "scheduled", fromSlot: true, scheduledFor: "2026-12-01T09:00:00.000Z" })
        expect(first.deliveries).toMatchObject([{ platform: "feed", status: "pending", attempts: 0 }])
        // The slot is taken: the next post gets next week's.
        const second = postOf(yield* call(principal, "svc_schedule_post", { text: "Second", platforms: ["feed"] }))
        expect(second.scheduledFor).toBe("2026-12-08T09:00:00.000Z")

        // Not due yet: nothing goes out.
        expect(yield* publishDuePosts(worker)).toBe(0)
        yield* TestClock.adjust(Duration.hours(1))
        yield* publishAll
        const listed = yield* call(principal, "svc_list_scheduled_posts", { status: "posted" })
        const posted = (listed.posts as ReadonlyArray<PostRecord>)[0]
        expect(posted).toMatchObject({
          id: first.id,
          status: "posted",
          url: `${TEST_PUBLIC_BASE}/s/${store.handle}/posts/${first.id}`,
          deliveries: [{ platform: "feed", status: "posted", attempts: 1 }]
        })
        const events = yield* eventsOf(workspace.id, "post.published")
        expect(events).toHaveLength(1)
        expect(events[0]?.data).toEqual({
          post_id: first.id,
          status: "posted",
          text: "First #post",
          scheduled_for: "2026-12-01T09:00:00.000Z",
          posted_at: "2026-12-01T09:00:00.000Z",
          url: posted?.url,
          links: [posted?.url],
          error: null,
          platforms: [{ platform: "feed", status: "posted", url: posted?.url, error: null }]
        })
        // The other post is still waiting.
        const waiting = yield* call(principal, "svc_list_scheduled_posts", { status: "scheduled" })
        expect((waiting.posts as ReadonlyArray<PostRecord>).map((p) => p.id)).toEqual([second.id])
      })
    )

    it.effect("drafts, edits, cancels and publishing now; posts that went out cannot change", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const { principal, store } = yield* signUp()
        const draft = postOf(
          yield* call(principal, "svc_schedule_post", { text: "Draft", platforms: ["feed"], draft: true })
        )
        expect(draft).toMatchObject({ status: "draft", scheduledFor: null, deliveries: [] })
        // The deprecated name still answers, the same way.
        const alias = postOf(
          yield* call(principal, "svc_create_scheduling_draft", { text: "Old name", platforms: ["feed"], draft: true })
        )
        expect(alias.status).toBe("draft")

        const edited = postOf(
          yield* call(principal, "svc_update_scheduled_post", {
            postId: draft.id,
            text: "Draft, edited",
            scheduledAtIso: "2026-12-02T10:00:00Z",
            draft: false
          })
        )
        expect(edited).toMatchObject({ status: "scheduled", scheduledFor: "2026-12-02T10:00:00.000Z" })
        expect(edited.deliveries).toHaveLength(1)

        const cancelled = postOf(yield* call(principal, "svc_cancel_scheduled_post", { postId: alias.id }))
        expect(cancelled).toMatchObject({ status: "cancelled", deliveries: [] })
        const again = refusal(yield* call(principal, "svc_cancel_scheduled_post", { postId: alias.id }))
        expect(again.message).toContain("is cancelled")

        // Publishing now waits (looking every quarter second of the test clock) for the worker, run here by hand
        // until the call answers: the call's own transaction may still be under way when the worker first looks.
        const fiber = yield* Effect.fork(call(principal, "svc_publish_post_now", { postId: edited.id }))
        while (Option.isNone(yield* Fiber.poll(fiber))) {
          yield* publishAll
          yield* realPause()
          yield* TestClock.adjust(Duration.millis(250))
        }
        const now = postOf(yield* Fiber.join(fiber))
        expect(now.status).toBe("posted")
        expect(now.url).toBe(`${TEST_PUBLIC_BASE}/s/${store.handle}/posts/${edited.id}`)
        const late = refusal(yield* call(principal, "svc_update_scheduled_post", { postId: edited.id, text: "x" }))
        expect(late.message).toContain("is posted")
        const gone = refusal(yield* call(principal, "svc_cancel_scheduled_post", { postId: "post_missing" }))
        expect(gone.status).toBe("not-found")
      })
    )

    it.effect("refuses what cannot go out, naming the field and the rule", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const { principal } = yield* signUp()
        const cases: ReadonlyArray<[Record<string, unknown>, string]> = [
          [{ text: "x", platforms: ["feed"], scheduledAtIso: "2026-11-30T00:00:00Z" }, "not in the future"],
          [{ text: "x", platforms: ["feed"], scheduledAtIso: "2026-12-02 10:00" }, "ISO 8601"],
          [{ text: "x", platforms: ["feed"], scheduledAtIso: "2028-01-01T00:00:00Z" }, "365 days"],
          [
            { text: "x", platforms: ["linkedin"], scheduledAtIso: "2026-12-02T10:00:00Z" },
            "cannot publish to linkedin"
          ],
          [
            { text: "x", platforms: ["bluesky"], scheduledAtIso: "2026-12-02T10:00:00Z" },
            "svc_connect_social_accounts"
          ],
          [{ text: "x", platforms: ["feed", "feed"], scheduledAtIso: "2026-12-02T10:00:00Z" }, "named twice"],
          [{ text: "   ", platforms: ["feed"], scheduledAtIso: "2026-12-02T10:00:00Z" }, "text must be"],
          [
            { text: "x", platforms: ["feed"], media: [{ id: "med_nope" }], scheduledAtIso: "2026-12-02T10:00:00Z" },
            "med_nope"
          ]
        ]
        for (const [args, words] of cases) {
          const answer = refusal(yield* call(principal, "svc_schedule_post", args))
          expect(answer.message).toContain(words)
        }
        const listed = yield* call(principal, "svc_list_scheduled_posts", {})
        expect(listed.posts).toEqual([])
      })
    )
  })

  describe("connect links", () => {
    it.effect("carry the workspace for an hour, then open nothing", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const { principal, workspace, account } = yield* signUp()
        const link = yield* call(principal, "svc_connect_social_accounts", { platform: "mastodon" })
        expect(link.expiresAt).toBe(new Date(START + 3_600_000).toISOString())
        const token = String(link.connectUrl).split("/connect/")[1] ?? ""
        const grant = yield* readConnectLink(token)
        expect(Option.getOrThrow(grant)).toMatchObject({
          workspaceId: workspace.id,
          accountId: account.id,
          platform: "mastodon"
        })
        yield* TestClock.adjust(Duration.millis(3_600_001))
        expect(Option.isNone(yield* readConnectLink(token))).toBe(true)
      })
    )
  })

  describe("posts to an outside network", () => {
    it.effect("connecting checks the credentials; a post over the length is accepted where threads are made", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const user = yield* signUp()
        const scheduling = yield* Scheduling
        const wrong = yield* Effect.flip(
          scheduling.connectAccount(user.workspace.id, "bluesky", "https://pds.test", {
            identifier: "me.test",
            appPassword: "wrong"
          })
        )
        expect(wrong.message).toContain("refused these credentials")
        const account = yield* scheduling.connectAccount(user.workspace.id, "bluesky", "https://pds.test", {
          identifier: "me.test",
          appPassword: "right"
        })
        // The credentials are sealed: the stored text is not the password.
        const stored = yield* Effect.flatMap(
          SqlClient,
          (sql) =>
            sql<{ readonly credentials_sealed: string }>`SELECT credentials_sealed FROM social_accounts
                                                       WHERE id = ${account.id}`
        ).pipe(Effect.orDie)
        expect(stored[0]?.credentials_sealed).not.toContain("right")
        const listed = yield* call(user.principal, "svc_list_schedules", {})
        expect(listed.accounts).toMatchObject([{ platform: "bluesky", handle: "me.test", status: "connected" }])
        expect(JSON.stringify(listed)).not.toContain("appPassword")

        const long = "A sentence of words. ".repeat(40)
        const threaded = postOf(
          yield* call(user.principal, "svc_schedule_post", {
            text: long,
            platforms: ["bluesky"],
            scheduledAtIso: "2026-12-02T10:00:00Z"
          })
        )
        expect(threaded.status).toBe("scheduled")
        const tooLong = refusal(
          yield* call(user.principal, "svc_schedule_post", {
            text: "word ".repeat(1_999),
            platforms: ["bluesky"],
            scheduledAtIso: "2026-12-02T10:00:00Z"
          })
        )
        expect(tooLong.message).toContain("thread of")
      })
    )

    it.effect("temporary failures are retried with backoff; a refusal on one platform makes the post partial", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const user = yield* withNetwork
        network.next = [new PublishFailure({ kind: "temporary", message: "503 from the PDS", retryAfterMs: 90_000 })]
        const post = postOf(
          yield* call(user.principal, "svc_schedule_post", {
            text: "To both",
            platforms: ["bluesky", "feed"],
            scheduledAtIso: "2026-12-01T08:05:00Z"
          })
        )
        yield* TestClock.adjust(Duration.minutes(5))
        yield* publishAll
        const mid = (
          (yield* call(user.principal, "svc_list_scheduled_posts", {})).posts as ReadonlyArray<PostRecord>
        )[0] as PostRecord
        expect(mid.status).toBe("publishing")
        expect(mid.deliveries.find((d) => d.platform === "bluesky")).toMatchObject({
          status: "pending",
          attempts: 1,
          error: "503 from the PDS (try 1 of 6; trying again)"
        })
        // Retry-After (90 s) is longer than the first backoff (30 s): nothing is due at 60 s.
        yield* TestClock.adjust(Duration.seconds(60))
        expect(yield* publishDuePosts(worker)).toBe(0)
        yield* TestClock.adjust(Duration.seconds(31))
        yield* publishAll
        const done = yield* (yield* Scheduling).getPost(user.workspace.id, post.id)
        expect(done.status).toBe("posted")
        const bluesky = done.deliveries.find((d) => d.platform === "bluesky")
        expect(bluesky).toMatchObject({ status: "posted", attempts: 2, error: null })
        const events = yield* eventsOf(user.workspace.id, "post.published")
        expect(events).toHaveLength(1)
        // The first live link follows the order the post named its platforms.
        expect(events[0]?.data).toMatchObject({ status: "posted", url: `https://bsky.test/${bluesky?.id}` })

        network.next = [new PublishFailure({ kind: "rejected", message: "text too long for this PDS" })]
        yield* call(user.principal, "svc_schedule_post", {
          text: "Half",
          platforms: ["feed", "bluesky"],
          scheduledAtIso: "2026-12-01T09:00:00Z"
        })
        yield* TestClock.adjust(Duration.hours(1))
        yield* publishAll
        const partial = (yield* eventsOf(user.workspace.id, "post.published"))[0]
        expect(partial?.data).toMatchObject({
          status: "partial",
          error: "bluesky: text too long for this PDS",
          platforms: [
            { platform: "feed", status: "posted" },
            { platform: "bluesky", status: "failed", url: null, error: "text too long for this PDS" }
          ]
        })
      })
    )

    it.effect("credentials that stop working fail the post and mark the account; post.failed is recorded once", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const user = yield* withNetwork
        network.next = [new PublishFailure({ kind: "credentials", message: "ExpiredToken" })]
        const post = postOf(
          yield* call(user.principal, "svc_schedule_post", {
            text: "Only there",
            platforms: ["bluesky"],
            scheduledAtIso: "2026-12-01T08:01:00Z"
          })
        )
        yield* TestClock.adjust(Duration.minutes(1))
        yield* publishAll
        const failed = yield* (yield* Scheduling).getPost(user.workspace.id, post.id)
        expect(failed.status).toBe("failed")
        const events = yield* eventsOf(user.workspace.id, "post.failed")
        expect(events).toHaveLength(1)
        expect(events[0]?.data).toMatchObject({ post_id: post.id, status: "failed", url: null, posted_at: null })
        const schedules = yield* call(user.principal, "svc_list_schedules", {})
        expect(schedules.needsReconnect).toEqual(["me.test"])
        const refused = refusal(
          yield* call(user.principal, "svc_schedule_post", {
            text: "Again",
            platforms: ["bluesky"],
            scheduledAtIso: "2026-12-02T08:00:00Z"
          })
        )
        expect(refused.message).toContain("needs reconnecting")
        // Reconnecting brings it back.
        yield* (yield* Scheduling).connectAccount(user.workspace.id, "bluesky", "https://pds.test", {
          identifier: "me.test",
          appPassword: "right"
        })
        expect((yield* call(user.principal, "svc_list_schedules", {})).needsReconnect).toEqual([])
      })
    )

    it.effect("a delivery taken over after a crash asks the network first, so the post goes out once", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START)
        const user = yield* withNetwork
        const post = postOf(
          yield* call(user.principal, "svc_schedule_post", {
            text: "Once",
            platforms: ["bluesky"],
            scheduledAtIso: "2026-12-01T08:01:00Z"
          })
        )
        yield* TestClock.adjust(Duration.minutes(1))
        // A worker claims the delivery and publishes, then dies before recording it.
        const [claimed] = yield* claimDueDeliveries(10, worker.leaseMs)
        expect(claimed?.postId).toBe(post.id)
        const before = network.publishes
        yield* scripted.publish({ deliveryId: claimed?.id ?? "", postId: post.id } as PublishRequest)
        // Until the lease ends nobody takes it; then another worker finds the post already out.
        expect(yield* publishDuePosts(worker)).toBe(0)
        yield* TestClock.adjust(Duration.millis(worker.leaseMs))
        yield* publishAll
        expect(network.publishes).toBe(before + 1)
        const done = yield* (yield* Scheduling).getPost(user.workspace.id, post.id)
        expect(done.status).toBe("posted")
        expect(done.deliveries[0]).toMatchObject({ attempts: 2, url: `https://bsky.test/${claimed?.id}` })
        // The first worker wakes up after its lease: it neither publishes again nor overwrites what was recorded.
        const publishing = yield* PostPublishing
        if (claimed !== undefined) yield* publishing.run(claimed)
        expect(network.publishes).toBe(before + 1)
        expect((yield* (yield* Scheduling).getPost(user.workspace.id, post.id)).deliveries[0]?.attempts).toBe(2)
      })
    )
  })
})
