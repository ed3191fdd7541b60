// A local AT Protocol network with an AppView, in one process: a PLC directory (in memory), a PDS (SQLite and blobs
// under the directory given as the first argument) and the Bluesky AppView with its dataplane (PostgreSQL, in a schema
// of its own, dropped when it stops), which follows the PDS's firehose as the real one does. Built from
// @atproto/dev-env's parts (TestPlc, TestBsky, TestPds) without its ozone moderation service and second PDS, which
// the research tests do not need and which would double the start. Started by atproto-appview.ts as a child process.
//
// The PostgreSQL address is DB_POSTGRES_URL. It prints one JSON line, {"appViewUrl","pdsUrl","plcUrl","controlUrl"},
// once all answer. `POST <controlUrl>/settle` answers 204 once the AppView has indexed everything the PDS has written
// so far (500 with the reason otherwise). It stops on SIGTERM, SIGINT, or when its standard input closes (so a test
// process that dies takes it along), and at start drops the schemas left by networks whose process is gone.
import { randomBytes } from "node:crypto"
import { mkdirSync } from "node:fs"
import { createServer } from "node:http"
import { createServer as createNetServer } from "node:net"
import path from "node:path"
import { mockNetworkUtilities, TestBsky, TestPds, TestPlc } from "@atproto/dev-env"
import pg from "pg"

const directory = process.argv[2]
if (directory === undefined) throw new Error("usage: atproto-appview.mjs <data directory>")
const dbPostgresUrl = process.env.DB_POSTGRES_URL
if (dbPostgresUrl === undefined || dbPostgresUrl === "") throw new Error("atproto-appview.mjs needs DB_POSTGRES_URL")

// The AppView's schema names may hold only letters and "_": the process id is spelled with letters a-j, so that a
// later network can tell a schema whose owner is gone (killed before it could drop it) from one in use.
const PREFIX = "svc_appview_"
const letters = (digits) => [...String(digits)].map((d) => String.fromCharCode(97 + Number(d))).join("")
const digitsOf = (word) => Number([...word].map((c) => String(c.charCodeAt(0) - 97)).join(""))
const schema = `${PREFIX}${letters(process.pid)}_${[...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join("")}`

/** A port nothing listens on now. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createNetServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === "EPERM"
  }
}

const admin = async (run) => {
  const client = new pg.Client({ connectionString: dbPostgresUrl })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

await admin(async (client) => {
  const { rows } = await client.query("select nspname from pg_namespace where nspname like $1", [`${PREFIX}%`])
  for (const { nspname } of rows) {
    const owner = digitsOf(nspname.slice(PREFIX.length).split("_")[0])
    if (!alive(owner)) await client.query(`drop schema if exists "${nspname}" cascade`)
  }
})

const plc = await TestPlc.create({})
// The PDS must know its port before the AppView starts (the AppView subscribes to its firehose), and the AppView's
// address before the PDS starts (the PDS proxies app.bsky.* calls of logged-in clients to it).
const pdsPort = await freePort()
const bsky = await TestBsky.create({
  plcUrl: plc.url,
  pdsPort,
  repoProvider: `ws://localhost:${pdsPort}`,
  dbPostgresUrl,
  dbPostgresSchema: schema,
  redisHost: "unused"
})
mkdirSync(path.join(directory, "data"), { recursive: true })
const pds = await TestPds.create({
  port: pdsPort,
  didPlcUrl: plc.url,
  dataDirectory: path.join(directory, "data"),
  blobstoreDiskLocation: path.join(directory, "blobs"),
  bskyAppViewUrl: bsky.url,
  bskyAppViewDid: bsky.ctx.cfg.serverDid
})
// As dev-env's TestNetwork does: handles and DIDs resolve to the local PDS, not to the addresses PLC documents name.
mockNetworkUtilities(pds, bsky)

/** Everything the PDS has sequenced so far, indexed by the AppView (dev-env's TestNetwork.processAll, without ozone). */
const settle = async (timeoutMs = 10_000) => {
  await pds.processAll()
  const lastSeq = await pds.ctx.sequencer.curr()
  if (lastSeq === null || lastSeq === undefined) return
  const start = Date.now()
  while (Date.now() - start < timeoutMs) {
    await bsky.sub.processAll()
    const cursor = await bsky.sub.runner.getCursor()
    if (cursor !== undefined && cursor !== null && cursor >= lastSeq) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`the AppView did not index sequence ${lastSeq} within ${timeoutMs} ms`)
}

const control = createServer((request, response) => {
  if (request.method !== "POST" || request.url !== "/settle") {
    response.writeHead(404).end()
    return
  }
  settle().then(
    () => response.writeHead(204).end(),
    (error) => response.writeHead(500, { "content-type": "text/plain" }).end(String(error?.stack ?? error))
  )
})
await new Promise((resolve) => control.listen(0, "127.0.0.1", resolve))

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  control.close()
  await pds.close().catch(() => undefined)
  await bsky.close().catch(() => undefined)
  await plc.close().catch(() => undefined)
  await admin((client) => client.query(`drop schema if exists "${schema}" cascade`)).catch(() => undefined)
  process.exit(0)
}
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
process.stdin.on("end", stop)
process.stdin.resume()

process.stdout.write(
  `${JSON.stringify({
    appViewUrl: bsky.url,
    pdsUrl: pds.url,
    plcUrl: plc.url,
    controlUrl: `http://127.0.0.1:${control.address().port}`
  })}\n`
)
