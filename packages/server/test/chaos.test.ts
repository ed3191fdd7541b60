/**
 * Three `svc serve` on one PostgreSQL behind `deploy/haproxy.cfg`, under a mixed load of tool calls and sales (each
 * sale a webhook event, some sales sent twice) while one instance is killed with `kill -9` and started again and
 * another drains on SIGTERM and is started again. Afterwards:
 * - every acknowledged note and sale is stored, and only a request in flight at the kill may have failed or been
 *   written twice (a lost answer that HAProxy sent again);
 * - no sale was granted twice;
 * - every sale's event reached the receiver, and only one first sent before the kill may have come twice (the dead
 *   instance could not record that it had been answered);
 * - a burst of tool calls from another key was allowed exactly its budget across the instances.
 *
 * Runs once (engine-free) on PostgreSQL at `SVC_TEST_POSTGRES_URL` (or 127.0.0.1:5432), with Debian's HAProxy;
 * without either it skips on a newcomer's machine and fails in CI.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ApiKeys } from "@svc/core/auth"
import { TOOL_CALLS_PER_MINUTE } from "@svc/core/limits"
import { Effect } from "effect"
import { haproxyTool, postgresTool, skipWithout } from "../../adapters/test/support/external-tool.js"
import { type Balancer, startBalancer } from "./support/haproxy.js"
import { createTestSchema, type TestSchema } from "./support/postgres-schema.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import {
  createWebhook,
  publishProduct,
  type Receiver,
  runOnCore,
  setUpSeller,
  startReceiver,
  storeApi,
  waitFor
} from "./support/webhooks.js"

const haproxy = await haproxyTool()
const postgres = await postgresTool()
const skip = skipWithout("the chaos test", haproxy) || skipWithout("the chaos test", postgres)

const servers: Array<RunningServer> = []
const retired: Array<RunningServer> = []
let balancer: Balancer | undefined
let lbUrl = ""
let env: Record<string, string> = {}
let seller: Awaited<ReturnType<typeof setUpSeller>> | undefined
let burstToken = ""
let receiver: Receiver | undefined
let schema: TestSchema | undefined

beforeAll(async () => {
  if (skip) return
  schema = await createTestSchema("test_chaos")
  env = {
    DATABASE_URL: schema.url,
    SVC_BOOTSTRAP: "false",
    SVC_DRAIN_DELAY_MS: "2000",
    SVC_DRAIN_TIMEOUT_MS: "10000",
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
    SVC_WEBHOOK_POLL_MS: "200",
    // The shortest lease the 10-second delivery window allows: a killed instance's deliveries go out 12 s later.
    SVC_WEBHOOK_LEASE_MS: "12000"
  }
  seller = await setUpSeller(env)
  const accountId = seller.accountId
  burstToken = (
    await runOnCore(
      env,
      Effect.flatMap(ApiKeys, (keys) => keys.create(accountId, { name: "burst" }))
    )
  ).token
  receiver = await startReceiver(() => ({ status: 204 }))
  for (let i = 0; i < 3; i++) servers.push(await startServer(env))

  balancer = await startBalancer(haproxy.available ? haproxy.path : "haproxy", servers)
  lbUrl = balancer.url
}, 240_000)

afterAll(async () => {
  balancer?.process.kill("SIGTERM")
  for (const server of [...servers, ...retired]) {
    if (server.process.exitCode === null && server.process.signalCode === null) await server.stop()
  }
  await receiver?.close()
  await schema?.drop()
}, 120_000)

/** One request of the load: when it started and ended, and how it was answered (0: no answer at all). */
interface Outcome {
  readonly key: string
  readonly startedAt: number
  readonly endedAt: number
  readonly status: number
  readonly body: Record<string, unknown>
}

const send = async (path: string, token: string, body: unknown, key: string): Promise<Outcome> => {
  const startedAt = Date.now()
  try {
    const response = await fetch(`${lbUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>
    return { key, startedAt, endedAt: Date.now(), status: response.status, body: answer }
  } catch {
    return { key, startedAt, endedAt: Date.now(), status: 0, body: {} }
  }
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** Starts `server`'s successor on the same port (the one HAProxy knows), once `server` has gone. */
const restart = async (server: RunningServer) => {
  retired.push(server)
  const at = servers.indexOf(server)
  const next = await startServer({ ...env, PORT: new URL(server.baseUrl).port })
  servers[at] = next
  return next
}

describe.skipIf(skip)(
  "three instances behind HAProxy, one killed and one drained under load",
  { timeout: 400_000 },
  () => {
    it("keeps every acknowledged write once, grants no sale twice, delivers every event, and shares the rate limit", async () => {
      const token = seller?.token ?? ""
      const call = storeApi(lbUrl, token)
      const productId = await publishProduct(call, seller?.customAiId ?? "")
      await createWebhook(call, receiver?.url("/in") ?? "", ["purchase.created"])

      const notes: Array<Outcome> = []
      const sales: Array<Outcome> = []
      let loading = true
      // Two note writers at about 100 calls a minute in all, under the key's budget of 120.
      const noteWriters = Array.from({ length: 2 }, async (_, writer) => {
        for (let n = 0; loading; n++) {
          const title = `chaos-${writer}-${n}`
          notes.push(await send("/v1/tools/svc_create_note", token, { markdown: `# ${title}\n\nUnder chaos.` }, title))
          await pause(1_100)
        }
      })
      // Two sellers, under the store's 60 sales a minute; every fourth order is sent twice, as a retrying checkout would.
      const sellers = Array.from({ length: 2 }, async (_, writer) => {
        for (let n = 0; loading; n++) {
          const order = `chaos-${writer}-${n}`
          const sale = { event: "sale", product: productId, email: `buyer-${writer}-${n}@example.com`, order_id: order }
          sales.push(await send("/store-app/v1/sales", token, sale, order))
          if (n % 4 === 0) sales.push(await send("/store-app/v1/sales", token, sale, order))
          await pause(3_000)
        }
      })

      await pause(8_000)
      const killed = servers[0] as RunningServer
      const exited = new Promise((done) => killed.process.once("exit", done))
      const killedAt = Date.now()
      killed.process.kill("SIGKILL")
      await exited
      await restart(killed)

      await pause(6_000)
      const drained = servers[1] as RunningServer
      expect(await drained.stop()).toBe(0)
      await restart(drained)
      await waitFor(
        "HAProxy to take both successors in",
        () =>
          ((balancer?.output() ?? "").match(/svc1 is UP/g) ?? []).length >= 1 &&
          ((balancer?.output() ?? "").match(/svc2 is UP/g) ?? []).length >= 1,
        30_000
      )
      await pause(5_000)
      loading = false
      await Promise.all([...noteWriters, ...sellers])

      // Only a request in flight when the instance died may have gone unanswered.
      const inFlightAtKill = (outcome: Outcome) => outcome.startedAt <= killedAt + 50 && outcome.endedAt >= killedAt
      const failed = [...notes, ...sales].filter((outcome) => outcome.status !== 200 && outcome.status !== 201)
      expect(failed.filter((outcome) => !inFlightAtKill(outcome))).toEqual([])
      expect(notes.length).toBeGreaterThan(30)
      expect(sales.length).toBeGreaterThan(15)

      // Every acknowledged note is stored; one stored twice was a request in flight at the kill, sent again.
      const stored = await schema?.admin.query<{ title: string }>(
        `SELECT title FROM ${schema?.name}.items WHERE title LIKE 'chaos-%'`
      )
      const titles = stored?.rows.map((row) => row.title) ?? []
      const acknowledged = notes.filter((note) => note.status === 200).map((note) => note.key)
      for (const title of acknowledged) expect(titles).toContain(title)
      const twice = titles.filter((title, index) => titles.indexOf(title) !== index)
      for (const title of twice) expect(notes.filter((note) => note.key === title).every(inFlightAtKill)).toBe(true)

      // Each order is one sale, granted at most once; every acknowledged order is stored.
      const rows = await schema?.admin.query<{ order_id: string }>(
        `SELECT order_id FROM ${schema?.name}.store_sales WHERE order_id LIKE 'chaos-%'`
      )
      const orders = rows?.rows.map((row) => row.order_id) ?? []
      expect(new Set(orders).size).toBe(orders.length)
      const granted = new Map<string, number>()
      for (const sale of sales) {
        if (sale.body.status === "granted") granted.set(sale.key, (granted.get(sale.key) ?? 0) + 1)
        if (sale.status === 200) expect(orders).toContain(sale.key)
      }
      expect([...granted.values()].filter((count) => count > 1)).toEqual([])

      // Every sale's event reaches the receiver (the killed instance's after its leases end); one delivered twice was
      // first sent before the kill.
      const eventIds = () =>
        (receiver?.on("/in") ?? []).map((delivery) => ({
          id: String((JSON.parse(delivery.body.toString()) as { id: string }).id),
          at: delivery.at
        }))
      await waitFor(
        `an event for each of the ${orders.length} sales`,
        () => new Set(eventIds().map((event) => event.id)).size === orders.length,
        90_000
      )
      const seen = new Map<string, number>()
      for (const event of eventIds()) {
        const first = seen.get(event.id)
        if (first === undefined) seen.set(event.id, event.at)
        else expect(first, `event ${event.id} delivered again`).toBeLessThanOrEqual(killedAt + 1_000)
      }

      // A burst from another key, spread over the instances: exactly its budget is allowed.
      const burst = await Promise.all(
        Array.from({ length: TOOL_CALLS_PER_MINUTE + 10 }, (_, n) =>
          pause((n % 13) * 20).then(() => send("/v1/tools/svc_list_workspaces", burstToken, {}, `burst-${n}`))
        )
      )
      expect(burst.filter((outcome) => outcome.status === 200)).toHaveLength(TOOL_CALLS_PER_MINUTE)
      expect(burst.filter((outcome) => outcome.status === 429)).toHaveLength(10)
    })
  }
)
