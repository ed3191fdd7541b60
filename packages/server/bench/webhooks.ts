/**
 * Webhook delivery throughput: N events queued for H webhooks (written straight through the core, with the
 * worker not yet running), then `svc serve` starts and its worker drains the queue to a receiver on
 * loopback (node:http in this process, answering 204). Delivered/s is measured from the first delivery
 * to arrive to the last, so start-up is not counted. Beside it, the raw rate of plain HTTP POSTs of the
 * same bytes to the same receiver from this process, as many at once as the worker may have in flight,
 * over kept-alive connections (as the SSRF-safe sender keeps them).
 * One more drain goes to the same receiver behind a relay that adds a network's round trip (`delay-proxy.ts`):
 * loopback hides what a connection costs, a receiver across the internet does not.
 * Settings: `BENCH_WEBHOOK_EVENTS` (backlog sizes in events, default 1000 and 4000, each at most `--max-requests`),
 * `BENCH_WEBHOOK_HOOKS` (webhooks, each its own path on the receiver, default 16), `BENCH_WEBHOOK_CONCURRENCY` (the
 * worker's `SVC_WEBHOOK_CONCURRENCY`, default 64) and `BENCH_WEBHOOK_PER_WEBHOOK` (`SVC_WEBHOOK_PER_WEBHOOK`, default
 * 4), `BENCH_WEBHOOK_RTT_MS` (the far receiver's round trip, default 20; 0 skips that drain, which takes the smallest
 * backlog, at most 1,000 events), `BENCH_WEBHOOKS=0` skips it all. Every event goes to every webhook, so a backlog
 * is events × webhooks deliveries; with several webhooks the worker's per-webhook cap is not what limits it.
 */
import { Agent, createServer, request } from "node:http"
import { resolve } from "node:path"
import { SqlClient } from "@effect/sql"
import { CustomAiPortsNoModel } from "@svc/adapters/ai"
import { HttpSenderLive } from "@svc/adapters/http-sender"
import { DatabaseConfig } from "@svc/adapters/sql"
import { CoreLive } from "@svc/core"
import { SchedulingPortsLive } from "@svc/core/scheduling"
import { Accounts } from "@svc/core/accounts"
import { AuthSettings } from "@svc/core/auth"
import { EventLog } from "@svc/core/events"
import { Transactor } from "@svc/core/shared"
import { WebhookSecrets } from "@svc/core/webhooks"
import { Effect, Layer } from "effect"
import { storageLayer } from "../src/storage.js"
import { type BenchDatabase, freshDatabase } from "./database.js"
import { startDelayProxy } from "./delay-proxy.js"
import { freePort, startProcess } from "./processes.js"
import { type BenchSettings, profilesDir, repoRoot } from "./settings.js"

const bin = resolve(repoRoot, "packages/server/bin/svc.mjs")
const log = (line: string) => process.stderr.write(`${line}\n`)

/** One engine's figures. */
export interface WebhookRow {
  readonly engine: string
  /** The receiver's added round trip in ms; 0 on plain loopback. */
  readonly rttMs: number
  readonly events: number
  readonly webhooks: number
  /** Sends the worker may have in flight: min(concurrency, webhooks × per-webhook cap). */
  readonly inFlight: number
  readonly delivered: number
  readonly duplicates: number
  readonly seconds: number
  readonly deliveredPerSecond: number
  readonly rawPostsPerSecond: number
  /** Delivered/s over raw POSTs/s. */
  readonly overRaw: number
  /** CPU time of the `svc serve` process per delivery while it drained, in µs (steadier than a rate on a busy machine). */
  readonly cpuMicrosPerDelivery: number
}

interface Sink {
  readonly port: number
  readonly count: () => number
  readonly unique: () => number
  readonly first: () => number
  readonly last: () => number
  readonly reset: () => void
  readonly close: () => Promise<void>
}

const startSink = async (): Promise<Sink> => {
  let count = 0
  let first = 0
  let last = 0
  const seen = new Set<string>()
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      const now = performance.now()
      if (count === 0) first = now
      last = now
      count++
      const id = req.headers["x-svc-event-id"]
      if (typeof id === "string") seen.add(`${req.url}|${id}`)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    port,
    count: () => count,
    unique: () => seen.size,
    first: () => first,
    last: () => last,
    reset: () => {
      count = 0
      seen.clear()
    },
    close: () => new Promise<void>((done) => server.close(() => done()))
  }
}

/** Writes the account, the webhooks and the events (with their queued deliveries) through the core. */
const queueEvents = (database: BenchDatabase, sinkUrl: string, events: number, hooks: number) => {
  const config = "url" in database.reference ? DatabaseConfig.Postgres({ url: database.reference.url }) : undefined
  const engine = config ?? DatabaseConfig.Pglite({ dataDir: database.env.DATA_DIR })
  const program = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const secrets = yield* WebhookSecrets
    const { workspace } = yield* (yield* Accounts).create({
      email: "webhooks@bench.svc.local",
      password: "bench password, not secret",
      plan: "starter"
    })
    const now = new Date()
    for (let h = 0; h < hooks; h++) {
      yield* sql`INSERT INTO webhooks (id, workspace_id, url, events, enabled, secret_sealed, created_at, updated_at)
                 VALUES (${`wh_bench${h}`}, ${workspace.id}, ${`${sinkUrl}/in/${h}`}, '["*"]'::jsonb, true,
                         ${yield* secrets.seal(yield* secrets.generate)}, ${now}, ${now})`
    }
    const eventLog = yield* EventLog
    const tx = yield* Transactor
    for (let start = 0; start < events; start += 200) {
      yield* tx.withTransaction(
        Effect.forEach(
          Array.from({ length: Math.min(200, events - start) }, (_, i) => start + i),
          (n) =>
            eventLog.append({
              id: `evt_bench${n}`,
              workspaceId: workspace.id,
              type: "purchase.created",
              createdAt: new Date(now.getTime() + n),
              data: { sale_id: `sale_${n}`, amount_cents: 900, buyer_email: `buyer${n}@example.com` }
            }),
          { discard: true }
        )
      )
    }
    const [sample] = yield* sql<{ readonly body: string }>`SELECT body FROM events LIMIT 1`
    return sample?.body ?? "{}"
  })
  const layer = CoreLive.pipe(
    // Scheduling's links are not followed here: any public address does.
    Layer.provideMerge(SchedulingPortsLive("http://127.0.0.1")),
    Layer.provideMerge(storageLayer(engine)),
    Layer.provideMerge(AuthSettings.Default),
    Layer.provideMerge(HttpSenderLive),
    Layer.provideMerge(CustomAiPortsNoModel)
  )
  return Effect.runPromise(Effect.scoped(Effect.provide(program, layer)))
}

/** `count` POSTs of `body` to `url`, `width` at once over kept-alive connections; answers POSTs per second. */
const rawPosts = async (url: string, body: string, count: number, width: number) => {
  let next = 0
  const agent = new Agent({ keepAlive: true, maxSockets: width })
  const post = () =>
    new Promise<void>((done, fail) => {
      const req = request(url, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
        res.resume()
        res.on("end", () => done())
      })
      req.on("error", fail)
      req.end(body)
    })
  const started = performance.now()
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        next++
        await post()
      }
    })
  )
  const perSecond = count / ((performance.now() - started) / 1000)
  agent.destroy()
  return perSecond
}

const waitUntil = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) return false
    await new Promise((r) => setTimeout(r, 20))
  }
  return true
}

// Two backlogs: the second shows whether a claim's cost grows with what is queued (it did, before the claim
// probed each webhook's index instead of joining every due row).
const DEFAULT_BACKLOGS = "1000,4000"
// A receiver across a continent; the drain to it takes the smallest backlog, at most this many events.
const DEFAULT_RTT_MS = "20"
const MAX_FAR_EVENTS = 1000

// Enough webhooks and sends in flight that a fast receiver, not the per-webhook cap, sets the pace.
const DEFAULT_HOOKS = 16
const DEFAULT_CONCURRENCY = 64
const DEFAULT_PER_WEBHOOK = 4

/** The worker settings a drain runs `svc serve` with. */
interface WorkerSettings {
  readonly concurrency: number
  readonly perWebhook: number
}

/** A whole number of at least 1 from the environment variable `name`, or `fallback`. */
const whole = (name: string, fallback: number): number => {
  const text = process.env[name]
  if (text === undefined || text.trim() === "") return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1: ${text}`)
  return value
}

/** The backlog sizes of `BENCH_WEBHOOK_EVENTS` (a comma-separated list), each at most `maxRequests`, once each. */
const backlogSizes = (list: string, maxRequests: number): ReadonlyArray<number> => {
  const sizes = list.split(",").map((part) => Number(part.trim()))
  if (sizes.length === 0 || !sizes.every((size) => Number.isInteger(size) && size >= 1)) {
    throw new Error(`BENCH_WEBHOOK_EVENTS must be whole numbers of at least 1, separated by commas: ${list}`)
  }
  return [...new Set(sizes.map((size) => Math.min(size, maxRequests)))]
}

/** Runs the delivery benchmark on every engine of the run, once per backlog size; answers a row for each. */
export const runWebhookBench = async (settings: BenchSettings): Promise<WebhookRow[]> => {
  if (process.env.BENCH_WEBHOOKS === "0" || !settings.servers.includes("ours")) return []
  const sizes = backlogSizes(process.env.BENCH_WEBHOOK_EVENTS ?? DEFAULT_BACKLOGS, settings.maxRequests)
  const hooks = whole("BENCH_WEBHOOK_HOOKS", DEFAULT_HOOKS)
  const worker = {
    concurrency: whole("BENCH_WEBHOOK_CONCURRENCY", DEFAULT_CONCURRENCY),
    perWebhook: whole("BENCH_WEBHOOK_PER_WEBHOOK", DEFAULT_PER_WEBHOOK)
  }
  const inFlight = Math.min(worker.concurrency, hooks * worker.perWebhook)
  const rttMs = Number(process.env.BENCH_WEBHOOK_RTT_MS ?? DEFAULT_RTT_MS)
  if (!Number.isFinite(rttMs) || rttMs < 0) {
    throw new Error(`BENCH_WEBHOOK_RTT_MS must be a number of ms, 0 or more: ${process.env.BENCH_WEBHOOK_RTT_MS}`)
  }
  const rows: WebhookRow[] = []
  for (const engine of settings.engines) {
    for (const events of sizes) rows.push(await drain(settings, engine, events, hooks, worker, inFlight, 0))
    const far = Math.min(MAX_FAR_EVENTS, ...sizes)
    if (rttMs > 0) rows.push(await drain(settings, engine, far, hooks, worker, inFlight, rttMs))
  }
  return rows
}

/** One drain: `events` queued for `hooks` webhooks on a fresh database of `engine`, then `svc serve` sends them. */
const drain = async (
  settings: BenchSettings,
  engine: BenchSettings["engines"][number],
  events: number,
  hooks: number,
  worker: WorkerSettings,
  inFlight: number,
  rttMs: number
): Promise<WebhookRow> => {
  const total = events * hooks
  const database = await freshDatabase(engine, settings.postgresUrl)
  const sink = await startSink()
  const far = rttMs > 0 ? await startDelayProxy(sink.port, rttMs) : undefined
  const url = `http://127.0.0.1:${far?.port ?? sink.port}`
  try {
    const where = far === undefined ? "" : ` at ${rttMs} ms round trip`
    log(`[${engine}] webhooks: queueing ${events} events for ${hooks} webhook(s)${where} (${total} deliveries)`)
    const body = await queueEvents(database, url, events, hooks)
    const port = await freePort()
    const server = await startProcess(
      "webhooks",
      [...(settings.profile ? ["--cpu-prof", `--cpu-prof-dir=${profilesDir}`] : []), bin, "serve"],
      {
        DATABASE_URL: "",
        ...database.env,
        HOST: "127.0.0.1",
        PORT: String(port),
        SVC_BOOTSTRAP: "false",
        SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
        SVC_WEBHOOK_CONCURRENCY: String(worker.concurrency),
        SVC_WEBHOOK_PER_WEBHOOK: String(worker.perWebhook)
      },
      port
    )
    const cpuBefore = server.cpuSeconds()
    let cpuSeconds = 0
    try {
      const complete = await waitUntil(
        () => sink.unique() >= total,
        Number(process.env.BENCH_WEBHOOK_WAIT_MS ?? 600_000)
      )
      if (!complete) {
        log(`  only ${sink.unique()} of ${total} deliveries arrived within 10 minutes; the server's last words:`)
        log(server.output().slice(-4_000))
      }
      cpuSeconds = server.cpuSeconds() - cpuBefore
    } finally {
      await server.stop()
    }
    const seconds = Math.max(0.001, (sink.last() - sink.first()) / 1000)
    const delivered = sink.unique()
    const duplicates = sink.count() - delivered
    const deliveredPerSecond = delivered > 1 ? (delivered - 1) / seconds : 0
    sink.reset()
    const rawPostsPerSecond = await rawPosts(`${url}/raw`, body, total, inFlight)
    const row: WebhookRow = {
      engine,
      rttMs,
      events,
      webhooks: hooks,
      inFlight,
      delivered,
      duplicates,
      seconds,
      deliveredPerSecond,
      rawPostsPerSecond,
      overRaw: rawPostsPerSecond > 0 ? deliveredPerSecond / rawPostsPerSecond : 0,
      cpuMicrosPerDelivery: delivered > 0 ? (cpuSeconds * 1e6) / delivered : 0
    }
    log(
      `  webhooks ${engine.padEnd(8)}${where} ${delivered}/${total} delivered in ${seconds.toFixed(2)} s: ` +
        `${deliveredPerSecond.toFixed(0)} deliveries/s; raw POSTs ${rawPostsPerSecond.toFixed(0)}/s ` +
        `(×${row.overRaw.toFixed(2)}), ${duplicates} duplicates, ${row.cpuMicrosPerDelivery.toFixed(0)} µs CPU/delivery`
    )
    return row
  } finally {
    await far?.close()
    await sink.close()
    await database.dispose()
  }
}

const header = [
  "engine",
  "RTT ms",
  "events",
  "webhooks",
  "in flight",
  "delivered",
  "s",
  "deliveries/s",
  "raw POSTs/s",
  "÷raw",
  "CPU µs/dlv"
]
const cells = (row: WebhookRow) => [
  row.engine,
  String(row.rttMs),
  String(row.events),
  String(row.webhooks),
  String(row.inFlight),
  `${row.delivered}${row.duplicates > 0 ? ` (+${row.duplicates} dup)` : ""}`,
  row.seconds.toFixed(2),
  row.deliveredPerSecond.toFixed(0),
  row.rawPostsPerSecond.toFixed(0),
  row.overRaw.toFixed(2),
  row.cpuMicrosPerDelivery.toFixed(0)
]

/** The rows as a plain-text table for the console. */
export const webhookText = (rows: ReadonlyArray<WebhookRow>) =>
  [header, ...rows.map(cells)].map((line) => line.map((cell) => cell.padStart(12)).join(" ")).join("\n")

/** The rows as a Markdown section of RESULTS.md (empty when the benchmark did not run). */
export const webhookMarkdown = (rows: ReadonlyArray<WebhookRow>): ReadonlyArray<string> =>
  rows.length === 0
    ? []
    : [
        "## Webhook delivery",
        "",
        "Events queued for the webhooks with the worker stopped, then `svc serve` drains them to a receiver on " +
          "loopback (204). deliveries/s runs from the first delivery to arrive to the last; raw POSTs/s is plain " +
          "`node:http` POSTs of the same body to the same receiver, as many at once as the worker may have in " +
          "flight, over kept-alive connections. ÷raw is the first over the second. CPU µs/dlv is the server process's CPU time per delivery while it drained. A row with an RTT goes " +
          "through a relay that holds every chunk for half that round trip each way, and a new connection's first " +
          "bytes for one more (its handshake): a receiver across the internet, which loopback hides.",
        "",
        `| ${header.join(" | ")} |`,
        `|${header.map(() => "---").join("|")}|`,
        ...rows.map((row) => `| ${cells(row).join(" | ")} |`),
        ""
      ]
