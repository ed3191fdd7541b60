/**
 * Research end to end: a real `svc serve` reading a real local AT Protocol network with an AppView (three creators
 * seeded with posts and likes by other accounts) and a blog's feed served on this machine, driven with the official
 * MCP SDK client. The figures the answers must hold are computed here from what was seeded.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import {
  type AtprotoAppViewShape,
  atprotoAppViewTool,
  startAtprotoAppView
} from "../../adapters/test/support/atproto-appview.js"
import { skipWithout } from "../../adapters/test/support/external-tool.js"
import { engineName, freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { setUpSeller } from "./support/webhooks.js"

type Answer = Record<string, unknown>

const skip = skipWithout("the research journey", await atprotoAppViewTool())

let env: Record<string, string> = {}
let dispose = async () => {}
let server: RunningServer | undefined
let network: AtprotoAppViewShape | undefined
let blog: Server | undefined
const scope = Effect.runSync(Scope.make())

/** Likes per post, newest first; each post is a day older than the one before. */
const SEEDED = {
  alice: [9, 1, 2, 2, 3],
  bob: [1, 1, 1],
  carol: [1, 1, 1]
} as const
const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}
const NEWEST = Date.parse("2026-11-02T15:00:00Z")
const DAY = 86_400_000

const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel>
  <title>Garden Notes</title><link>http://127.0.0.1/</link><description>A blog about gardens</description>
  <item><title>Pruning roses in winter</title><link>http://127.0.0.1/posts/roses</link>
    <description>&lt;p&gt;Cut back by a third.&lt;/p&gt;</description><pubDate>Mon, 02 Nov 2026 09:00:00 GMT</pubDate></item>
  <item><title>Compost basics</title><link>http://127.0.0.1/posts/compost</link>
    <description>Greens and browns.</description><pubDate>Fri, 30 Oct 2026 09:00:00 GMT</pubDate></item>
</channel></rss>`

beforeAll(async () => {
  if (skip) return
  blog = createServer((request, response) => {
    if (request.url === "/feed") {
      response.writeHead(200, { "content-type": "application/rss+xml" }).end(FEED)
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => blog?.listen(0, "127.0.0.1", resolve))
  const database = await freshDatabase()
  network = await Effect.runPromise(Scope.extend(startAtprotoAppView, scope))
  env = {
    ...database.env,
    SVC_BOOTSTRAP: "false",
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
    SVC_RESEARCH_BLUESKY_APPVIEW: network.appViewUrl
  }
  dispose = database.dispose
}, 180_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await new Promise((resolve) => blog?.close(resolve))
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await dispose()
})

const callMcp = async (client: Client, name: string, args: Answer) => {
  const result = await client.callTool({ name, arguments: args })
  return result.structuredContent as Answer
}

/** Seeds the three creators: their posts, each liked by as many of the likers as `SEEDED` says. */
const seed = async (appView: AtprotoAppViewShape) => {
  const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)
  const likers = await Promise.all(Array.from({ length: 9 }, (_, i) => run(appView.createAccount(`liker${i}`))))
  const likerAgents = await Promise.all(likers.map((liker) => run(appView.agentFor(liker))))
  const posts: Record<string, Array<{ uri: string; text: string }>> = {}
  const dids: Array<string> = []
  let firstAgent: (typeof likerAgents)[number] | undefined
  for (const [name, likes] of Object.entries(SEEDED)) {
    const account = await run(appView.createAccount(name))
    const agent = await run(appView.agentFor(account))
    dids.push(account.did)
    firstAgent ??= agent
    await agent.upsertProfile((profile) => ({ ...profile, displayName: name.toUpperCase() }))
    posts[name] = []
    for (const [i, count] of likes.entries()) {
      const text =
        i === 0 && name === "alice" ? "How I grow tomatoes indoors\nA thread." : `${name} note ${i} on seedlings`
      const created = await agent.post({ text, createdAt: new Date(NEWEST - i * DAY).toISOString() })
      posts[name]?.push({ uri: created.uri, text })
      for (const liker of likerAgents.slice(0, count)) await liker.like(created.uri, created.cid)
    }
  }
  // Alice follows the other two.
  for (const did of dids.slice(1)) await firstAgent?.follow(did)
  await run(appView.settle)
  return posts
}

describe.skipIf(skip)(`research on svc serve (${engineName})`, { timeout: 240_000 }, () => {
  it("resolves, analyses, studies and compares creators on Bluesky, reads a blog, and searches saved posts", async () => {
    const appView = network
    if (appView === undefined) throw new Error("no network")
    const posts = await seed(appView)
    const seller = await setUpSeller(env, "research@example.com")
    server = await startServer(env)
    const client = new Client({ name: "research-e2e", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${seller.token}` } }
      })
    )
    const listed = (await client.listTools()).tools.map((tool) => tool.name)
    expect(listed).toEqual(
      expect.arrayContaining(["svc_resolve_creator", "svc_analyze_creator", "svc_study_top_titles"])
    )

    const resolved = await callMcp(client, "svc_resolve_creator", { creator: "@alice.test" })
    expect(resolved).toMatchObject({
      ok: true,
      creator: { platform: "bluesky", handle: "alice.test", name: "ALICE", posts: 5 },
      creditsCharged: 0.1
    })
    expect((resolved.sources as ReadonlyArray<Answer>).find((s) => s.source === "youtube")).toMatchObject({
      status: "not-set-up",
      setting: "SVC_YOUTUBE_API_KEY"
    })

    // Engagement is likes here (no replies, reposts or quotes were seeded).
    const analysed = await callMcp(client, "svc_analyze_creator", { creator: "alice.test", timeZone: "Europe/Paris" })
    const analysis = analysed.analysis as {
      sampleSize: number
      engagement: { median: number; max: number }
      topPosts: ReadonlyArray<{ id: string; engagement: number; ratio: number }>
      cadence: { busiestHour: number }
    }
    expect(analysis.sampleSize).toBe(SEEDED.alice.length)
    expect(analysis.engagement.median).toBe(median(SEEDED.alice))
    expect(analysis.topPosts[0]).toMatchObject({ id: posts.alice?.[0]?.uri, engagement: 9 })
    expect(analysis.topPosts[0]?.ratio).toBeCloseTo(9 / median(SEEDED.alice), 2)
    // 15:00 UTC is 16:00 in Paris in November.
    expect(analysis.cadence.busiestHour).toBe(16)

    const saved = await callMcp(client, "svc_save_creators_to_list", {
      listName: "Growers",
      creators: ["alice.test", "bob.test", "carol.test"].map((handle) => ({ platform: "bluesky", handle }))
    })
    expect(saved).toMatchObject({ ok: true, added: 3, list: { memberCount: 3 } })
    const compared = await callMcp(client, "svc_analyze_list", { listName: "growers" })
    const rows = compared.rows as ReadonlyArray<{ handle: string; medianEngagement: number; sampleSize: number }>
    expect(rows.map((row) => [row.handle, row.medianEngagement, row.sampleSize])).toEqual([
      ["alice.test", median(SEEDED.alice), 5],
      ["bob.test", median(SEEDED.bob), 3],
      ["carol.test", median(SEEDED.carol), 3]
    ])

    const titles = await callMcp(client, "svc_study_top_titles", { listName: "Growers", minRatio: 3 })
    expect(titles.posts).toEqual([
      expect.objectContaining({ id: posts.alice?.[0]?.uri, title: "How I grow tomatoes indoors", engagement: 9 })
    ])

    // The same outlier found from a topic searched on the network rather than from a list.
    const byTopic = await callMcp(client, "svc_study_top_titles", { topic: "tomatoes", platform: "bluesky" })
    expect(byTopic.posts).toEqual([expect.objectContaining({ id: posts.alice?.[0]?.uri, ratio: 4.5 })])
    const following = await callMcp(client, "svc_following_overview", { creator: "alice.test" })
    expect(following).toMatchObject({ ok: true, total: 2, groups: [{ tier: "nano" }] })
    const found = await callMcp(client, "svc_search_social_content", { scope: "bluesky", query: "seedlings" })
    expect((found.posts as ReadonlyArray<Answer>).length).toBe(
      SEEDED.alice.length - 1 + SEEDED.bob.length + SEEDED.carol.length
    )

    // A blog served on this machine, through its feed.
    const { port } = (blog as Server).address() as AddressInfo
    const blogUrl = `http://127.0.0.1:${port}/feed`
    const publication = await callMcp(client, "svc_analyze_creator", { creator: blogUrl })
    expect(publication).toMatchObject({
      ok: true,
      analysis: { creator: { platform: "blog", name: "Garden Notes" }, sampleSize: 2, engagement: null }
    })
    const article = (publication.analysis as { topPosts: unknown; formats: ReadonlyArray<Answer> }).formats
    expect(article).toEqual([expect.objectContaining({ format: "article", posts: 2 })])

    // The workspace's own saved posts, searched with no source asked and free.
    await callMcp(client, "svc_save_posts_to_library", {
      posts: [{ url: "https://x.com/dana/status/7", text: "Seed swaps near Lyon this spring" }]
    })
    const own = await callMcp(client, "svc_search_social_content", { scope: "library", query: "seed swaps" })
    expect(own).toMatchObject({ ok: true, creditsCharged: 0, posts: [{ source: "library", platform: "x" }] })
    expect(own.sources).toEqual([expect.objectContaining({ source: "library", status: "ok" })])
    await client.close()
  })
})
