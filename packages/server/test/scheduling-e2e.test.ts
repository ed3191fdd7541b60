/**
 * Scheduling end to end on a real `svc serve`: the official MCP SDK client sets a schedule, uploads an image
 * (`POST /v1/media`), schedules a post with it to the own feed and publishes it; the post is read back on the feed
 * page and in its RSS, Atom and JSON feeds (parsed with feedsmith, as a reader would), the image is served from
 * the feed, and one signed `post.published` webhook arrives with the post's address.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { parseAtomFeed, parseJsonFeed, parseRssFeed } from "feedsmith"
import sharp from "sharp"
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

let env: Record<string, string> = {}
let dispose = async () => {}
let server: RunningServer | undefined
let receiver: Receiver | undefined

beforeAll(async () => {
  const database = await freshDatabase()
  env = {
    ...database.env,
    SVC_BOOTSTRAP: "false",
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
    SVC_WEBHOOK_POLL_MS: "100"
  }
  dispose = database.dispose
}, 60_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await receiver?.close()
  await dispose()
})

const mcpClient = async (baseUrl: string, token: string) => {
  const client = new Client({ name: "scheduling-e2e", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } }
    })
  )
  return client
}

const callMcp = async (client: Client, name: string, args: Answer) =>
  (await client.callTool({ name, arguments: args })).structuredContent as Answer

describe(`scheduling on svc serve (${engineName})`, { timeout: 120_000 }, () => {
  it("an image post goes out on the own feed, readable as a page and three feeds, with one signed post.published", async () => {
    const seller = await setUpSeller(env, "poster@example.com")
    receiver = await startReceiver(() => ({ status: 200 }))
    server = await startServer(env)
    const baseUrl = server.baseUrl
    const hook = await createWebhook(storeApi(baseUrl, seller.token), receiver.url("/posts"), [
      "post.published",
      "post.failed"
    ])

    const client = await mcpClient(baseUrl, seller.token)
    const listed = await client.listTools()
    const names = listed.tools.map((tool) => tool.name)
    for (const name of [
      "svc_list_schedules",
      "svc_update_schedule",
      "svc_schedule_post",
      "svc_publish_post_now",
      "svc_update_scheduled_post",
      "svc_cancel_scheduled_post",
      "svc_list_scheduled_posts",
      "svc_connect_social_accounts"
    ]) {
      expect(names).toContain(name)
    }

    const schedule = await callMcp(client, "svc_update_schedule", {
      timeZone: "America/New_York",
      slots: [{ weekday: 1, time: "09:00" }]
    })
    expect(schedule).toMatchObject({
      ok: true,
      timeZone: "America/New_York",
      publishableTo: ["feed", "bluesky", "mastodon"]
    })
    const feedUrl = String(schedule.feedUrl)
    expect(feedUrl).toMatch(new RegExp(`^${baseUrl}/s/[a-z0-9-]+/posts$`))

    // The image: uploaded as multipart form data, its type read from its bytes.
    const png = await sharp({ create: { width: 6, height: 4, channels: 3, background: "#3366ff" } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append("file", new Blob([png], { type: "application/octet-stream" }), "chart.png")
    const uploaded = await fetch(`${baseUrl}/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${seller.token}` },
      body: form
    })
    const asset = (await uploaded.json()) as { media: { id: string; mimeType: string; width: number } }
    expect(uploaded.status, JSON.stringify(asset)).toBe(200)
    expect(asset.media).toMatchObject({ mimeType: "image/png", width: 6 })

    const scheduled = await callMcp(client, "svc_schedule_post", {
      text: "Our first chart is out: https://example.com/chart",
      platforms: ["feed"],
      // The upload's answer as it came, with alt text added.
      media: [{ ...asset.media, altText: "A blue chart" }]
    })
    const post = scheduled.post as { id: string; status: string; fromSlot: boolean; scheduledFor: string }
    expect(post).toMatchObject({ status: "scheduled", fromSlot: true })
    // 09:00 in New York on a Monday.
    expect(new Date(post.scheduledFor).getUTCDay()).toBe(1)

    const published = await callMcp(client, "svc_publish_post_now", { postId: post.id })
    expect(published.post).toMatchObject({ id: post.id, status: "posted", url: `${feedUrl}/${post.id}` })

    // The feed page and the post's page show the text, the link and the image with its alt text.
    const pageText = await (await fetch(feedUrl)).text()
    expect(pageText).toContain("Our first chart is out")
    // The link goes through the feed's counted, signed redirect (analytics' link clicks), and follows it.
    const link =
      /<a href="([^"]+\/posts\/post_[a-z0-9]+\/go\?to=https%3A%2F%2Fexample\.com%2Fchart&#38;sig=[^"]+)" rel="nofollow noopener">https:\/\/example\.com\/chart<\/a>/.exec(
        pageText
      )
    expect(link).not.toBeNull()
    const followed = await fetch(String(link?.[1]).replaceAll("&#38;", "&"), { redirect: "manual" })
    expect([followed.status, followed.headers.get("location")]).toEqual([302, "https://example.com/chart"])
    expect(pageText).toContain('alt="A blue chart"')
    const one = await fetch(`${feedUrl}/${post.id}`)
    expect(one.status).toBe(200)
    const image = await fetch(`${feedUrl.replace(/\/posts$/, "")}/media/${asset.media.id}`)
    expect(image.headers.get("content-type")).toBe("image/png")
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true)

    const feedBase = feedUrl.replace(/\/posts$/, "")
    const rss = parseRssFeed(await (await fetch(`${feedBase}/feed.xml`)).text())
    expect(rss.items?.[0]).toMatchObject({
      link: `${feedUrl}/${post.id}`,
      enclosures: [{ url: `${feedBase}/media/${asset.media.id}`, type: "image/png", length: png.length }]
    })
    const atom = parseAtomFeed(await (await fetch(`${feedBase}/feed.atom`)).text())
    expect(atom.entries?.[0]?.id).toBe(`${feedUrl}/${post.id}`)
    const json = parseJsonFeed(await (await fetch(`${feedBase}/feed.json`)).json())
    expect(json.items?.[0]).toMatchObject({
      id: `${feedUrl}/${post.id}`,
      content_text: expect.stringContaining("chart")
    })

    // One signed post.published with the post's address.
    const rx = receiver
    await waitFor("post.published", () => rx.received.length > 0)
    await new Promise((r) => setTimeout(r, 500))
    expect(rx.received).toHaveLength(1)
    const delivered = rx.received[0]
    if (delivered === undefined) throw new Error("no delivery")
    expect(signatureValid(hook.secret, delivered)).toBe(true)
    const envelope = JSON.parse(delivered.body.toString("utf8")) as { type: string; data: Answer }
    expect(envelope.type).toBe("post.published")
    expect(envelope.data).toMatchObject({
      post_id: post.id,
      status: "posted",
      url: `${feedUrl}/${post.id}`,
      links: [`${feedUrl}/${post.id}`],
      error: null,
      platforms: [{ platform: "feed", status: "posted", url: `${feedUrl}/${post.id}`, error: null }]
    })

    // What did not go out is not public: a draft's page and its media are not found.
    const draft = await callMcp(client, "svc_schedule_post", { text: "Secret", platforms: ["feed"], draft: true })
    expect((await fetch(`${feedUrl}/${(draft.post as { id: string }).id}`)).status).toBe(404)
    expect((await fetch(`${baseUrl}/s/nobody-here/posts`)).status).toBe(404)
    await client.close()
  })
})
