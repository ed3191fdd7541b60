import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeSsrfSafeSender, type ResolvedAddress } from "../../src/http-sender/index.js"

// A real receiver on loopback; each path answers differently.
let server: Server
let port = 0
const seen: Array<{ path: string; host: string | undefined; body: string; userAgent: string | undefined }> = []
// Every connection the receiver accepted, in order, and how many requests came on each.
const connections: Array<Socket> = []
const requestsOn = new WeakMap<Socket, number>()

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = ""
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on("end", () => {
      const socket = request.socket
      requestsOn.set(socket, (requestsOn.get(socket) ?? 0) + 1)
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
        case "/slow":
          setTimeout(() => response.writeHead(204).end(), 300)
          return
        case "/first-per-connection":
          // Answers the first request on a connection; closes the connection on any later one, unanswered.
          if ((requestsOn.get(socket) ?? 0) > 1) socket.destroy()
          else response.writeHead(204).end()
          return
        default:
          response.writeHead(404).end()
      }
    })
  })
  server.on("connection", (socket: Socket) => connections.push(socket))
  // Longer than any test: a kept connection closes only when the sender closes it.
  server.keepAliveTimeout = 600_000
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
})

interface TestSenderOptions {
  allowLoopback?: boolean
  timeoutMs?: number
  keepAliveMs?: number
  resolve?: (host: string) => Promise<ReadonlyArray<ResolvedAddress>>
}

// A sender that lives as long as the scope it is made in, with its kept connections.
const scopedSender = (options: TestSenderOptions = {}) =>
  makeSsrfSafeSender({
    allowLoopback: options.allowLoopback ?? true,
    timeoutMs: options.timeoutMs ?? 2_000,
    maxResponseBytes: 4096,
    userAgent: "svc-test/1.0",
    ...(options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs }),
    ...(options.resolve ? { resolve: options.resolve } : {})
  })

// A sender for one send, closed after it.
const sender = (options: TestSenderOptions = {}) => ({
  send: (request: Parameters<Effect.Effect.Success<ReturnType<typeof scopedSender>>["send"]>[0]) =>
    Effect.scoped(Effect.flatMap(scopedSender(options), (made) => made.send(request)))
})

// Resolves once the receiver's side of `socket` has closed.
const closed = (socket: Socket) =>
  Effect.promise(() => new Promise<void>((done) => (socket.destroyed ? done() : socket.once("close", () => done()))))

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

describe("connections kept for the next send", () => {
  const ok = (path = "/ok") => ({ url: `http://127.0.0.1:${port}${path}`, headers: {}, body: "{}" })

  // `sends` sends in a row through one sender, closed afterwards; answers how many connections the receiver took.
  const inARow = (sends: number, options: TestSenderOptions) =>
    Effect.scoped(
      Effect.gen(function* () {
        const before = connections.length
        const sender = yield* scopedSender(options)
        for (let n = 0; n < sends; n++) expect((yield* sender.send(ok())).status).toBe(204)
        return connections.length - before
      })
    )

  it.live("reuses one connection for sends in a row, and closes it with the sender's scope", () =>
    Effect.gen(function* () {
      const before = connections.length
      // Kept far longer than the test may take, so only closing the scope closes it.
      expect(yield* inARow(3, { keepAliveMs: 600_000 })).toBe(1)
      yield* closed(connections[before] as Socket).pipe(Effect.timeout("10 seconds"))
    })
  )

  it.live("opens a connection per send when keepAliveMs is 0", () =>
    Effect.gen(function* () {
      expect(yield* inARow(2, { keepAliveMs: 0 })).toBe(2)
    })
  )

  it.live("closes an idle connection after keepAliveMs, and still waits longer than that for an answer", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const before = connections.length
        const kept = yield* scopedSender({ keepAliveMs: 100 })
        // The idle timeout is not a deadline: the 300 ms answer arrives on the kept connection.
        expect((yield* kept.send(ok("/slow"))).status).toBe(204)
        expect((yield* kept.send(ok("/slow"))).status).toBe(204)
        expect(connections.length - before).toBe(1)
        // With the sender still open, the idle connection goes by itself.
        yield* closed(connections[before] as Socket).pipe(Effect.timeout("5 seconds"))
      })
    )
  )

  it.live("sends again on a new connection when the receiver closes the kept one it is reused on", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const before = connections.length
        const heard = () => seen.filter((s) => s.path === "/first-per-connection").length
        const heardBefore = heard()
        const kept = yield* scopedSender()
        expect((yield* kept.send(ok("/first-per-connection"))).status).toBe(204)
        // The second send goes out on the kept connection, which the receiver closes unanswered.
        expect((yield* kept.send(ok("/first-per-connection"))).status).toBe(204)
        expect(heard() - heardBefore).toBe(3)
        expect(connections.length - before).toBe(2)
      })
    )
  )

  it.live("closes the connection of an answer it stopped reading, and sends the next on a new one", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const before = connections.length
        const kept = yield* scopedSender({ keepAliveMs: 600_000 })
        expect((yield* kept.send(ok("/big"))).bodyTruncated).toBe(true)
        // Not read to its end, so not kept: the rest of the answer is never downloaded.
        yield* closed(connections[before] as Socket).pipe(Effect.timeout("10 seconds"))
        expect((yield* kept.send(ok())).status).toBe(204)
        expect(connections.length - before).toBe(2)
      })
    )
  )

  it.live("reuses a connection only for the address just checked, never after the name moved", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const answers = ["127.0.0.1", "127.0.0.2"]
        let lookups = 0
        const kept = yield* scopedSender({
          resolve: async () => [{ address: answers[Math.min(lookups++, 1)] as string, family: 4 }]
        })
        const named = { url: `http://localhost:${port}/ok`, headers: {}, body: "{}" }
        expect(yield* kept.send(named)).toMatchObject({ status: 204, address: "127.0.0.1" })
        // The receiver listens on 127.0.0.1 only: a send that reused the kept connection would have reached it.
        const moved = yield* Effect.flip(kept.send(named))
        expect(moved.reason).toBe("connect")
        expect(lookups).toBe(2)
      })
    )
  )
})
