/**
 * Moving off the embedded database, as the docs tell a user to: a store made through the API on `svc serve` over
 * DATA_DIR is written out with `svc db export` (sent to the running server), loaded into a new PostgreSQL database
 * with `svc db import`, and `svc serve` on DATABASE_URL answers the same through the API — the key still works, the
 * sales and customers are there, and the events waiting in the outbox go out signed with the webhook's old secret.
 * Needs PostgreSQL (`SVC_TEST_POSTGRES_URL`, or 127.0.0.1:5432): without it this skips on a newcomer's machine and
 * fails in CI.
 */
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import pg from "pg"
import { postgresTool, skipWithout, testPostgresUrl } from "../../adapters/test/support/external-tool.js"
import { runCommand } from "../src/cli/main.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import {
  createWebhook,
  publishProduct,
  type Receiver,
  sell,
  setUpSeller,
  signatureValid,
  startReceiver,
  storeApi,
  waitFor
} from "./support/webhooks.js"

const postgres = await postgresTool()
const skip = skipWithout("the svc db export and import journey", postgres)

const work = mkdtempSync(join(tmpdir(), "svc-db-move-"))
const dataDir = join(work, "data")
const database = `svc_import_${randomBytes(6).toString("hex")}`
const running: Array<RunningServer> = []
let receiver: Receiver | undefined
let admin: pg.Client | undefined
let databaseUrl = ""

beforeAll(async () => {
  if (skip) return
  admin = new pg.Client({ connectionString: testPostgresUrl() })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${database}`)
  const url = new URL(testPostgresUrl())
  url.pathname = `/${database}`
  databaseUrl = url.href
})

afterAll(async () => {
  for (const server of running) {
    if (server.process.exitCode === null && server.process.signalCode === null) await server.stop()
  }
  await receiver?.close()
  await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  await admin?.end()
  rmSync(work, { recursive: true, force: true })
})

/** Runs `svc …` in this process with `env`, collecting its lines. */
const svc = async (argv: ReadonlyArray<string>, env: Record<string, string>) => {
  const stdout: Array<string> = []
  const stderr: Array<string> = []
  const code = await runCommand(argv, {
    env,
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line)
  })
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") }
}

type Call = ReturnType<typeof storeApi>

/** What the store API answers about the store: what must read back the same after the move. */
const storeState = async (call: Call) => {
  const read = async (path: string) => {
    const answer = await call("GET", path)
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200)
    return answer.body
  }
  return {
    products: await read("/products"),
    sales: await read("/sales"),
    customers: await read("/customers"),
    webhooks: await read("/webhooks")
  }
}

describe.skipIf(skip)("svc db export, then svc db import into PostgreSQL", { timeout: 240_000 }, () => {
  it("moves a store with sales, customers, a webhook and its outbox; the server on PostgreSQL answers the same", async () => {
    // The webhook worker is off on the embedded server: the sales' events wait in the outbox, to go out after the move.
    const embedded = {
      DATA_DIR: dataDir,
      SVC_BOOTSTRAP: "false",
      SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
      SVC_WEBHOOK_WORKER: "false"
    }
    const seller = await setUpSeller(embedded)
    receiver = await startReceiver(() => ({ status: 204 }))
    const before = await startServer(embedded)
    running.push(before)
    const call = storeApi(before.baseUrl, seller.token)
    const productId = await publishProduct(call, seller.customAiId)
    const hook = await createWebhook(call, receiver.url("/in"), ["purchase.created"])
    for (let n = 0; n < 3; n++) await sell(call, productId, n)
    const made = await storeState(call)
    expect((made.sales as { data: Array<unknown> }).data).toHaveLength(3)
    expect((made.customers as { data: Array<unknown> }).data).toHaveLength(3)

    // Exported while the server runs: the command goes to it over its admin socket, and it writes the file.
    const file = join(work, "export.sql")
    const exported = await svc(["db", "export", file, "--json"], embedded)
    expect(exported, exported.stderr).toMatchObject({ code: 0 })
    expect(JSON.parse(exported.stdout)).toMatchObject({ file, schema: expect.stringMatching(/^\d+_/) })
    const script = readFileSync(file, "utf8")
    expect(script.split("\n", 1)[0]).toMatch(/^-- svc db export: schema \d+_/)
    expect(script).toContain("PostgreSQL database dump complete")
    // A second export does not overwrite the first unless told to.
    const again = await svc(["db", "export", file], embedded)
    expect(again.code).toBe(2)
    expect(again.stderr).toContain("already exists")
    // The server writes on after the exports (their pg_dump ran in its database session), and the file keeps what
    // the store was when it was written.
    await sell(call, productId, 99)
    await before.stop()

    const onPostgres = { DATABASE_URL: databaseUrl }
    const imported = await svc(["db", "import", file], onPostgres)
    expect(imported, imported.stderr).toMatchObject({ code: 0 })
    expect(imported.stdout).toMatch(/Loaded .* into PostgreSQL: \d+ tables/)
    // Into a database that holds tables now: refused, and nothing is mixed in.
    const twice = await svc(["db", "import", file, "--json"], onPostgres)
    expect(twice.code).toBe(1)
    expect(JSON.parse(twice.stderr)).toMatchObject({ ok: false, error: expect.stringContaining("already holds") })

    const after = await startServer({
      ...onPostgres,
      SVC_BOOTSTRAP: "false",
      SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
      SVC_WEBHOOK_POLL_MS: "200"
    })
    running.push(after)
    const callAfter = storeApi(after.baseUrl, seller.token)
    expect(await storeState(callAfter)).toEqual(made)
    // The outbox came along, and the secret the webhook was made with still signs its deliveries.
    await waitFor("the three waiting purchase.created deliveries", () => receiver?.on("/in").length === 3)
    for (const delivery of receiver.on("/in")) expect(signatureValid(hook.secret, delivery)).toBe(true)
    const sold = receiver.on("/in").map((delivery) => JSON.parse(delivery.body.toString()).type)
    expect(sold).toEqual(["purchase.created", "purchase.created", "purchase.created"])
    // Writes go on where the embedded database left off.
    await sell(callAfter, productId, 3)
    const sales = (await callAfter<{ data: Array<unknown> }>("GET", "/sales")).body.data
    expect(sales).toHaveLength(4)
  })

  it("refuses what it cannot do, saying what to do instead", async () => {
    const onPostgres = { DATABASE_URL: databaseUrl }
    const exportFromPostgres = await svc(["db", "export", join(work, "pg.sql")], onPostgres)
    expect(exportFromPostgres.code).toBe(1)
    expect(exportFromPostgres.stderr).toContain("pg_dump")
    expect(existsSync(join(work, "pg.sql"))).toBe(false)

    const empty = join(work, "empty")
    const noDatabase = await svc(["db", "export", join(work, "none.sql")], { DATA_DIR: empty })
    expect(noDatabase.code).toBe(2)
    expect(noDatabase.stderr).toContain(`there is no embedded database in ${empty}`)
    expect(existsSync(join(empty, "PG_VERSION"))).toBe(false)

    const notAnExport = join(work, "other.sql")
    writeFileSync(notAnExport, "CREATE TABLE t (id int);\n")
    const foreign = await svc(["db", "import", notAnExport], onPostgres)
    expect(foreign.code).toBe(1)
    expect(foreign.stderr).toContain("not a svc db export")

    const intoEmbedded = await svc(["db", "import", join(work, "export.sql")], { DATA_DIR: dataDir })
    expect(intoEmbedded.code).toBe(1)
    expect(intoEmbedded.stderr).toContain("set DATABASE_URL")
  })
})
