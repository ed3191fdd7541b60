/**
 * `makeSvc`: all of svc in another process, from one typed options object. Driven the way an app embedding it
 * would: the typed clients over its in-process `fetch`, the admin functions instead of the command line, a prefix,
 * the workers it lists, and a clean end.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { DatabaseConfig } from "@svc/adapters/sql"
import { createStoreClient, createToolClient } from "@svc/client"
import { makeSvc, type Svc } from "@svc/server"
import { freshDatabase } from "./support/environment.js"

let svc: Svc
let dispose = async () => {}
let database: DatabaseConfig

beforeAll(async () => {
  const fresh = await freshDatabase()
  dispose = fresh.dispose
  database =
    fresh.env.DATABASE_URL === undefined
      ? DatabaseConfig.Pglite({ dataDir: fresh.env.DATA_DIR })
      : DatabaseConfig.Postgres({ url: fresh.env.DATABASE_URL })
  svc = await makeSvc({ database, publicUrl: "https://app.example/svc/", workers: { routines: false } })
}, 120_000)

afterAll(async () => {
  await svc?.dispose()
  await dispose()
})

describe("makeSvc", { timeout: 120_000 }, () => {
  it("serves svc under the public URL's prefix, and nothing outside it", async () => {
    expect(svc.publicUrl).toBe("https://app.example/svc")
    expect(svc.basePath).toBe("/svc")
    expect((await svc.handler(new Request("https://app.example/svc/health"))).status).toBe(200)
    expect((await svc.handler(new Request("https://app.example/health"))).status).toBe(404)
    expect((await svc.handler(new Request("https://app.example/svcx/health"))).status).toBe(404)
    // An MCP client is sent to the metadata under the prefix, and finds it; the addresses in it carry the prefix.
    const unauthorized = await svc.fetch("https://app.example/svc/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}"
    })
    expect(unauthorized.status).toBe(401)
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(unauthorized.headers.get("www-authenticate") ?? "")?.[1]
    expect(metadataUrl).toBe("https://app.example/svc/.well-known/oauth-protected-resource")
    const resource = await (await svc.fetch(`${metadataUrl}/mcp`)).json()
    expect(resource).toMatchObject({
      resource: "https://app.example/svc/mcp",
      authorization_servers: ["https://app.example/svc"]
    })
    // Where clients look for the authorization server of an issuer with a path, and the resource's path-inserted
    // form (RFC 8414, RFC 9728): at the host's root, the prefix after the well-known name.
    for (const path of ["/.well-known/oauth-authorization-server/svc", "/svc/.well-known/oauth-authorization-server"]) {
      const server = await svc.fetch(`https://app.example${path}`)
      expect(server.status, path).toBe(200)
      expect(await server.json()).toMatchObject({
        issuer: "https://app.example/svc",
        token_endpoint: "https://app.example/svc/oauth/token"
      })
    }
    const inserted = await svc.fetch("https://app.example/.well-known/oauth-protected-resource/svc/mcp")
    expect(await inserted.json()).toMatchObject({ resource: "https://app.example/svc/mcp" })
    expect((await svc.fetch("https://app.example/.well-known/oauth-authorization-server/other")).status).toBe(404)
  })

  it("runs the workers svc serve runs, but those switched off; mail only with an SMTP server", () => {
    expect(svc.workers).toEqual([
      "webhooks",
      "instantHooks",
      "askAnswers",
      "askCallbacks",
      "sequences",
      "renewals",
      "reviewRequests",
      "publishing",
      "analytics",
      "autoDm",
      "trashPurge",
      "webhookPurge",
      "oauthPurge",
      "mailPurge",
      "mediaPurge"
    ])
  })

  it("does what the command line does, in process: an account, a key, the store set up; then the clients work", async () => {
    const { storeHandle } = await svc.admin.createAccount({
      email: "embedded@example.com",
      password: "a long password",
      plan: "starter"
    })
    const { token } = await svc.admin.createApiKey({ email: "embedded@example.com", name: "app" })
    await svc.admin.setStore({ email: "embedded@example.com", supportEmail: "help@example.com" })

    // The clients svc makes, over the handler in process, on either transport.
    const tools = svc.client.tools(token)
    const { note } = await tools.svc_create_note({ markdown: "# From the embedding app" })
    const read = await svc.client.tools(token, { transport: "mcp" }).svc_get_note_markdown({ noteId: note.id })
    expect(read.note.markdown).toContain("From the embedding app")
    const store = svc.client.store(token)
    const me = await store.identity.me()
    expect(me.handle).toBe(storeHandle)
    expect((await store.settings.get()).settings.support_email).toBe("help@example.com")
    // The same as @svc/client's own constructors over `svc.fetch`.
    const own = createStoreClient({ baseUrl: svc.publicUrl, token, fetch: svc.fetch })
    expect(await own.identity.me()).toEqual(me)
    const ownTools = createToolClient({ baseUrl: svc.publicUrl, token, transport: "rest", fetch: svc.fetch })
    expect((await ownTools.svc_get_note_markdown({ noteId: note.id })).note.markdown).toBe(read.note.markdown)
    // A key the clients refuse is refused in process as over HTTP.
    await expect(svc.client.store("svc_pat_not_a_key").identity.me()).rejects.toMatchObject({ status: 401 })

    // A refusal rejects with the domain's error and its message.
    await expect(
      svc.admin.createAccount({ email: "embedded@example.com", password: "a long password" })
    ).rejects.toMatchObject({ _tag: "Conflict", message: expect.stringContaining("already exists") })
    await expect(svc.admin.setStore({ email: "nobody@example.com", name: "x" })).rejects.toMatchObject({
      _tag: "NotFound"
    })
  })

  it("does the rest of the command line in process: plans, keys listed and revoked, Custom AIs, cohorts, tags", async () => {
    const email = "operator@example.com"
    await svc.admin.createAccount({ email, password: "a long password" })
    // On the free plan the store API refuses the key (402); moved to Starter, a key made then is served.
    const { token: freeToken } = await svc.admin.createApiKey({ email, name: "before" })
    await expect(svc.client.store(freeToken).products.summaries()).rejects.toMatchObject({ status: 402 })
    await svc.admin.setPlan({ email, plan: "starter" })
    const { keyId, token } = await svc.admin.createApiKey({ email, name: "after" })
    const store = svc.client.store(token)

    const { customAiId } = await svc.admin.createCustomAi({ email, name: "Coach" })
    expect((await store.identity.customAis()).custom_ais.map((ai) => ai.id)).toContain(customAiId)
    const { product } = await store.products.create({ custom_ai_id: customAiId, price_cents: 900 })
    const cohort = await svc.admin.createCohort({ email, productId: product.id, name: "January", capacity: 10 })
    expect(cohort).toMatchObject({ product_id: product.id, name: "January", capacity: 10 })
    expect((await store.products.cohorts({ id: product.id })).cohorts.map((c) => c.id)).toEqual([cohort.id])
    const tagged = await svc.admin.tagCustomer({ email, customer: "Buyer@Example.com", tags: ["VIP", "vip"] })
    expect(tagged).toMatchObject({ email: "buyer@example.com", tags: [{ name: "VIP" }] })

    const keys = await svc.admin.listApiKeys({ email })
    expect(keys.map((key) => key.name).sort()).toEqual(["after", "before"])
    expect(keys.every((key) => key.revokedAt === null)).toBe(true)
    await svc.admin.revokeApiKey(keyId)
    const revoked = (await svc.admin.listApiKeys({ email })).find((key) => key.id === keyId)
    expect(revoked?.revokedAt).not.toBeNull()
    await expect(svc.admin.createCustomAi({ email, name: "x", storeHandle: "no-such-store" })).rejects.toMatchObject({
      _tag: "NotFound"
    })
  })

  it("refuses a setting out of range with the reason, before it opens anything", async () => {
    await expect(
      makeSvc({ database, publicUrl: "https://app.example", settings: { webhookLeaseMs: 10 } })
    ).rejects.toThrow(/SVC_WEBHOOK_LEASE_MS must be longer than/)
    await expect(makeSvc({ database, publicUrl: "ftp://app.example" })).rejects.toThrow(/http or https/)
    // A database that does not answer: the reason, and nothing left open (the test would hang on it).
    await expect(
      makeSvc({
        database: DatabaseConfig.Postgres({ url: "postgres://postgres@127.0.0.1:1/nowhere" }),
        publicUrl: "https://app.example"
      })
    ).rejects.toThrow(/connect/i)
  })
})
