/**
 * Real deliveries, verified as a receiver would: a real `svc serve` (built `dist/`, on its own PGlite directory, the
 * demo owner and key it prints on an empty database) sends each event type's test delivery, signed, to a receiver on
 * 127.0.0.1, and `constructEvent` verifies the raw bytes and gives the typed event.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { WEBHOOK_EVENT_TYPES } from "@svc/core/webhooks"
import { constructEvent, WebhookVerificationError } from "../src/index.js"

const bin = resolve(import.meta.dirname, "../../server/bin/svc.mjs")

interface Delivery {
  readonly headers: IncomingHttpHeaders
  readonly body: Uint8Array
}

const listen = (server: Server) =>
  new Promise<number>((done) => server.listen(0, "127.0.0.1", () => done((server.address() as AddressInfo).port)))

const freePort = async () => {
  const probe = createServer()
  const port = await listen(probe)
  await new Promise((done) => probe.close(done))
  return port
}

const waitFor = async <A>(what: string, find: () => A | undefined | Promise<A | undefined>, ms = 60_000) => {
  const deadline = Date.now() + ms
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

let dataDir = ""
let serverProcess: ChildProcess | undefined
let receiver: Server | undefined
let baseUrl = ""
let token = ""
let receiverUrl = ""
const deliveries: Array<Delivery> = []
let webhookSecret = ""

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      deliveries.push({ headers: request.headers, body: new Uint8Array(Buffer.concat(chunks)) })
      response.writeHead(204).end()
    })
  })
  receiverUrl = `http://127.0.0.1:${await listen(receiver)}/hook`
  dataDir = await mkdtemp(join(tmpdir(), "svc-client-webhooks-"))
  const port = await freePort()
  baseUrl = `http://127.0.0.1:${port}`
  let output = ""
  serverProcess = spawn(process.execPath, [bin, "serve"], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      SVC_WEBHOOKS_ALLOW_LOOPBACK: "true"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  serverProcess.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  serverProcess.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  // On an empty database the server opens a demo owner and prints its API key once.
  token = await waitFor(`the bootstrap key in: ${output}`, () => /svc_pat_[0-9A-Za-z]+/.exec(output)?.[0])
  await waitFor("/health", () =>
    fetch(`${baseUrl}/health`).then(
      (r) => (r.ok ? true : undefined),
      () => undefined
    )
  )
}, 90_000)

afterAll(async () => {
  if (serverProcess !== undefined && serverProcess.exitCode === null) {
    const exited = new Promise((done) => serverProcess?.once("exit", done))
    serverProcess.kill("SIGTERM")
    await exited
  }
  await new Promise((done) => (receiver === undefined ? done(undefined) : receiver.close(done)))
  if (dataDir !== "") await rm(dataDir, { recursive: true, force: true })
})

const store = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${baseUrl}/store-app/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe("constructEvent on deliveries from svc serve", { timeout: 120_000 }, () => {
  it("verifies the test delivery of every event type and types it by its type", async () => {
    const created = await store("POST", "/webhooks", { url: receiverUrl, events: ["*"] })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const { id, secret } = created.body.webhook as { id: string; secret: string }
    webhookSecret = secret
    for (const type of WEBHOOK_EVENT_TYPES) {
      const sent = await store("POST", `/webhooks/${id}/test`, { type })
      expect(sent.body, type).toMatchObject({ ok: true, delivered: true })
      const delivery = await waitFor(type, () => deliveries.find((d) => d.headers["x-svc-event"] === type))
      const event = await constructEvent(delivery.body, delivery.headers, secret)
      expect(event.type).toBe(type)
      expect(event.id).toBe(sent.body.event_id)
      expect(event.store.handle).toEqual(expect.any(String))
    }

    const renewal = deliveries.find((d) => d.headers["x-svc-event"] === "membership.renewed")
    const event = renewal === undefined ? undefined : await constructEvent(renewal.body, renewal.headers, secret)
    if (event?.type !== "membership.renewed") throw new Error("the renewal delivery was not a membership.renewed event")
    expect(event.data.payment).toBe("renewal")
    expect(event.data.amount_cents).toBe(2900)
  })

  it("refuses a real delivery under another secret, and one whose bytes changed", async () => {
    const [delivery] = deliveries
    if (delivery === undefined) throw new Error("no delivery arrived")
    expect(await constructEvent(delivery.body, delivery.headers, webhookSecret)).toHaveProperty("id")
    const wrongSecret = await constructEvent(delivery.body, delivery.headers, "whsec_not_it").catch((e: unknown) => e)
    expect(wrongSecret).toBeInstanceOf(WebhookVerificationError)
    expect(wrongSecret).toMatchObject({ reason: "bad_signature" })
    const changed = Uint8Array.from(delivery.body)
    changed[changed.length - 2] = "0".charCodeAt(0) === changed[changed.length - 2] ? 49 : 48
    const tampered = await constructEvent(changed, delivery.headers, webhookSecret).catch((e: unknown) => e)
    expect(tampered).toMatchObject({ reason: "bad_signature" })
  })
})
