/**
 * `@svc/client` as a team gets it: its tarball alone, installed into a project outside the repository (none of the
 * server's packages beside it), type-checked under `--strict` and run against a real `svc serve`. Over REST and MCP
 * it writes and reads a note; through the store API it records one sale twice with one order id and pages through the
 * sales; and it checks a real webhook delivery with `constructEvent`. A deliberate wrong field must fail the check. A
 * CommonJS consumer beside it type-checks and runs too.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { freshDatabase } from "./support/environment.js"
import { INSTALL_FLAGS, run, strictTsconfig, succeeded } from "./support/scratch-project.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import {
  createWebhook,
  publishProduct,
  type Receiver,
  setUpSeller,
  startReceiver,
  storeApi,
  waitFor
} from "./support/webhooks.js"

const root = resolve(import.meta.dirname, "../../..")
const tsc = resolve(root, "node_modules/typescript/bin/tsc")
const scratch = mkdtempSync(join(tmpdir(), "svc-client-pack-"))
const project = join(scratch, "consumer")
let server: RunningServer | undefined
let receiver: Receiver | undefined
let dispose = async () => {}
afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await receiver?.close()
  await dispose()
  rmSync(scratch, { recursive: true, force: true })
}, 300_000)

// What a consumer writes: every value it needs comes from the environment, as from its own configuration.
const program = `import { readFileSync } from "node:fs"
import { constructEvent, createStoreClient, createToolClient, StoreApiError, ToolCallError } from "@svc/client"

const baseUrl = process.env.SVC_URL ?? ""
const token = process.env.SVC_KEY ?? ""
const product = process.env.SVC_PRODUCT ?? ""

const notes: Array<string> = []
for (const transport of ["rest", "mcp"] as const) {
  const tools = createToolClient({ baseUrl, token, transport })
  const created = await tools.svc_create_note({ markdown: \`# Over \${transport}\\n\\nHello.\` })
  const read = await tools.svc_get_note_markdown({ noteId: created.note.id })
  notes.push(read.note.markdown)
  try {
    await tools.svc_get_note_markdown({ noteId: "note_missing" })
  } catch (error) {
    if (!(error instanceof ToolCallError)) throw error
    notes.push(error.status)
  }
}

const store = createStoreClient({ baseUrl, token })
const first = await store.sales.record({ event: "sale", product, email: "buyer@example.com", order_id: "ORDER-1" })
const again = await store.sales.record({ event: "sale", product, email: "buyer@example.com", order_id: "ORDER-1" })
for (let n = 2; n <= 5; n++) await store.sales.record({ event: "sale", product, email: \`buyer\${n}@example.com\` })
const sales: Array<string> = []
for await (const sale of store.sales.list({ product, limit: 2 })) sales.push(sale.id)
let missing = ""
try {
  await store.products.get({ id: "prod_missing" })
} catch (error) {
  if (error instanceof StoreApiError) missing = \`\${error.status} \${error.code}\`
}

const delivery = JSON.parse(readFileSync(process.env.SVC_DELIVERY ?? "", "utf8")) as {
  body: string
  headers: Record<string, string>
}
const event = await constructEvent(delivery.body, delivery.headers, process.env.SVC_WEBHOOK_SECRET ?? "")
const webhook = event.type === "purchase.created" ? event.data.buyer_email : \`other: \${event.type}\`

console.log(JSON.stringify({ notes, first: first.status, again: again.status, sales: sales.length, missing, webhook }))
`

// A CommonJS consumer (a .cts file: its imports compile to require()). Node loads the ES module client through
// require() (Node 20.19 and later), so it type-checks and runs as the ES module consumer does.
const commonJsProgram = `import { readFileSync } from "node:fs"
import { constructEvent, createToolClient, StoreUnexpectedStatusError } from "@svc/client"

const main = async () => {
  const tools = createToolClient({ baseUrl: process.env.SVC_URL ?? "", token: process.env.SVC_KEY ?? "", transport: "rest" })
  const created = await tools.svc_create_note({ markdown: "# From CommonJS" })
  const read = await tools.svc_get_note_markdown({ noteId: created.note.id })
  const delivery = JSON.parse(readFileSync(process.env.SVC_DELIVERY ?? "", "utf8")) as {
    body: string
    headers: Record<string, string>
  }
  const event = await constructEvent(delivery.body, delivery.headers, process.env.SVC_WEBHOOK_SECRET ?? "")
  const unexpected = new StoreUnexpectedStatusError(503, "Service Unavailable")
  console.log(JSON.stringify({ note: read.note.markdown, event: event.type, tag: unexpected._tag }))
}
main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
`

// The same calls with a field no tool has: the consumer's compiler must refuse it.
const wrongProgram = `import { createToolClient } from "@svc/client"
const tools = createToolClient({ baseUrl: "http://localhost", token: "t", transport: "rest" })
await tools.svc_create_note({ markdown: "x", colour: "red" })
`

describe("the packed @svc/client, installed alone outside the repository", { timeout: 600_000 }, () => {
  it("installs from its tarball, type-checks strictly, refuses a wrong field, and works against a real server", async () => {
    const tarballs = join(scratch, "tarballs")
    mkdirSync(tarballs)
    succeeded(
      "npm pack",
      await run("npm", ["pack", "--pack-destination", tarballs, "--workspace", "packages/client"], root)
    )
    const [tarball] = readdirSync(tarballs)
    expect(tarball).toBe("svc-client-0.1.0.tgz")
    mkdirSync(project)
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }, null, 2)
    )
    succeeded(
      "npm install",
      await run("npm", ["install", ...INSTALL_FLAGS, join(tarballs, tarball ?? ""), "@types/node@20"], project)
    )

    writeFileSync(join(project, "wrong.ts"), wrongProgram)
    writeFileSync(join(project, "tsconfig.wrong.json"), JSON.stringify(strictTsconfig(["wrong.ts"]), null, 2))
    const refused = await run(process.execPath, [tsc, "-p", "tsconfig.wrong.json", "--noEmit"], project)
    expect(refused.code).not.toBe(0)
    expect(refused.stdout).toContain("colour")

    writeFileSync(join(project, "consumer.ts"), program)
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(strictTsconfig(["consumer.ts"]), null, 2))
    succeeded("tsc", await run(process.execPath, [tsc, "-p", "tsconfig.json"], project))
    writeFileSync(join(project, "consumer-cjs.cts"), commonJsProgram)
    writeFileSync(join(project, "tsconfig.cjs.json"), JSON.stringify(strictTsconfig(["consumer-cjs.cts"]), null, 2))
    succeeded("tsc (CommonJS)", await run(process.execPath, [tsc, "-p", "tsconfig.cjs.json"], project))

    const database = await freshDatabase()
    dispose = database.dispose
    const env = {
      ...database.env,
      SVC_BOOTSTRAP: "false",
      SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
      SVC_WEBHOOK_POLL_MS: "100"
    }
    const seller = await setUpSeller(env)
    receiver = await startReceiver(() => ({ status: 200 }))
    server = await startServer(env)
    const call = storeApi(server.baseUrl, seller.token)
    const product = await publishProduct(call, seller.customAiId)
    const { secret } = await createWebhook(call, receiver.url("/hook"), ["purchase.created"])
    // One sale through the plain API makes the delivery the consumer checks.
    expect((await call("POST", "/sales", { event: "sale", product, email: "first@example.com" })).status).toBe(200)
    const rx = receiver
    await waitFor("the delivery", () => rx.on("/hook").length > 0)
    const [delivered] = rx.on("/hook")
    const deliveryFile = join(project, "delivery.json")
    writeFileSync(
      deliveryFile,
      JSON.stringify({
        body: delivered?.body.toString("utf8"),
        headers: Object.fromEntries(Object.entries(delivered?.headers ?? {}).map(([k, v]) => [k, String(v)]))
      })
    )

    // Both consumers read the same settings from the environment and print one JSON line.
    const consumerEnv = {
      SVC_URL: server.baseUrl,
      SVC_KEY: seller.token,
      SVC_PRODUCT: product,
      SVC_DELIVERY: deliveryFile,
      SVC_WEBHOOK_SECRET: secret
    }
    const runConsumer = async (file: string): Promise<unknown> =>
      JSON.parse(succeeded(`node ${file}`, await run(process.execPath, [file], project, consumerEnv)).trim())
    expect(await runConsumer("out/consumer.js")).toEqual({
      notes: ["# Over rest\n\nHello.", "not-found", "# Over mcp\n\nHello.", "not-found"],
      first: "granted",
      again: "duplicate",
      sales: 6,
      missing: "404 not_found",
      webhook: "first@example.com"
    })

    expect(await runConsumer("out/consumer-cjs.cjs")).toEqual({
      note: "# From CommonJS",
      event: "purchase.created",
      tag: "StoreUnexpectedStatusError"
    })
  })
})
