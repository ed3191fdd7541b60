/**
 * Publishing across server processes: two `svc serve` on one PostgreSQL publish 200 scheduled posts to Bluesky (a
 * real local PDS) and the own feed, exactly once each with one `post.published` each, while one of them is killed
 * with SIGKILL mid-run: the survivor takes the dead one's deliveries over after the lease and asks the PDS first.
 * Always on PostgreSQL (SVC_TEST_POSTGRES_URL), whatever the test engine, so it runs once.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { makeBlueskyPublisher } from "@svc/adapters/publisher"
import { Scheduling } from "@svc/core/scheduling"
import { Clock, Effect, Exit, Scope } from "effect"
import pg from "pg"
import { type AtprotoNetworkShape, startAtprotoNetwork } from "../../adapters/test/support/atproto-network.js"
import { atprotoTool, postgresTool, skipWithout, testPostgresUrl } from "../../adapters/test/support/external-tool.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { createWebhook, runOnCore, setUpSeller, startReceiver, storeApi, waitFor } from "./support/webhooks.js"

const POSTS = 200
const skip =
  skipWithout("publishing across instances", await atprotoTool()) ||
  skipWithout("publishing across instances", await postgresTool())
const schema = `test_publish_${Math.random().toString(36).slice(2, 10)}`

const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: testPostgresUrl() })
  await client.connect()
  await client.query(statement)
  await client.end()
}

let env: Record<string, string> = {}
let dispose = async () => {}
let network: AtprotoNetworkShape | undefined
const servers: Array<RunningServer> = []
const scope = Effect.runSync(Scope.make())

beforeAll(async () => {
  if (skip) return
  await admin(`CREATE SCHEMA ${schema}`)
  const url = new URL(testPostgresUrl())
  url.searchParams.set("options", `-c search_path=${schema}`)
  env = {
    DATABASE_URL: url.toString(),
    SVC_BOOTSTRAP: "false",
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
    SVC_WEBHOOK_POLL_MS: "100",
    // The shortest lease, so the dead instance's deliveries come back within the test.
    SVC_PUBLISH_LEASE_MS: "10000",
    // Publishing alone: this network has no AppView to read metrics from, and the metrics worker's logins would
    // share the PDS's login rate limit with the publishers' (engagement-e2e.test.ts runs them on an AppView).
    SVC_ANALYTICS_WORKER: "false",
    SVC_AUTO_DM_WORKER: "false"
  }
  dispose = () => admin(`DROP SCHEMA ${schema} CASCADE`)
  network = await Effect.runPromise(Scope.extend(startAtprotoNetwork, scope))
}, 120_000)

afterAll(async () => {
  for (const server of servers) {
    if (server.process.exitCode === null && server.process.signalCode === null) await server.stop()
  }
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await dispose()
})

const serve = async () => {
  const server = await startServer(env)
  servers.push(server)
  return server
}

describe.skipIf(skip)("publishing across processes on PostgreSQL", { timeout: 480_000 }, () => {
  it(`${POSTS} posts go out once each while an instance is killed mid-run`, async () => {
    const pds = network
    if (pds === undefined) throw new Error("no network")
    const account = await Effect.runPromise(pds.createAccount("many"))
    const seller = await setUpSeller(env, "many@example.com")
    // The webhook exists before any post can go out: an event is sent to the webhooks that exist when it is logged.
    const receiver = await startReceiver(() => ({ status: 200 }))
    const doomed = await serve()
    await createWebhook(storeApi(doomed.baseUrl, seller.token), receiver.url("/posts"), [
      "post.published",
      "post.failed"
    ])
    // The account connected and the posts scheduled beside the running server (one PostgreSQL), due a few seconds on:
    // counted from when the account is connected, so a loaded machine's slow start cannot leave the first ones past.
    const postIds = await runOnCore(
      env,
      Effect.gen(function* () {
        const scheduling = yield* Scheduling
        yield* scheduling.connectAccount(seller.workspaceId, "bluesky", pds.pdsUrl, {
          identifier: account.handle,
          appPassword: account.appPassword
        })
        const dueAt = new Date((yield* Clock.currentTimeMillis) + 8_000)
        return yield* Effect.forEach(
          Array.from({ length: POSTS }, (_, i) => i),
          (i) =>
            Effect.map(
              scheduling.schedulePost(seller.workspaceId, seller.accountId, {
                text: `Post number ${i} of the batch`,
                platforms: ["bluesky", "feed"],
                scheduledAt: new Date(dueAt.getTime() + (i % 10) * 100)
              }),
              (post) => post.id
            )
        )
      }),
      [makeBlueskyPublisher()]
    )
    expect(new Set(postIds).size).toBe(POSTS)
    await serve()

    const agent = await Effect.runPromise(pds.agentFor(account))
    const blueskyPosts = async () => {
      const texts: Array<string> = []
      let cursor: string | undefined
      do {
        const page = await agent.com.atproto.repo.listRecords({
          repo: account.did,
          collection: "app.bsky.feed.post",
          limit: 100,
          ...(cursor === undefined ? {} : { cursor })
        })
        texts.push(...page.data.records.map((record) => (record.value as { text: string }).text))
        cursor = page.data.cursor
      } while (cursor !== undefined)
      return texts
    }

    // Killed once a part of the batch is out, with more claimed and under way.
    await waitFor("the first posts", async () => (await blueskyPosts()).length >= POSTS / 5, 120_000)
    doomed.process.kill("SIGKILL")

    await waitFor(
      `${POSTS} post events`,
      () =>
        new Set(
          receiver.received.map(
            (r) => (JSON.parse(r.body.toString("utf8")) as { data: { post_id: string } }).data.post_id
          )
        ).size >= POSTS,
      // Minutes, not seconds, on a loaded 2-core CI machine (the whole suite's PGlite pass runs beside it).
      300_000
    )
    const texts = await blueskyPosts()
    expect(texts).toHaveLength(POSTS)
    expect(new Set(texts).size).toBe(POSTS)

    // One post.published per post (a receiver may get a repeat delivery of one event, never a second event).
    const events = receiver.received.map(
      (r) =>
        JSON.parse(r.body.toString("utf8")) as { id: string; type: string; data: { post_id: string; status: string } }
    )
    const eventsByPost = new Map<string, Set<string>>()
    for (const event of events) {
      expect(event).toMatchObject({ type: "post.published", data: { status: "posted" } })
      eventsByPost.set(event.data.post_id, (eventsByPost.get(event.data.post_id) ?? new Set()).add(event.id))
    }
    expect(eventsByPost.size).toBe(POSTS)
    expect([...eventsByPost.values()].every((ids) => ids.size === 1)).toBe(true)

    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    await client.connect()
    const rows = await client.query<{ platform: string; status: string; n: number }>(
      "SELECT platform, status, count(*)::int AS n FROM post_deliveries GROUP BY platform, status ORDER BY platform"
    )
    await client.end()
    expect(rows.rows).toEqual([
      { platform: "bluesky", status: "posted", n: POSTS },
      { platform: "feed", status: "posted", n: POSTS }
    ])
    await receiver.close()
  })
})
