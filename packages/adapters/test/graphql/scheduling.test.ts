/**
 * Scheduling on the GraphQL face over the real endpoint: `workspace { posts post schedule socialAccounts }` read
 * through the scheduling tools (paging and filters as svc_list_scheduled_posts), posts scheduled, changed, cancelled
 * and published through the tool mutations with the tool server's plan and access rules, and `post.published`
 * reaching an event subscription once the publishing worker has run. The service's clock is the test's.
 */
import { describe, expect, layer } from "@effect/vitest"
import { readOnlyAccess } from "@svc/core/auth"
import {
  type PlatformPublisher,
  PublishFailure,
  publishDuePosts,
  SchedulingPortsLive,
  Scheduling
} from "@svc/core/scheduling"
import { Effect, Layer } from "effect"
import type { GraphQLClient } from "graphql-request"
import { createClient, type ExecutionResult } from "graphql-sse"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { TestApp } from "../support/app.js"
import { TEST_PUBLIC_BASE } from "../support/core.js"
import { engineName } from "../support/database.js"
import { ManualClock } from "../support/predictable.js"
import { graphqlClient, mutate, postGraphql, request } from "./support.js"

const START = Date.parse("2026-12-01T08:00:00Z")
const HOUR = 3_600_000
const DAY = 24 * HOUR
const clock = new ManualClock(START)
const worker = { leaseMs: 60_000, concurrency: 4 }

const iso = (millis: number) => new Date(millis).toISOString()

/** An outside network whose accounts connect but whose credentials have stopped working when a post goes out. */
const expired: PlatformPublisher = {
  platform: "bluesky",
  verify: (_serviceUrl, credentials) =>
    Effect.succeed({ handle: "me.test", displayName: "Me", serviceUrl: "https://pds.test", credentials }),
  publish: () => Effect.fail(new PublishFailure({ kind: "credentials", message: "ExpiredToken" })),
  findPublished: () => Effect.succeedNone
}
const ports = SchedulingPortsLive(TEST_PUBLIC_BASE, [expired]).pipe(Layer.provide(SqlPortsLive))

type Post = {
  readonly id: string
  readonly status: string
  readonly text: string
  readonly scheduledFor: string | null
  readonly url: string | null
  readonly deliveries: ReadonlyArray<{
    readonly platform: string
    readonly status: string
    readonly url: string | null
  }>
}
type Connection<A> = {
  edges: Array<{ cursor: string | null; node: A }>
  nodes: Array<A>
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}

const POST_FIELDS = "id status text scheduledFor url deliveries { platform status url }"

/** A tool's answer over the REST face, to compare with. */
const callTool = <A>(url: string, token: string, name: string, args: Record<string, unknown>) =>
  Effect.promise(() =>
    fetch(`${url}/v1/tools/${name}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(args)
    }).then((response) => response.json() as Promise<A>)
  )

/** One GraphQL request, its errors answered rather than thrown. */
const send = (...args: Parameters<typeof postGraphql>) => Effect.promise(() => postGraphql(...args))

/** Schedules a post through the `schedulePost` mutation and answers it. */
const schedule = (client: GraphQLClient, input: Record<string, unknown>) =>
  Effect.map(
    mutate(client, "schedulePost", input, `... on SchedulePostPayload { post { ${POST_FIELDS} } }`),
    (payload) => payload.post as Post
  )

/** Every page of `posts(<filters>)`, two at a time, following endCursor. */
const allPosts = (client: GraphQLClient, filters = "") =>
  Effect.gen(function* () {
    const seen: Array<Post> = []
    let after: string | null = null
    for (let guard = 0; guard < 20; guard++) {
      const page: { workspace: { posts: Connection<Post> } } = yield* request<{
        workspace: { posts: Connection<Post> }
      }>(
        client,
        `query($after: String) { workspace { posts(first: 2, after: $after${filters}) {
           edges { cursor node { ${POST_FIELDS} } } nodes { id } pageInfo { hasNextPage endCursor } } } }`,
        { after }
      )
      seen.push(...page.workspace.posts.edges.map((edge) => edge.node))
      if (!page.workspace.posts.pageInfo.hasNextPage) break
      after = page.workspace.posts.pageInfo.endCursor
    }
    return seen
  })

type Received = { readonly id: string; readonly type: string; readonly data: Record<string, unknown> }

/** Subscribes to the post events with `token`; the request goes out with the first `next`. */
const subscribeToPosts = (url: string, token: string) =>
  createClient({ url: `${url}/graphql`, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 })
    .iterate<{ events: Received }>({
      query: `subscription { events(types: ["post.published", "post.failed"]) { id type data } }`
    })
    [Symbol.asyncIterator]()

type PostEvents = ExecutionResult<{ events: Received }, unknown>

/** The next event of a subscription, waited for on a fiber (so the test can make it happen meanwhile). */
const nextEvent = (results: AsyncIterator<PostEvents>) =>
  Effect.fork(Effect.promise(() => results.next().then((result) => result.value as PostEvents)))

const pause = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

layer(TestApp.layerWith({}, { clock, ports }), { timeout: "120 seconds", excludeTestServices: true })(
  `GraphQL scheduling (${engineName})`,
  (it) => {
    describe("workspace { schedule posts post socialAccounts }", () => {
      it.effect("sets the schedule by mutation and reads it back, with no accounts yet", () =>
        Effect.gen(function* () {
          const { url, signUp } = yield* TestApp
          const { token, store } = yield* signUp({})
          const client = graphqlClient(url, token)
          const set = yield* mutate(
            client,
            "updateSchedule",
            { timeZone: "Europe/Berlin", slots: [{ weekday: 2, time: "09:30" }] },
            "... on UpdateSchedulePayload { timeZone nextSlots }"
          )
          expect(set.timeZone).toBe("Europe/Berlin")

          const read = yield* request<{
            workspace: {
              schedule: { timeZone: string; nextSlots: Array<string>; publishableTo: Array<string> }
              socialAccounts: Array<unknown>
            }
          }>(
            client,
            `{ workspace { schedule { timeZone slots { weekday time } nextSlots publishableTo feedUrl }
               socialAccounts { id platform handle status } } }`
          )
          // Tuesday 1 December 2026, 09:00 in Berlin: today's 09:30 comes first, then a week later.
          expect(read.workspace.schedule).toMatchObject({
            timeZone: "Europe/Berlin",
            slots: [{ weekday: 2, time: "09:30" }],
            feedUrl: `${TEST_PUBLIC_BASE}/s/${store.handle}/posts`
          })
          expect(read.workspace.schedule.nextSlots.slice(0, 2)).toEqual([
            "2026-12-01T08:30:00.000Z",
            "2026-12-08T08:30:00.000Z"
          ])
          expect(read.workspace.schedule.publishableTo).toContain("feed")
          expect(read.workspace.socialAccounts).toEqual([])

          const bad = yield* request<{ updateSchedule: Record<string, unknown> }>(
            client,
            `mutation { updateSchedule(input: { timeZone: "Mars/Olympus" }) {
               __typename ... on ToolFailure { status message } } }`
          )
          expect(bad.updateSchedule).toMatchObject({ __typename: "ToolFailure", status: "invalid" })
        })
      )

      it.effect("pages posts like svc_list_scheduled_posts and filters by status, platform and time window", () =>
        Effect.gen(function* () {
          const { url, signUp } = yield* TestApp
          const { token } = yield* signUp({})
          const client = graphqlClient(url, token)
          const now = clock.unsafeCurrentTimeMillis()
          const scheduled: Array<Post> = []
          for (const day of [1, 2, 3, 4]) {
            scheduled.push(
              yield* schedule(client, { text: `Day ${day}`, platforms: ["feed"], scheduledAtIso: iso(now + day * DAY) })
            )
          }
          const draft = yield* schedule(client, { text: "Later maybe", platforms: ["feed"], draft: true })
          expect(draft).toMatchObject({ status: "draft", scheduledFor: null, deliveries: [] })
          expect(scheduled[0]).toMatchObject({
            status: "scheduled",
            deliveries: [{ platform: "feed", status: "pending", url: null }]
          })

          const every = yield* allPosts(client)
          const viaTool = yield* callTool<{ posts: Array<Post> }>(url, token, "svc_list_scheduled_posts", {
            limit: 100
          })
          expect(every.map((post) => post.id)).toEqual(viaTool.posts.map((post) => post.id))
          expect(every).toHaveLength(5)

          expect((yield* allPosts(client, ", status: draft")).map((post) => post.id)).toEqual([draft.id])
          expect(yield* allPosts(client, ", platform: feed")).toHaveLength(5)
          expect(yield* allPosts(client, ", platform: bluesky")).toEqual([])
          // Days 2 and 3: from inclusive, to exclusive.
          const window = yield* allPosts(client, `, fromIso: "${iso(now + 2 * DAY)}", toIso: "${iso(now + 4 * DAY)}"`)
          expect(window.map((post) => post.text).sort()).toEqual(["Day 2", "Day 3"])

          const badWindow = yield* send(url, token, {
            query: `{ workspace { posts(fromIso: "yesterday") { nodes { id } } } }`
          })
          expect(badWindow.body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: "invalid" })

          const one = yield* request<{ workspace: { post: Post } }>(
            client,
            `query($id: String!) { workspace { post(id: $id) { ${POST_FIELDS} } } }`,
            { id: scheduled[1]!.id }
          )
          expect(one.workspace.post).toEqual(every.find((post) => post.id === scheduled[1]!.id))
          const missing = yield* send(url, token, { query: `{ workspace { post(id: "post_nope") { id } } }` })
          expect(missing.body.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" })

          // Another account's post is not found in this workspace.
          const other = yield* signUp({})
          const foreign = yield* send(url, other.token, {
            query: `{ workspace { post(id: "${draft.id}") { id } } }`
          })
          expect(foreign.body.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" })
        })
      )
    })

    describe("mutations", () => {
      it.effect("schedules, updates and cancels a post; a cancelled post cannot change", () =>
        Effect.gen(function* () {
          const { url, signUp } = yield* TestApp
          const { token } = yield* signUp({})
          const client = graphqlClient(url, token)
          const now = clock.unsafeCurrentTimeMillis()
          const post = yield* schedule(client, {
            text: "First try",
            platforms: ["feed"],
            scheduledAtIso: iso(now + DAY)
          })
          const updated = (yield* mutate(
            client,
            "updateScheduledPost",
            { postId: post.id, text: "Second try", scheduledAtIso: iso(now + 2 * DAY) },
            `... on UpdateScheduledPostPayload { post { ${POST_FIELDS} } }`
          )).post as Post
          expect(updated).toMatchObject({
            id: post.id,
            status: "scheduled",
            text: "Second try",
            scheduledFor: iso(now + 2 * DAY)
          })
          const read = yield* request<{ workspace: { post: Post } }>(
            client,
            `{ workspace { post(id: "${post.id}") { text scheduledFor } } }`
          )
          expect(read.workspace.post).toEqual({ text: "Second try", scheduledFor: iso(now + 2 * DAY) })

          const cancelled = (yield* mutate(
            client,
            "cancelScheduledPost",
            { postId: post.id },
            `... on CancelScheduledPostPayload { post { ${POST_FIELDS} } }`
          )).post as Post
          expect(cancelled).toMatchObject({ id: post.id, status: "cancelled", deliveries: [] })

          const again = yield* request<{ updateScheduledPost: Record<string, unknown> }>(
            client,
            `mutation { updateScheduledPost(input: { postId: "${post.id}", text: "Too late" }) {
               __typename ... on ToolFailure { status message } } }`
          )
          expect(again.updateScheduledPost).toMatchObject({ __typename: "ToolFailure", status: "conflict" })
          const past = yield* request<{ schedulePost: Record<string, unknown> }>(
            client,
            `mutation { schedulePost(input: { text: "Yesterday", platforms: [feed], scheduledAtIso: "${iso(now - DAY)}" }) {
               __typename ... on ToolFailure { status message } } }`
          )
          expect(past.schedulePost).toMatchObject({ __typename: "ToolFailure", status: "invalid" })
        })
      )

      it.effect("the Free plan, a read-only key and a key without scheduling access are refused", () =>
        Effect.gen(function* () {
          const { url, signUp } = yield* TestApp
          const scheduleQuery = `mutation { schedulePost(input: { text: "Hi", platforms: [feed], draft: true }) {
            __typename ... on ToolFailure { status message } } }`

          const free = yield* signUp({ plan: "free" })
          const freeClient = graphqlClient(url, free.token)
          const refused = yield* request<{ schedulePost: Record<string, string> }>(freeClient, scheduleQuery)
          expect(refused.schedulePost).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })
          expect(refused.schedulePost.message).toContain("Starter plan")
          for (const field of ["posts { nodes { id } }", 'post(id: "post_x") { id }', "schedule { timeZone }"]) {
            const read = yield* send(url, free.token, { query: `{ workspace { ${field} } }` })
            expect(read.body.errors?.[0]?.extensions, field).toMatchObject({ code: "FORBIDDEN", status: "forbidden" })
            expect(read.body.errors?.[0]?.message, field).toContain("Starter plan")
          }

          const owner = yield* signUp({})
          const draft = yield* schedule(graphqlClient(url, owner.token), {
            text: "Owner's draft",
            platforms: ["feed"],
            draft: true
          })
          const reader = yield* signUp({ access: readOnlyAccess })
          const readerClient = graphqlClient(url, reader.token)
          const readOnly = yield* request<{ schedulePost: Record<string, string> }>(readerClient, scheduleQuery)
          expect(readOnly.schedulePost).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })
          expect(readOnly.schedulePost.message).toContain("may only read scheduling")
          const readerPosts = yield* request<{ workspace: { posts: Connection<Post> } }>(
            readerClient,
            "{ workspace { posts { nodes { id } } } }"
          )
          expect(readerPosts.workspace.posts.nodes).toEqual([])
          expect(draft.status).toBe("draft")

          const noScheduling = yield* signUp({ access: { kind: "custom", parts: { workspace: "edit" } } })
          const hidden = yield* send(url, noScheduling.token, {
            query: `{ workspace { post(id: "${draft.id}") { id } } }`
          })
          expect(hidden.body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN" })
          expect(hidden.body.errors?.[0]?.message).toContain("no access to scheduling")
        })
      )
    })

    describe("subscription", () => {
      it.scoped(
        "post.published and post.failed arrive on the event subscription once the publishing worker has run",
        () =>
          Effect.gen(function* () {
            const { url, signUp, setUp } = yield* TestApp
            const { token, workspace, store } = yield* signUp({})
            const client = graphqlClient(url, token)
            yield* setUp(
              Effect.flatMap(Scheduling, (scheduling) =>
                scheduling.connectAccount(workspace.id, "bluesky", "https://pds.test", {
                  identifier: "me.test",
                  appPassword: "app-password"
                })
              )
            )
            const accounts = yield* request<{ workspace: { socialAccounts: Array<Record<string, unknown>> } }>(
              client,
              "{ workspace { socialAccounts { platform handle status } } }"
            )
            expect(accounts.workspace.socialAccounts).toEqual([
              { platform: "bluesky", handle: "me.test", status: "connected" }
            ])
            const now = clock.unsafeCurrentTimeMillis()
            const toFeed = yield* schedule(client, {
              text: "Out within the hour",
              platforms: ["feed"],
              scheduledAtIso: iso(now + HOUR)
            })
            const toBluesky = yield* schedule(client, {
              text: "Out in two hours",
              platforms: ["bluesky"],
              scheduledAtIso: iso(now + 2 * HOUR)
            })

            const live = subscribeToPosts(url, token)
            yield* Effect.addFinalizer(() => Effect.promise(async () => void (await live.return?.())))
            const first = yield* nextEvent(live)
            // The feed starts from the moment it subscribes: give the request time to get there.
            yield* pause(500)
            expect(yield* setUp(publishDuePosts(worker))).toBe(0)
            clock.advance(HOUR)
            expect(yield* setUp(publishDuePosts(worker))).toBe(1)

            const published = yield* first.await
            expect(published._tag).toBe("Success")
            const result = published._tag === "Success" ? published.value : undefined
            expect(result?.errors).toBeUndefined()
            const postUrl = `${TEST_PUBLIC_BASE}/s/${store.handle}/posts/${toFeed.id}`
            expect(result?.data?.events).toMatchObject({
              type: "post.published",
              data: { post_id: toFeed.id, status: "posted", url: postUrl }
            })
            expect(result?.data?.events.id).toMatch(/^evt_/)
            const read = yield* request<{ workspace: { post: Post } }>(
              client,
              `{ workspace(id: "${workspace.id}") { post(id: "${toFeed.id}") { ${POST_FIELDS} } } }`
            )
            expect(read.workspace.post).toMatchObject({
              status: "posted",
              url: postUrl,
              deliveries: [{ platform: "feed", status: "posted", url: postUrl }]
            })

            const second = yield* nextEvent(live)
            clock.advance(HOUR)
            expect(yield* setUp(publishDuePosts(worker))).toBe(1)
            const failed = yield* second.await
            const failure = failed._tag === "Success" ? failed.value : undefined
            expect(failure?.data?.events).toMatchObject({
              type: "post.failed",
              data: { post_id: toBluesky.id, status: "failed", url: null }
            })
            const after = yield* request<{
              workspace: { post: Post; socialAccounts: Array<Record<string, unknown>> }
            }>(
              client,
              `{ workspace { post(id: "${toBluesky.id}") { status error } socialAccounts { handle status statusReason } } }`
            )
            expect(after.workspace.post.status).toBe("failed")
            expect(after.workspace.socialAccounts).toMatchObject([{ handle: "me.test", status: "needs_reconnect" }])
          })
      )
    })
  }
)
