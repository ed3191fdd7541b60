/**
 * Publishing to Bluesky end to end: a real `svc serve`, a real local AT Protocol network (a PDS in its own process),
 * the official MCP SDK client. A person connects the account on the connect page; an image is uploaded through the
 * prepare-and-PUT path; a post goes to Bluesky and the own feed, is read back over the AT Protocol (facets and the
 * image blob) and on the feed, and one signed `post.published` carries both addresses. Then the account is
 * deactivated: a post to both platforms ends `partial`, one to Bluesky alone `failed`, with one `post.failed`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import sharp from "sharp"
import { type AtprotoNetworkShape, startAtprotoNetwork } from "../../adapters/test/support/atproto-network.js"
import { atprotoTool, skipWithout } from "../../adapters/test/support/external-tool.js"
import { engineName, freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import {
  createWebhook,
  type Receiver,
  setUpSeller,
  signatureValid,
  startReceiver,
  storeApi,
  waitFor
} from "./support/webhooks.js"

type Answer = Record<string, unknown>

const skip = skipWithout("the Bluesky journey", await atprotoTool())

let env: Record<string, string> = {}
let dispose = async () => {}
let server: RunningServer | undefined
let receiver: Receiver | undefined
let network: AtprotoNetworkShape | undefined
const scope = Effect.runSync(Scope.make())

beforeAll(async () => {
  if (skip) return
  const database = await freshDatabase()
  env = {
    ...database.env,
    SVC_BOOTSTRAP: "false",
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
    SVC_WEBHOOK_POLL_MS: "100"
  }
  dispose = database.dispose
  network = await Effect.runPromise(Scope.extend(startAtprotoNetwork, scope))
}, 120_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await receiver?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await dispose()
})

const callMcp = async (client: Client, name: string, args: Answer) =>
  (await client.callTool({ name, arguments: args })).structuredContent as Answer

type Post = { id: string; status: string; url: string | null; deliveries: ReadonlyArray<Answer> }

describe.skipIf(skip)(`publishing to Bluesky on svc serve (${engineName})`, { timeout: 240_000 }, () => {
  it("connects on the page, posts an image with facets to Bluesky and the feed, and reports partial and failed", async () => {
    const pds = network
    if (pds === undefined) throw new Error("no network")
    const alice = await Effect.runPromise(pds.createAccount("alice"))
    const bob = await Effect.runPromise(pds.createAccount("bob"))
    const seller = await setUpSeller(env, "bluesky@example.com")
    receiver = await startReceiver(() => ({ status: 200 }))
    server = await startServer(env)
    const baseUrl = server.baseUrl
    const hook = await createWebhook(storeApi(baseUrl, seller.token), receiver.url("/posts"), [
      "post.published",
      "post.failed"
    ])
    const client = new Client({ name: "bluesky-e2e", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${seller.token}` } }
      })
    )

    // A person opens the link and connects the account with an app password.
    const link = await callMcp(client, "svc_connect_social_accounts", { platform: "bluesky" })
    const connectUrl = String(link.connectUrl)
    const page = await fetch(connectUrl)
    expect(page.status).toBe(200)
    const connected = await fetch(`${connectUrl}/bluesky`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
      body: new URLSearchParams({
        serviceUrl: pds.pdsUrl,
        identifier: alice.handle,
        appPassword: alice.appPassword
      }).toString()
    })
    expect(connected.status, await connected.clone().text()).toBe(200)
    const schedules = await callMcp(client, "svc_update_schedule", {
      timeZone: "Europe/Paris",
      slots: [{ weekday: 3, time: "12:00" }]
    })
    expect(schedules).toMatchObject({
      timeZone: "Europe/Paris",
      accounts: [{ platform: "bluesky", handle: alice.handle, status: "connected" }]
    })

    // The image through prepare and PUT.
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#22aa66" } })
      .png()
      .toBuffer()
    const prepared = (await callMcp(client, "svc_prepare_scheduling_media_upload", { fileName: "chart.png" }))
      .upload as { url: string; mediaId: string }
    const put = await fetch(prepared.url, { method: "PUT", body: png })
    expect(put.status, await put.clone().text()).toBeLessThan(300)

    const text = `Hello @${bob.handle}! Read https://example.com/notes #svc`
    const scheduled = await callMcp(client, "svc_schedule_post", {
      text,
      platforms: ["bluesky", "feed"],
      media: [{ id: prepared.mediaId, altText: "A green chart" }]
    })
    const post = scheduled.post as Post
    expect(post.status).toBe("scheduled")
    const published = (await callMcp(client, "svc_publish_post_now", { postId: post.id })).post as Post
    expect(published.status).toBe("posted")
    const blueskyUrl = String(published.deliveries.find((d) => d.platform === "bluesky")?.url)
    const feedUrl = String(published.deliveries.find((d) => d.platform === "feed")?.url)
    expect(blueskyUrl).toMatch(new RegExp(`^https://bsky\\.app/profile/${alice.handle}/post/[a-z0-9]+$`))
    expect(published.url).toBe(blueskyUrl)

    // Read back over the AT Protocol: the facets and the image.
    const agent = await Effect.runPromise(pds.agentFor(alice))
    const rkey = blueskyUrl.split("/").at(-1) ?? ""
    const record = await agent.com.atproto.repo.getRecord({ repo: alice.did, collection: "app.bsky.feed.post", rkey })
    const value = record.data.value as {
      text: string
      facets: ReadonlyArray<{ features: ReadonlyArray<{ $type: string }> }>
      embed: { images: ReadonlyArray<{ alt: string; image: { ref: { toString(): string } } }> }
    }
    expect(value.text).toBe(text)
    expect(value.facets.map((facet) => facet.features[0]?.$type).sort()).toEqual([
      "app.bsky.richtext.facet#link",
      "app.bsky.richtext.facet#mention",
      "app.bsky.richtext.facet#tag"
    ])
    expect(value.embed.images[0]?.alt).toBe("A green chart")
    const blob = await agent.com.atproto.sync.getBlob({
      did: alice.did,
      cid: value.embed.images[0]?.image.ref.toString() ?? ""
    })
    expect(Buffer.from(blob.data).equals(png)).toBe(true)
    // And on the own feed.
    expect(await (await fetch(feedUrl)).text()).toContain("Read https://example.com/notes")

    const rx = receiver
    await waitFor("post.published", () => rx.received.length >= 1)
    const first = rx.received[0]
    if (first === undefined) throw new Error("no delivery")
    expect(signatureValid(hook.secret, first)).toBe(true)
    expect(JSON.parse(first.body.toString("utf8"))).toMatchObject({
      type: "post.published",
      data: { post_id: post.id, status: "posted", url: blueskyUrl, links: [blueskyUrl, feedUrl] }
    })

    // The account is deactivated on its PDS: Bluesky refuses every post from now on.
    await agent.com.atproto.server.deactivateAccount({})
    const partial = (await callMcp(client, "svc_publish_post_now", { text: "To both", platforms: ["feed", "bluesky"] }))
      .post as Post
    expect(partial.status).toBe("partial")
    const failed = (await callMcp(client, "svc_publish_post_now", { text: "Only there", platforms: ["bluesky"] }))
      .post as Post
    expect(failed.status).toBe("failed")
    await waitFor("three post events", () => rx.received.length >= 3)
    await new Promise((r) => setTimeout(r, 500))
    const events = rx.received.map((r) => JSON.parse(r.body.toString("utf8")) as { type: string; data: Answer })
    expect(events.map((e) => [e.type, e.data.status])).toEqual([
      ["post.published", "posted"],
      ["post.published", "partial"],
      ["post.failed", "failed"]
    ])
    const refusedBy = ((events[2]?.data.platforms ?? []) as ReadonlyArray<Answer>)[0]
    expect(refusedBy).toMatchObject({ platform: "bluesky", status: "failed", url: null })
    expect(String(refusedBy?.error)).toMatch(/the server answered 4\d\d/)
    await client.close()
  })
})
