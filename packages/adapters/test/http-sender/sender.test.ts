import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeSsrfSafeSender, type ResolvedAddress } from "../../src/http-sender/index.js"

// A real receiver on loopback; each path answers differently.
let server: Server
let port = 0
const seen: Array<{ path: string; host: string | undefined; body: string; userAgent: string | undefined }> = []

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = ""
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on("end", () => {
      seen.push({ path: request.url ?? "", host: request.headers.host, body, userAgent: request.headers["user-agent"] })
      switch (request.url) {
        case "/ok":
          response.writeHead(204).end()
          return
        case "/fail":
          response.writeHead(500, { "content-type": "text/plain" }).end("boom")
          return
        case "/redirect":
          response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end()
          return
        case "/big":
          response.writeHead(200).end("x".repeat(200_000))
          return
        case "/hang":
          return // never answers
        default:
          response.writeHead(404).end()
      }
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
})

const sender = (
  options: {
    allowLoopback?: boolean
    timeoutMs?: number
    resolve?: (host: string) => Promise<ReadonlyArray<ResolvedAddress>>
  } = {}
) =>
  makeSsrfSafeSender({
    allowLoopback: options.allowLoopback ?? true,
    timeoutMs: options.timeoutMs ?? 2_000,
    maxResponseBytes: 4096,
    userAgent: "svc-test/1.0",
    ...(options.resolve ? { resolve: options.resolve } : {})
  })

const post = (path: string, options: Parameters<typeof sender>[0] = {}, base = `http://127.0.0.1:${port}`) =>
  sender(options).send({ url: `${base}${path}`, headers: { "content-type": "application/json" }, body: '{"a":1}' })

describe("the SSRF-safe sender", () => {
  it.live("delivers the body byte for byte and reports the answer", () =>
    Effect.gen(function* () {
      const outcome = yield* post("/ok")
      expect(outcome.status).toBe(204)
      expect(outcome.address).toBe("127.0.0.1")
      expect(seen.at(-1)).toMatchObject({ path: "/ok", body: '{"a":1}', userAgent: "svc-test/1.0" })
    })
  )

  it.live("answers error statuses and redirects as outcomes, never following a redirect", () =>
    Effect.gen(function* () {
      expect(yield* post("/fail")).toMatchObject({ status: 500, body: "boom" })
      const redirect = yield* post("/redirect")
      expect(redirect.status).toBe(302)
      expect(redirect.headers.location).toBe("http://169.254.169.254/latest/meta-data")
      expect(seen.filter((s) => s.path.startsWith("/latest"))).toHaveLength(0)
    })
  )

  it.live("reads no more than the cap of a large answer", () =>
    Effect.gen(function* () {
      const outcome = yield* post("/big")
      expect(outcome.body).toHaveLength(4096)
      expect(outcome.bodyTruncated).toBe(true)
    })
  )

  it.live("gives up at the deadline with reason timeout", () =>
    Effect.gen(function* () {
      const failure = yield* Effect.flip(post("/hang", { timeoutMs: 300 }))
      expect(failure.reason).toBe("timeout")
      expect(failure.durationMs).toBeGreaterThanOrEqual(250)
    })
  )

  it.live("reports a refused connection", () =>
    Effect.gen(function* () {
      const failure = yield* Effect.flip(post("/ok", {}, "http://127.0.0.1:1"))
      expect(failure.reason).toBe("connect")
    })
  )

  it.live("refuses loopback, private and local forms without the test switch, before any connection", () =>
    Effect.gen(function* () {
      const before = seen.length
      for (const url of [
        `http://127.0.0.1:${port}/ok`,
        `https://127.0.0.1:${port}/ok`,
        `https://[::1]:${port}/ok`,
        `https://[::ffff:127.0.0.1]:${port}/ok`,
        `https://localhost:${port}/ok`,
        "https://169.254.169.254/latest",
        "https://10.0.0.8/",
        "https://user:pass@hooks.example.com/"
      ]) {
        const failure = yield* Effect.flip(sender({ allowLoopback: false }).send({ url, headers: {}, body: "{}" }))
        expect(failure.reason, url).toBe("blocked-address")
      }
      expect(seen.length).toBe(before)
    })
  )

  it.live(
    "refuses a public-looking name that resolves to a private address, or to any private address among others",
    () =>
      Effect.gen(function* () {
        const resolveTo = (addresses: ReadonlyArray<string>) => async () =>
          addresses.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }))
        for (const addresses of [
          ["10.0.0.5"],
          ["93.184.216.34", "127.0.0.1"],
          ["::ffff:192.168.0.1"],
          ["64:ff9b::a00:1"]
        ]) {
          const failure = yield* Effect.flip(
            sender({ allowLoopback: false, resolve: resolveTo(addresses) }).send({
              url: "https://hooks.example.com/in",
              headers: {},
              body: "{}"
            })
          )
          expect(failure.reason, addresses.join(",")).toBe("blocked-address")
        }
      })
  )

  it.live("connects to the address it checked, sending the name as Host (no second lookup to rebind)", () =>
    Effect.gen(function* () {
      let lookups = 0
      const outcome = yield* sender({
        allowLoopback: true,
        resolve: async () => {
          lookups += 1
          return [{ address: "127.0.0.1", family: 4 }]
        }
      }).send({ url: `http://localhost:${port}/ok`, headers: {}, body: "{}" })
      expect(outcome.status).toBe(204)
      expect(lookups).toBe(1)
      expect(seen.at(-1)?.host).toBe(`localhost:${port}`)
    })
  )
})
