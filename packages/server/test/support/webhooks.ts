/**
 * Webhook receivers on 127.0.0.1 (real node:http servers) and a seller set up through the CLI, for the
 * black-box delivery tests of `svc serve` (run with SVC_WEBHOOKS_ALLOW_LOOPBACK=true).
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http"
import { expect } from "@effect/vitest"
import { CustomAiPortsNoModel } from "@svc/adapters/ai"
import { HttpSenderLive } from "@svc/adapters/http-sender"
import { DatabaseConfig } from "@svc/adapters/sql"
import { CoreLive } from "@svc/core"
import { type PlatformPublisher, SchedulingPortsLive } from "@svc/core/scheduling"
import { Accounts } from "@svc/core/accounts"
import { ApiKeys, AuthSettings } from "@svc/core/auth"
import { CustomAis } from "@svc/core/custom-ai"
import { StoreSetup } from "@svc/core/store"
import { Effect, Layer } from "effect"
import { storageLayer } from "../../src/storage.js"
import { svcJson } from "./environment.js"

/** One request a receiver got: the raw body bytes, headers, and when. */
export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
  readonly at: number
}

/** A receiver: answers each request with `respond`, which may also hold it open (never answering). */
export interface Receiver {
  readonly url: (path: string) => string
  readonly received: Array<Received>
  readonly on: (path: string) => Array<Received>
  readonly close: () => Promise<void>
}

/** What to do with a request: answer it (status, headers, body; maybe `afterMs` later) or hold it open until the receiver closes. */
export type Respond = (
  request: Received
) => { status: number; headers?: Record<string, string>; body?: string; afterMs?: number } | "hold"

/** Starts a receiver on a free loopback port. */
export const startReceiver = async (respond: Respond): Promise<Receiver> => {
  const received: Array<Received> = []
  const held = new Set<ServerResponse>()
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const entry: Received = {
        path: request.url ?? "/",
        headers: request.headers,
        body: Buffer.concat(chunks),
        at: Date.now()
      }
      received.push(entry)
      const answer = respond(entry)
      if (answer === "hold") {
        held.add(response)
        return
      }
      const send = () => {
        held.delete(response)
        if (response.destroyed) return
        response.writeHead(answer.status, answer.headers ?? {})
        response.end(answer.body ?? "")
      }
      if (answer.afterMs === undefined) return send()
      held.add(response)
      setTimeout(send, answer.afterMs)
    })
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((done) => {
        for (const response of held) response.destroy()
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}

/** Whether `X-Svc-Signature` holds an HMAC-SHA256 of "<timestamp>.<raw body>" under `secret` (constant-time). */
export const signatureValid = (secret: string, request: Received): boolean => {
  const timestamp = String(request.headers["x-svc-timestamp"] ?? "")
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(request.body).digest()
  return String(request.headers["x-svc-signature"] ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.startsWith("sha256="))
    .some((part) => {
      const given = Buffer.from(part.slice("sha256=".length), "hex")
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
}

/** Polls `check` until it holds or `ms` pass. */
export const waitFor = async (what: string, check: () => boolean | Promise<boolean>, ms = 60_000) => {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * A seller (account on Starter, store with a card processor, a Custom AI and `moreCustomAis` others, an API key), made in this process
 * on the test database before the server opens it: one start of the engine instead of four CLI runs.
 */
export const setUpSeller = async (env: Record<string, string>, email = "seller@example.com", moreCustomAis = 0) => {
  const program = Effect.gen(function* () {
    const { account, workspace } = yield* (yield* Accounts).create({
      email,
      password: "long password 1",
      plan: "starter"
    })
    yield* (yield* StoreSetup).set(workspace.id, { supportEmail: "help@example.com", cardProcessor: "connected" })
    const customAi = yield* (yield* CustomAis).create(workspace.id, { name: "Coach" })
    const customAis = yield* CustomAis
    const more = yield* Effect.forEach(
      Array.from({ length: moreCustomAis }, (_, index) => `Coach ${index + 2}`),
      (name) => Effect.map(customAis.create(workspace.id, { name }), (created) => created.id)
    )
    const { token } = yield* (yield* ApiKeys).create(account.id, {})
    return {
      email,
      token,
      customAiId: customAi.id,
      moreCustomAiIds: more,
      workspaceId: workspace.id,
      accountId: account.id
    }
  })
  return runOnCore(env, program)
}

/**
 * Runs `program` on the core over the test database of `env`, in this process, before a server opens it (the
 * embedded engine is one process's at a time). `publishers` are the outside networks scheduling may reach.
 */
export const runOnCore = <A, E>(
  env: Record<string, string>,
  program: Effect.Effect<A, E, Layer.Layer.Success<ReturnType<typeof coreOn>>>,
  publishers: ReadonlyArray<PlatformPublisher> = []
) => Effect.runPromise(Effect.scoped(Effect.provide(program, coreOn(env, publishers))))

const coreOn = (env: Record<string, string>, publishers: ReadonlyArray<PlatformPublisher>) => {
  const database = env.DATABASE_URL
    ? DatabaseConfig.Postgres({ url: env.DATABASE_URL })
    : DatabaseConfig.Pglite({ dataDir: env.DATA_DIR })
  return CoreLive.pipe(
    // Scheduling's links are not followed here: any public address does.
    Layer.provideMerge(SchedulingPortsLive("http://127.0.0.1", publishers)),
    Layer.provideMerge(storageLayer(database)),
    Layer.provideMerge(AuthSettings.Default),
    Layer.provideMerge(HttpSenderLive),
    Layer.provideMerge(CustomAiPortsNoModel)
  )
}

/** A store API caller for one token. */
export const storeApi =
  (baseUrl: string, token: string) =>
  async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}/store-app/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as T }
  }

type StoreCall = ReturnType<typeof storeApi>

/** Creates and publishes a product; answers its id. */
export const publishProduct = async (call: StoreCall, customAiId: string) => {
  const created = await call<{ product: { id: string } }>("POST", "/products", {
    custom_ai_id: customAiId,
    price_cents: 900
  })
  expect(created.status).toBe(201)
  expect((await call("POST", `/products/${created.body.product.id}/publish`)).status).toBe(200)
  return created.body.product.id
}

/** Creates a webhook through the store API; answers its id and the secret shown once. */
export const createWebhook = async (call: StoreCall, url: string, events: ReadonlyArray<string> = ["*"]) => {
  const created = await call<{ webhook: { id: string; secret: string } }>("POST", "/webhooks", { url, events })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return { id: created.body.webhook.id, secret: created.body.webhook.secret }
}

/** Records a sale (one `purchase.created`). */
export const sell = async (call: StoreCall, productId: string, n: number) => {
  const sale = await call("POST", "/sales", {
    event: "sale",
    product: productId,
    email: `buyer${n}@example.com`,
    order_id: `ORDER-${n}`
  })
  expect(sale.body, JSON.stringify(sale.body)).toMatchObject({ ok: true })
}

/** The delivery log of a webhook (newest first, every page). */
export const deliveryLog = async (call: StoreCall, webhookId: string) => {
  const rows: Array<Record<string, unknown>> = []
  let cursor: string | null = null
  do {
    const query: string = cursor === null ? "?limit=100" : `?limit=100&starting_after=${encodeURIComponent(cursor)}`
    const page = await call<{ data: Array<Record<string, unknown>>; has_more: boolean; next_cursor: string }>(
      "GET",
      `/webhooks/${webhookId}/deliveries${query}`
    )
    expect(page.status).toBe(200)
    rows.push(...page.body.data)
    // next_cursor is set on the last page too (to continue from later); has_more says whether to go on now.
    cursor = page.body.has_more ? page.body.next_cursor : null
  } while (cursor !== null)
  return rows
}

/**
 * A seller as `setUpSeller` makes it, plus a second Custom AI (a product of its own) and a `store=read` key: what the
 * store client tests need to reach 409s and `api_key_access` refusals.
 */
export const setUpSellerWithReadKey = async (env: Record<string, string>) => {
  const seller = await setUpSeller(env)
  const second = await svcJson(["custom-ais", "create", "--email", seller.email, "--name", "Second"], env)
  const readKey = await svcJson(["keys", "create", "--email", seller.email, "--part", "store=read"], env)
  expect(second.code).toBe(0)
  expect(readKey.code).toBe(0)
  return { ...seller, secondCustomAiId: String(second.body.id), readToken: String(readKey.body.token) }
}
