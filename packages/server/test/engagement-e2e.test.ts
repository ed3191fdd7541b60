/**
 * A post's life after it goes out, end to end: a real `svc serve`, a real local AT Protocol network with an AppView,
 * the official MCP SDK client. Two posts go to Bluesky; people like and reply to them on the network; the metrics
 * show in svc_list_analytics_posts and svc_get_analytics, and a reply with the rule's keyword is answered once by the
 * auto-DM rule, also after the server restarts (a repeat of the same person is not answered again, a new one is).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import {
  type AtprotoAccount,
  type AtprotoAppViewShape,
  atprotoAppViewTool,
  startAtprotoAppView
} from "../../adapters/test/support/atproto-appview.js"
import { skipWithout } from "../../adapters/test/support/external-tool.js"
import { engineName, freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { setUpSeller } from "./support/webhooks.js"

type Answer = Record<string, unknown>

const skip = skipWithout("the engagement journey", await atprotoAppViewTool())

let env: Record<string, string> = {}
let dispose = async () => {}
let server: RunningServer | undefined
let network: AtprotoAppViewShape | undefined
const scope = Effect.runSync(Scope.make())

beforeAll(async () => {
  if (skip) return
  const database = await freshDatabase()
  network = await Effect.runPromise(Scope.extend(startAtprotoAppView, scope))
  env = {
    ...database.env,
    SVC_BOOTSTRAP: "false",
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
    SVC_RESEARCH_BLUESKY_APPVIEW: "off",
    SVC_ANALYTICS_FIRST_DAY_EVERY_MS: "10000",
    SVC_AUTO_DM_POLL_MS: "5000"
  }
  dispose = database.dispose
}, 180_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await dispose()
})

const connect = async (baseUrl: string, token: string) => {
  const client = new Client({ name: "engagement-e2e", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } }
    })
  )
  return client
}

/** Waits until `check` holds, looking once a second (each look is a tool call or an AppView read). */
const waitFor = async (what: string, check: () => Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
  }
}

const callMcp = async (client: Client, name: string, args: Answer) =>
  (await client.callTool({ name, arguments: args })).structuredContent as Answer

type AnalyticsPost = {
  readonly postId: string
  readonly platforms: ReadonlyArray<Record<string, number | string | null>>
}

describe.skipIf(skip)(`analytics and auto-DM on svc serve (${engineName})`, { timeout: 300_000 }, () => {
  it("measures two published posts and answers a keyword reply once, also after a restart", async () => {
    const appView = network
    if (appView === undefined) throw new Error("no network")
    const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)
    const alice = await run(appView.createAccount("alice"))
    const fans: Array<AtprotoAccount> = await Promise.all(
      ["fran", "gus", "hal"].map((n) => run(appView.createAccount(n)))
    )
    const [fran, gus, hal] = fans as [AtprotoAccount, AtprotoAccount, AtprotoAccount]
    const seller = await setUpSeller(env, "engagement@example.com")
    server = await startServer(env)
    let client = await connect(server.baseUrl, seller.token)

    // Alice's account is connected the way a person does it, on the connect page.
    const link = await callMcp(client, "svc_connect_social_accounts", { platform: "bluesky" })
    const connected = await fetch(`${String(link.connectUrl)}/bluesky`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
      body: new URLSearchParams({
        serviceUrl: appView.pdsUrl,
        identifier: alice.handle,
        appPassword: alice.appPassword
      }).toString()
    })
    expect(connected.status, await connected.clone().text()).toBe(200)
    const accountId = String(
      ((await callMcp(client, "svc_list_schedules", {})).accounts as ReadonlyArray<Answer>)[0]?.id
    )

    const first = (
      await callMcp(client, "svc_publish_post_now", { text: "Reply GUIDE for my seed guide", platforms: ["bluesky"] })
    ).post as { id: string; status: string; url: string }
    const second = (await callMcp(client, "svc_publish_post_now", { text: "Tomato update", platforms: ["bluesky"] }))
      .post as { id: string; status: string; url: string }
    expect([first.status, second.status]).toEqual(["posted", "posted"])
    const rule = await callMcp(client, "svc_create_auto_dm_automation", {
      accountId,
      postId: first.id,
      keywords: ["guide"],
      template: "Hi {name}, here it is: {link}",
      link: "https://example.com/guide",
      delivery: "reply"
    })
    expect(rule).toMatchObject({ ok: true, rule: { delivery: "reply", enabled: true } })
    const ruleId = String((rule.rule as Answer).id)

    // On the network: likes, a repost, a reply with the keyword and one without.
    const uriOf = async (url: string) => {
      const rkey = url.split("/").at(-1) ?? ""
      const agent = await run(appView.agentFor(alice))
      const record = await agent.com.atproto.repo.getRecord({ repo: alice.did, collection: "app.bsky.feed.post", rkey })
      return { uri: record.data.uri, cid: String(record.data.cid) }
    }
    const post1 = await uriOf(first.url)
    const post2 = await uriOf(second.url)
    const agents = await Promise.all(fans.map((fan) => run(appView.agentFor(fan))))
    const [franAgent, gusAgent, halAgent] = agents as [(typeof agents)[0], (typeof agents)[0], (typeof agents)[0]]
    await franAgent.upsertProfile((profile) => ({ ...profile, displayName: "Fran" }))
    await franAgent.like(post1.uri, post1.cid)
    await gusAgent.like(post1.uri, post1.cid)
    await gusAgent.like(post2.uri, post2.cid)
    await halAgent.repost(post1.uri, post1.cid)
    const reply = (text: string) => ({ text, reply: { root: post1, parent: post1 } })
    await franAgent.post(reply("The guide please!"))
    await gusAgent.post(reply("Lovely tomatoes"))
    await run(appView.settle)

    // The answer is a reply of Alice's under Fran's reply; only Fran's reply has the keyword.
    const answersTo = async (handle: string) => {
      const thread = await appView.publicAgent().app.bsky.feed.getPostThread({ uri: post1.uri, depth: 3 })
      const replies = (thread.data.thread as { replies?: ReadonlyArray<Answer> }).replies ?? []
      return replies
        .filter((r) => ((r.post as Answer).author as Answer).handle === handle)
        .flatMap((r) => (r.replies as ReadonlyArray<Answer> | undefined) ?? [])
        .filter((r) => ((r.post as Answer).author as Answer).handle === alice.handle)
        .map((r) => ((r.post as Answer).record as { text: string }).text)
    }
    await waitFor("the auto-DM reply to Fran", async () => (await answersTo(fran.handle)).length > 0, 60_000)
    expect(await answersTo(fran.handle)).toEqual(["Hi Fran, here it is: https://example.com/guide"])
    expect(await answersTo(gus.handle)).toEqual([])

    // The metrics as the networks count them: 2 likes, 1 repost and 2 replies (Alice's answer is a reply to a reply).
    const metricsOf = async () => {
      const listed = await callMcp(client, "svc_list_analytics_posts", { sort: "likes" })
      return (listed.posts as ReadonlyArray<AnalyticsPost>).map((p) => [
        p.postId,
        p.platforms[0]?.likes,
        p.platforms[0]?.reposts,
        p.platforms[0]?.views
      ])
    }
    await waitFor(
      "the metrics of both posts",
      async () =>
        JSON.stringify(await metricsOf()) ===
        JSON.stringify([
          [first.id, 2, 1, null],
          [second.id, 1, 0, null]
        ]),
      90_000
    )
    const totals = await callMcp(client, "svc_get_analytics", { days: 7 })
    expect(totals.ok).toBe(true)

    // After a restart: Fran asking again is not answered again; Hal, new, is.
    await client.close()
    await server.stop()
    server = await startServer(env)
    client = await connect(server.baseUrl, seller.token)
    await franAgent.post(reply("guide again?"))
    await halAgent.post(reply("Guide for me too"))
    await run(appView.settle)
    await waitFor("the auto-DM reply to Hal", async () => (await answersTo(hal.handle)).length > 0, 60_000)
    // One more poll after Hal's answer, so a second answer to Fran would have had its chance.
    await new Promise((resolve) => setTimeout(resolve, 7_000))
    expect(await answersTo(fran.handle)).toHaveLength(1)
    const rules = await callMcp(client, "svc_list_auto_dm_rules", {})
    expect((rules.rules as ReadonlyArray<Answer>).find((r) => r.id === ruleId)).toMatchObject({ sentCount: 2 })
    await client.close()
  })
})
