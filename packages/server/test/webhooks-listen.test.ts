/**
 * `svc webhooks listen --forward-to`: a developer receives the store's events on a local address, signed, with no
 * public address: the real `svc` process against a real `svc serve`, a local receiver that checks each delivery with
 * the client's `constructEvent`, and a clean stop on SIGINT.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { constructEvent, createStoreClient, type StoreClient } from "@svc/client"
import { freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { setUpSeller } from "./support/webhooks.js"

interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

let env: Record<string, string> = {}
let dispose = async () => {}
let server: RunningServer | undefined
let receiver: Server | undefined
let receiverUrl = ""
let store: StoreClient
let token = ""
let product = ""
const received: Array<Received> = []

const bin = resolve(import.meta.dirname, "../bin/svc.mjs")

/** Waits until `check` holds, looking every 100 ms, for up to 20 s. */
const eventually = async (check: () => boolean, what: string) => {
  for (let waited = 0; waited < 20_000; waited += 100) {
    if (check()) return
    await new Promise((done) => setTimeout(done, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

beforeAll(async () => {
  const database = await freshDatabase()
  env = { ...database.env, SVC_BOOTSTRAP: "false" }
  dispose = database.dispose
  const seller = await setUpSeller(env)
  token = seller.token
  server = await startServer(env)
  store = createStoreClient({ baseUrl: server.baseUrl, token })
  product = (await store.products.create({ custom_ai_id: seller.customAiId, price_cents: 1900 })).product.id
  await store.products.publish({ id: product })
  receiver = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8")
    })
    request.on("end", () => {
      received.push({ headers: request.headers, body })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((done) => receiver?.listen(0, "127.0.0.1", done))
  const address = receiver.address()
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`
}, 120_000)

afterAll(async () => {
  await new Promise<void>((done) => (receiver ? receiver.close(() => done()) : done()))
  if (server && server.process.exitCode === null) await server.stop()
  await dispose()
})

describe("svc webhooks listen", { timeout: 120_000 }, () => {
  it("forwards each new event once, signed with the secret it printed, and stops on SIGINT", async () => {
    // Before it starts: an event it must not send.
    await store.sales.record({ event: "sale", product, email: "before@example.com" })

    const child: ChildProcess = spawn(
      process.execPath,
      [
        bin,
        "webhooks",
        "listen",
        "--forward-to",
        receiverUrl,
        "--url",
        server?.baseUrl ?? "",
        "--poll-interval-ms",
        "200"
      ],
      { env: { ...process.env, SVC_API_KEY: token } }
    )
    let output = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
    try {
      await eventually(() => output.includes("Ready."), `the listener to start: ${output}`)
      const secret = /signing secret (whsec_\S+)/.exec(output)?.[1] ?? ""
      expect(secret).toMatch(/^whsec_/)

      await store.sales.record({ event: "sale", product, email: "after@example.com" })
      await eventually(
        () => received.some((delivery) => delivery.headers["x-svc-event"] === "purchase.created"),
        `a purchase.created delivery: ${output}`
      )
      const purchases = await Promise.all(
        received
          .filter((delivery) => delivery.headers["x-svc-event"] === "purchase.created")
          .map((delivery) => constructEvent(delivery.body, delivery.headers, secret))
      )
      // Only the sale made after it started, once, checked with the printed secret as a real delivery would be.
      expect(purchases.map((event) => event.type === "purchase.created" && event.data.buyer_email)).toEqual([
        "after@example.com"
      ])
      await expect(
        constructEvent(received[0]?.body ?? "", received[0]?.headers ?? {}, "whsec_someone_else")
      ).rejects.toThrow()
      expect(output).toMatch(/purchase\.created\s+evt_\S+\s+-> 204/)
    } finally {
      child.kill("SIGINT")
    }
    expect(await exited, output).toBe(0)
    expect(output).toContain("Stopped.")
  })

  it("says what is wrong, and exits 1, when the key is refused or the address is not a URL", async () => {
    const run = (args: ReadonlyArray<string>) =>
      new Promise<{ code: number | null; output: string }>((done) => {
        const child = spawn(process.execPath, [bin, "webhooks", "listen", ...args], { env: process.env })
        let output = ""
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString()
        })
        child.stderr.on("data", (chunk: Buffer) => {
          output += chunk.toString()
        })
        child.once("exit", (code) => done({ code, output }))
      })
    const refused = await run(["--forward-to", receiverUrl, "--url", server?.baseUrl ?? "", "--key", "svc_pat_nope"])
    expect(refused.code).toBe(1)
    expect(refused.output).toContain("the store API refused to list events")
    const notUrl = await run(["--forward-to", "localhost:3000", "--url", server?.baseUrl ?? "", "--key", token])
    expect(notUrl.code).toBe(1)
    expect(notUrl.output).toContain("--forward-to must be")
  })
})
