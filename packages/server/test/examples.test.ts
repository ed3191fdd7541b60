import { type ChildProcess, execFile, spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import { resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { constructEvent, createStoreClient, createToolClient } from "@svc/client"

const root = resolve(import.meta.dirname, "../../..")
const tsx = resolve(root, "node_modules/.bin/tsx")
/**
 * The examples that stop on a signal run in Node itself with tsx's loader, so SIGTERM reaches them directly. The tsx
 * command relays a signal to its child and, when the child has not said it got it within 30 ms, kills it: on a busy
 * CI machine that turned a clean stop into exit 143.
 */
const withTsx = (file: string) => [process.execPath, ["--import", "tsx", file]] as const

/** Runs an example to its end and answers what it printed. */
const runToEnd = (file: string, env: NodeJS.ProcessEnv = process.env) =>
  new Promise<string>((done, fail) =>
    execFile(tsx, [file], { cwd: root, env, timeout: 100_000 }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout)
    )
  )

/** A started embedding example: where it listens, the API key it printed, and how to stop it. */
interface RunningExample {
  readonly base: string
  /** Where svc answers: the app's own address, or a prefix of it. */
  readonly svc: string
  readonly key: string
  readonly output: () => string
  /** Sends SIGTERM and answers the exit code. */
  readonly stop: () => Promise<number | null>
}

// Each embedding example prints `listening on <url> (...)`, `svc on <url>` and `key <api key>` once it serves.
const startExample = (file: string): Promise<RunningExample> => {
  // The examples' default database: PGlite in memory, whatever this shell points at.
  const { DATABASE_URL: _ignored, ...env } = process.env
  const [node, args] = withTsx(file)
  const child: ChildProcess = spawn(node, args, {
    cwd: root,
    // The test's webhook receiver listens on this machine over plain http.
    env: { ...env, PORT: "0", SVC_WEBHOOKS_ALLOW_LOOPBACK: "true" }
  })
  let output = ""
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM")
    return exited
  }
  return new Promise<RunningExample>((done, fail) => {
    const timer = setTimeout(() => {
      void stop()
      fail(new Error(`${file} did not start: ${output}`))
    }, 90_000)
    void exited.then((code) => {
      clearTimeout(timer)
      fail(new Error(`${file} ended with ${code} before serving: ${output}`))
    })
    child.stdout?.on("data", () => {
      const base = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      const svc = /^svc on (http:\/\/\S+)$/m.exec(output)?.[1]
      const key = /^key (svc_pat_\S+)$/m.exec(output)?.[1]
      if (base && svc && key) {
        clearTimeout(timer)
        done({ base, svc, key, output: () => output, stop })
      }
    })
  })
}

/** A webhook receiver on this machine: each delivery's raw body and headers, answered 200. */
const startReceiver = async () => {
  const deliveries: Array<{ readonly body: string; readonly headers: Record<string, string> }> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value
      deliveries.push({ body: Buffer.concat(chunks).toString("utf8"), headers })
      response.end("ok")
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  const close = () => new Promise<void>((done) => server.close(() => done()))
  return { url, deliveries, close }
}

/**
 * A first sale with no command line, as a newcomer makes it from the tarballs: a Custom AI through the tools, then
 * through the store API a webhook to this machine, a product the publish checklist holds back, the settings that
 * free it, the sale, and its signed `purchase.created` delivery.
 */
const firstSale = async (svcUrl: string, key: string, name: string) => {
  const receiver = await startReceiver()
  try {
    const tools = createToolClient({ baseUrl: svcUrl, token: key, transport: "rest" })
    const { customAI } = await tools.svc_create_custom_ai({ name: `${name} coach` })
    const store = createStoreClient({ baseUrl: svcUrl, token: key })
    const { webhook } = await store.webhooks.create({ url: receiver.url, events: ["purchase.created"] })

    const { product, publish_checklist } = await store.products.create({ custom_ai_id: customAI.id, price_cents: 4900 })
    expect(publish_checklist.map((item) => item.item)).toContain("support_email")
    await store.settings.update({ support_email: "help@example.com", card_processor: "connected" })
    expect((await store.products.publish({ id: product.id })).product.status).toBe("live")
    const sale = await store.sales.record({ event: "sale", product: product.id, email: "buyer@example.com" })
    expect(sale).toMatchObject({ ok: true, status: "granted" })

    const deadline = Date.now() + 30_000
    while (receiver.deliveries.length === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100))
    const [delivery] = receiver.deliveries
    expect(delivery, "no webhook delivery within 30 s").toBeDefined()
    const event = await constructEvent(delivery?.body ?? "", delivery?.headers ?? {}, webhook.secret)
    expect(event.type).toBe("purchase.created")
  } finally {
    await receiver.close()
  }
}

describe("the examples", { timeout: 120_000 }, () => {
  it("embed-core.ts serves a tool call through the embedded web handler", async () => {
    const output = await runToEnd("examples/embed-core.ts")
    expect(output).toMatch(/^200 /)
    expect(output).toContain("Embedded")
  })

  // One framework per example: svc's routes next to the app's own, a tool called through the typed client,
  // request bodies reaching both the app's JSON route and svc, then a clean stop on SIGTERM.
  describe.each([
    ["embed-express.ts", "Express"],
    ["embed-fastify.ts", "Fastify"],
    ["embed-hono.ts", "Hono"],
    ["embed-effect-router.ts", "Effect"]
  ])("%s", (file, framework) => {
    it(`serves svc's tools next to the ${framework} app's own routes, and stops on SIGTERM`, async () => {
      const example = await startExample(`examples/${file}`)
      try {
        const client = createToolClient({ baseUrl: example.svc, token: example.key, transport: "rest" })
        const created = await client.svc_create_note({ markdown: `# Mounted in ${framework}\n\nHello.` })
        expect(created.ok).toBe(true)
        const read = await client.svc_get_note_markdown({ noteId: created.note.id })
        expect(read.note.markdown).toBe(`# Mounted in ${framework}\n\nHello.`)

        // The same service over MCP, on the same mount.
        const overMcp = createToolClient({ baseUrl: example.svc, token: example.key, transport: "mcp" })
        expect((await overMcp.svc_get_note_markdown({ noteId: created.note.id })).note.markdown).toContain(framework)

        const hello = await fetch(`${example.base}/hello`)
        expect(await hello.json()).toEqual({ hello: `from the ${framework} app` })
        const echoed = await fetch(`${example.base}/echo`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ a: 1 })
        })
        expect(await echoed.json()).toEqual({ echoed: { a: 1 } })

        // The store API is mounted too, behind the same key: a first sale, and its webhook received here.
        await firstSale(example.svc, example.key, framework)

        // Mounted under a prefix, svc answers OAuth discovery where MCP clients look: at the app's root, with the
        // prefix after the well-known name (RFC 8414).
        const prefix = new URL(example.svc).pathname
        if (prefix !== "/") {
          const discovery = await fetch(`${example.base}/.well-known/oauth-authorization-server${prefix}`)
          expect(discovery.status).toBe(200)
          expect(await discovery.json()).toMatchObject({ issuer: expect.stringMatching(new RegExp(`${prefix}$`)) })
        }
      } finally {
        const code = await example.stop()
        expect(code, example.output()).toBe(0)
      }
    })
  })

  it("embed-core-no-http.ts calls a tool and services in its own program, on PGlite without DATABASE_URL", async () => {
    const { DATABASE_URL: _ignored, ...env } = process.env
    const output = await runToEnd("examples/embed-core-no-http.ts", env)
    expect(output).toContain("database: PGlite in memory")
    expect(output).toMatch(/^tool svc_create_note: note_\w+$/m)
    expect(output).toContain("Notes.get: From my program (38 characters)")
    expect(output).toMatch(/^StoreEmailList\.listPage: reader@example\.com \(newsletter\) since 20\d\d$/m)
    expect(output).toContain("NotFound: no product prod_missing in this store; next: ListProducts")
  })

  it("webhook-receiver.ts accepts a signed delivery once, skips its repeat, and refuses a forged one", async () => {
    const secret = "whsec_example"
    const receiver = spawn(tsx, ["examples/webhook-receiver.ts"], {
      cwd: root,
      env: { ...process.env, SVC_WEBHOOK_SECRET: secret, PORT: "0" }
    })
    try {
      let output = ""
      receiver.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString()
      })
      const base = await new Promise<string>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`receiver did not start: ${output}`)), 60_000)
        receiver.stdout.on("data", () => {
          const match = /listening on (http:\/\/\S+)/.exec(output)
          if (match?.[1]) {
            clearTimeout(timer)
            done(match[1])
          }
        })
      })
      const body = JSON.stringify({
        id: "evt_example",
        type: "customer.created",
        created_at: new Date().toISOString(),
        store: { handle: "demo" },
        data: { email: "ada@example.com" }
      })
      const deliver = (key: string) => {
        const timestamp = Date.now()
        const signature = createHmac("sha256", key).update(`${timestamp}.${body}`).digest("hex")
        return fetch(base, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-svc-signature": `sha256=${signature}`,
            "x-svc-timestamp": String(timestamp),
            "x-svc-event": "customer.created",
            "x-svc-event-id": "evt_example"
          },
          body
        })
      }
      expect((await deliver(secret)).status).toBe(204)
      expect((await deliver(secret)).status).toBe(204)
      expect((await deliver("whsec_forged")).status).toBe(400)
      await new Promise((done) => setTimeout(done, 200))
      expect(output).toContain("received evt_example customer.created")
      expect(output).toContain("duplicate evt_example customer.created")
      expect(output).toContain("refused bad_signature")
    } finally {
      receiver.kill("SIGTERM")
    }
  })
})
