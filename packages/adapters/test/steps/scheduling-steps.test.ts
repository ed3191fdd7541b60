/**
 * The workspace steps under `{scheduling_url}` (`/scheduling`) over the real HTTP faces and core: Schedules, Schedule
 * a post (and its draft form) and the Post published / failed trigger, with the Scheduling tools' rules (the Starter
 * plan, edit access to schedule), bad fields named in a 422 and another account's workspace refused. Posts go out
 * on the workspace's own feed through the real publishing worker; the service's clock is the test's.
 */
import { expect, layer } from "@effect/vitest"
import { readOnlyAccess } from "@svc/core/auth"
import {
  type PlatformPublisher,
  PublishFailure,
  publishDuePosts,
  Scheduling,
  SchedulingPortsLive
} from "@svc/core/scheduling"
import { Effect, Layer, Option } from "effect"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { TestApp } from "../support/app.js"
import { TEST_PUBLIC_BASE } from "../support/core.js"
import { engineName } from "../support/database.js"
import { ManualClock } from "../support/predictable.js"
import { callStep, callTool, rowsOf } from "./support.js"

const START = Date.parse("2026-12-01T08:00:00Z")
const HOUR = 3_600_000
const clock = new ManualClock(START)
const worker = { leaseMs: 60_000, concurrency: 4 }
const iso = (millis: number) => new Date(millis).toISOString()

/**
 * Mastodon as an outside network that refuses every post (the own feed publishes as the server does), so posts end
 * `failed` on it alone and `partial` beside the feed.
 */
const refusingMastodon: PlatformPublisher = {
  platform: "mastodon",
  verify: (serviceUrl) =>
    Effect.succeed({ handle: "ann@mastodon.test", displayName: "Ann", serviceUrl, credentials: { token: "t" } }),
  publish: () => Effect.fail(new PublishFailure({ kind: "rejected", message: "the instance refused the post" })),
  findPublished: () => Effect.succeed(Option.none())
}
const publishers = SchedulingPortsLive(TEST_PUBLIC_BASE, [refusingMastodon]).pipe(Layer.provide(SqlPortsLive))

layer(TestApp.layerWith({}, { clock, ports: publishers }), { timeout: "120 seconds", excludeTestServices: true })(
  `the automation tool's {scheduling_url} steps (${engineName})`,
  (it) => {
    it.effect("Schedules answers the time zone, slots, accounts and platforms as svc_list_schedules", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "starter" })
        yield* callTool(app, user.token, "svc_update_schedule", {
          timeZone: "Europe/Berlin",
          slots: [{ weekday: 2, time: "09:30" }]
        })
        const schedules = yield* callStep(app, "GET", `/scheduling/mcp/schedules?workspaceId=${user.workspace.id}`, {
          token: user.token
        })
        expect(schedules.status).toBe(200)
        expect(schedules.body).toMatchObject({
          ok: true,
          workspace_id: user.workspace.id,
          time_zone: "Europe/Berlin",
          slots: [{ weekday: 2, time: "09:30" }],
          accounts: [],
          needs_reconnect: [],
          feed_url: `${TEST_PUBLIC_BASE}/s/${user.store.handle}/posts`
        })
        // Tuesday 1 December 2026, 09:00 in Berlin: today's 09:30 first.
        expect((schedules.body.next_slots as Array<string>)[0]).toBe("2026-12-01T08:30:00.000Z")
        expect(schedules.body.publishable_to).toContain("feed")
        const tool = yield* callTool(app, user.token, "svc_list_schedules", {})
        expect(schedules.body.next_slots).toEqual(tool.nextSlots)
        expect(schedules.body.publishable_to).toEqual(tool.publishableTo)

        const byDefault = yield* callStep(app, "GET", "/scheduling/mcp/schedules", { token: user.token })
        expect(byDefault.body).toEqual(schedules.body)
        const reader = yield* app.signUp({ access: readOnlyAccess })
        expect(yield* callStep(app, "GET", "/scheduling/mcp/schedules", { token: reader.token })).toMatchObject({
          status: 200
        })

        const free = yield* app.signUp({ plan: "free" })
        const belowPlan = yield* callStep(app, "GET", "/scheduling/mcp/schedules", { token: free.token })
        expect(belowPlan.status).toBe(403)
        expect(belowPlan.body).toMatchObject({ ok: false, error: "forbidden" })
        expect(String(belowPlan.body.message)).toContain("Starter plan")
        const other = yield* app.signUp({})
        const foreign = yield* callStep(app, "GET", `/scheduling/mcp/schedules?workspace_id=${user.workspace.id}`, {
          token: other.token
        })
        expect(foreign.status).toBe(404)
        const badId = yield* callStep(app, "GET", `/scheduling/mcp/schedules?workspaceId=${"w".repeat(101)}`, {
          token: user.token
        })
        expect(badId.status).toBe(422)
        expect(badId.body).toMatchObject({ errors: [{ path: "workspaceId" }] })
        expect(yield* callStep(app, "GET", "/scheduling/mcp/schedules")).toMatchObject({ status: 401 })
      })
    )

    it.effect("Schedule a post schedules or saves a draft with svc_schedule_post's fields and rules", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "starter" })
        const now = clock.unsafeCurrentTimeMillis()
        const scheduled = yield* callStep(app, "POST", "/scheduling/mcp/schedule-post", {
          token: user.token,
          body: { text: "Bake day", platforms: ["feed"], scheduledAtIso: iso(now + HOUR) }
        })
        expect(scheduled.status).toBe(200)
        expect(scheduled.body).toMatchObject({
          ok: true,
          status: "scheduled",
          text: "Bake day",
          platforms: ["feed"],
          scheduled_at: iso(now + HOUR),
          from_slot: false,
          url: null,
          workspace_id: user.workspace.id,
          deliveries: [{ platform: "feed", status: "pending", url: null, attempts: 0 }]
        })
        expect(scheduled.body.id).toMatch(/^post_/)

        // Lists read newest first: each post is made a second after the one before.
        clock.advance(1_000)
        const draft = yield* callStep(app, "POST", "/scheduling/mcp/drafts", {
          token: user.token,
          body: { text: "Maybe later", platforms: ["feed"], workspace_id: user.workspace.id, scheduledAtIso: "" }
        })
        expect(draft.status).toBe(200)
        expect(draft.body).toMatchObject({ ok: true, status: "draft", scheduled_at: null, deliveries: [] })
        clock.advance(1_000)
        const asDraft = yield* callStep(app, "POST", "/scheduling/mcp/schedule-post", {
          token: user.token,
          body: { text: "Also a draft", platforms: ["feed"], draft: true }
        })
        expect(asDraft.body).toMatchObject({ status: "draft" })

        const listed = yield* callTool(app, user.token, "svc_list_scheduled_posts", {})
        expect((listed.posts as Array<{ id: string }>).map((post) => post.id)).toEqual([
          asDraft.body.id,
          draft.body.id,
          scheduled.body.id
        ])

        const badPlatform = yield* callStep(app, "POST", "/scheduling/mcp/schedule-post", {
          token: user.token,
          body: { text: "Hi", platforms: ["myspace"] }
        })
        expect(badPlatform.status).toBe(422)
        expect(badPlatform.body).toMatchObject({ ok: false, error: "invalid_field", errors: [{ path: "platforms.0" }] })
        const badTime = yield* callStep(app, "POST", "/scheduling/mcp/schedule-post", {
          token: user.token,
          body: { text: "Hi", platforms: ["feed"], scheduledAtIso: "tomorrow at nine" }
        })
        expect(badTime.status).toBe(422)
        expect(badTime.body).toMatchObject({ errors: [{ path: "scheduledAtIso" }] })
        const pastTime = yield* callStep(app, "POST", "/scheduling/mcp/schedule-post", {
          token: user.token,
          body: { text: "Hi", platforms: ["feed"], scheduledAtIso: iso(now - HOUR) }
        })
        expect(pastTime.status).toBe(422)
        expect(pastTime.body).toMatchObject({ errors: [{ path: "scheduledAtIso" }] })
        const noText = yield* callStep(app, "POST", "/scheduling/mcp/drafts", {
          token: user.token,
          body: { platforms: ["feed"] }
        })
        expect(noText.body).toMatchObject({ errors: [{ path: "text", message: "is required" }] })
        const unknownMedia = yield* callStep(app, "POST", "/scheduling/mcp/drafts", {
          token: user.token,
          body: { text: "Hi", platforms: ["feed"], media: ["med_missing"] }
        })
        expect(unknownMedia.status).toBe(404)

        const reader = yield* app.signUp({ access: readOnlyAccess })
        const readOnly = yield* callStep(app, "POST", "/scheduling/mcp/schedule-post", {
          token: reader.token,
          body: { text: "Hi", platforms: ["feed"], scheduledAtIso: iso(now + HOUR) }
        })
        expect(readOnly.status).toBe(403)
        expect(String(readOnly.body.message)).toContain("edit access")
        const free = yield* app.signUp({ plan: "free" })
        const belowPlan = yield* callStep(app, "POST", "/scheduling/mcp/drafts", {
          token: free.token,
          body: { text: "Hi", platforms: ["feed"] }
        })
        expect(belowPlan.status).toBe(403)
        expect(String(belowPlan.body.message)).toContain("Starter plan")
        const other = yield* app.signUp({})
        const foreign = yield* callStep(app, "POST", "/scheduling/mcp/drafts", {
          token: other.token,
          body: { text: "Hi", platforms: ["feed"], workspaceId: user.workspace.id }
        })
        expect(foreign.status).toBe(404)
        expect(
          yield* callStep(app, "POST", "/scheduling/mcp/schedule-post", { body: { text: "Hi", platforms: ["feed"] } })
        ).toMatchObject({ status: 401 })
      })
    )

    it.effect("Post published / failed lists posts in the statuses asked, newest first and paged", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "starter" })
        const now = clock.unsafeCurrentTimeMillis()
        // Lists read newest first: each post is made a second after the one before.
        const schedule = (text: string, body: Record<string, unknown> = {}) =>
          callStep(app, "POST", "/scheduling/mcp/schedule-post", {
            token: user.token,
            body: { text, platforms: ["feed"], scheduledAtIso: iso(now + HOUR), ...body }
          }).pipe(
            Effect.map((answer) => String(answer.body.id)),
            Effect.tap(() => Effect.sync(() => clock.advance(1_000)))
          )
        const first = yield* schedule("First")
        const draft = yield* schedule("Draft", { draft: true })
        const second = yield* schedule("Second")
        const cancelled = yield* schedule("Cancelled")
        yield* callTool(app, user.token, "svc_cancel_scheduled_post", { postId: cancelled })
        clock.advance(2 * HOUR)
        // Posts of the other tests of this file fall due too.
        expect(yield* app.setUp(publishDuePosts(worker))).toBeGreaterThanOrEqual(2)

        const posts = (query: string, token = user.token) =>
          callStep(app, "GET", `/scheduling/mcp/posts?${query}`, { token })
        const published = yield* posts("status=posted&status=partial")
        expect(published.status).toBe(200)
        expect(rowsOf(published).map((row) => row.id)).toEqual([second, first])
        expect(rowsOf(published)[0]).toMatchObject({
          status: "posted",
          url: `${TEST_PUBLIC_BASE}/s/${user.store.handle}/posts/${second}`,
          deliveries: [{ platform: "feed", status: "posted" }]
        })
        expect(typeof rowsOf(published)[0]?.posted_at).toBe("string")
        expect(published.body).toMatchObject({ ok: true, has_more: false })

        const failed = yield* posts(`status=failed&status=partial&workspaceId=${user.workspace.id}`)
        expect(rowsOf(failed)).toEqual([])

        // Several statuses, repeated or comma-separated, merge into one list, newest first, and page across them.
        const mixed = yield* posts("status=posted,cancelled&status=draft")
        expect(rowsOf(mixed).map((row) => row.id)).toEqual([cancelled, second, draft, first])
        const seen: Array<unknown> = []
        let cursor: string | undefined
        for (let guard = 0; guard < 10; guard++) {
          const page = yield* posts(
            `status=posted&status=cancelled,draft&limit=1${cursor === undefined ? "" : `&starting_after=${cursor}`}`
          )
          seen.push(...rowsOf(page).map((row) => row.id))
          if (page.body.has_more !== true) break
          cursor = String(page.body.next_cursor)
        }
        expect(seen).toEqual([cancelled, second, draft, first])
        const every = yield* posts("")
        expect(rowsOf(every).map((row) => row.id)).toEqual([cancelled, second, draft, first])

        const badStatus = yield* posts("status=posted,published")
        expect(badStatus.status).toBe(422)
        expect(badStatus.body).toMatchObject({ ok: false, error: "invalid_field", errors: [{ path: "status.1" }] })
        const badLimit = yield* posts("status=posted&limit=0")
        expect(badLimit.body).toMatchObject({ errors: [{ path: "limit" }] })

        const free = yield* app.signUp({ plan: "free" })
        expect(yield* posts("status=posted", free.token)).toMatchObject({ status: 403 })
        const other = yield* app.signUp({})
        expect(yield* posts(`status=posted&workspaceId=${user.workspace.id}`, other.token)).toMatchObject({
          status: 404
        })
        expect(yield* callStep(app, "GET", "/scheduling/mcp/posts?status=posted")).toMatchObject({ status: 401 })
      })
    )

    it.effect("Post failed lists posts that failed on every platform (failed) or on some (partial)", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "starter" })
        yield* app.setUp(
          Effect.flatMap(Scheduling, (scheduling) =>
            scheduling.connectAccount(user.workspace.id, "mastodon", "https://mastodon.test", { token: "t" })
          )
        )
        const now = clock.unsafeCurrentTimeMillis()
        const schedule = (platforms: ReadonlyArray<string>) =>
          callStep(app, "POST", "/scheduling/mcp/schedule-post", {
            token: user.token,
            body: { text: "Bake day", platforms, scheduledAtIso: iso(now + HOUR) }
          }).pipe(
            Effect.map((answer) => String(answer.body.id)),
            Effect.tap(() => Effect.sync(() => clock.advance(1_000)))
          )
        const refused = yield* schedule(["mastodon"])
        const half = yield* schedule(["feed", "mastodon"])
        const posted = yield* schedule(["feed"])
        clock.advance(2 * HOUR)
        yield* app.setUp(publishDuePosts(worker))

        const posts = (query: string) => callStep(app, "GET", `/scheduling/mcp/posts?${query}`, { token: user.token })
        const failed = yield* posts("status=failed&status=partial")
        expect(rowsOf(failed).map((row) => [row.id, row.status])).toEqual([
          [half, "partial"],
          [refused, "failed"]
        ])
        expect(rowsOf(failed)[1]).toMatchObject({
          url: null,
          deliveries: [{ platform: "mastodon", status: "failed", error: expect.stringContaining("refused") }]
        })
        const published = yield* posts("status=posted,partial")
        expect(rowsOf(published).map((row) => [row.id, row.status])).toEqual([
          [posted, "posted"],
          [half, "partial"]
        ])
      })
    )
  }
)
