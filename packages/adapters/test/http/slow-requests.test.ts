import { connect } from "node:net"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { type HttpTimeouts, lanedServerLayer, ToolLanes } from "../../src/http/index.js"
import { readBodyText } from "../../src/http/body.js"

// The trickles pause 150 ms between writes; the idle deadline leaves them 450 ms of room, so a client timer that
// fires late on a loaded machine (a CI run on 2 cores) is not taken for a stalled body.
const timeouts: HttpTimeouts = { headersMs: 400, requestMs: 1_500, bodyIdleMs: 600, uploadMs: 4_000 }

// Routes behind the laned server, as every face sits behind it: one echoes the body's length, one reads the body
// and then takes longer than the body-idle deadline to answer (a slow tool call, not a slow client), and the media
// upload's path, which echoes too.
const echo = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.map(readBodyText(request, 1024 * 1024), (text) => HttpServerResponse.text(String(text.length)))
).pipe(Effect.orDie)

const Routes = HttpLayerRouter.use((router) =>
  router.addAll([
    HttpLayerRouter.route("POST", "/v1/media", echo),
    HttpLayerRouter.route(
      "POST",
      "/echo",
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.map(readBodyText(request, 1024 * 1024), (text) => HttpServerResponse.text(String(text.length)))
      ).pipe(Effect.orDie)
    ),
    HttpLayerRouter.route(
      "POST",
      "/slow",
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.as(readBodyText(request, 1024), HttpServerResponse.text("done")).pipe(Effect.delay("700 millis"))
      ).pipe(Effect.orDie)
    )
  ])
)

/** The laned server (no tool lane: every request goes to the router) on a free port, with `timeouts`. */
const serverPort = Effect.gen(function* () {
  const server = Layer.merge(
    lanedServerLayer({ host: "127.0.0.1", port: 0 }, timeouts).pipe(
      Layer.provide(Layer.succeed(ToolLanes, () => false))
    ),
    NodeHttpServer.layerContext
  )
  const context = yield* Layer.build(
    HttpLayerRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(Layer.provideMerge(server))
  )
  const { address } = yield* Effect.provide(HttpServer.HttpServer, context)
  return address._tag === "TcpAddress" ? address.port : 0
})

interface RawExchange {
  /** Everything the server sent before it closed (or before the wait ran out). */
  readonly received: string
  /** Milliseconds from the first byte sent to the close; `undefined` when the connection was still open. */
  readonly closedAfterMs: number | undefined
}

/**
 * Writes `parts` on a raw socket, each after its delay, and keeps the socket open (never ending the request) until
 * the server closes it or `waitMs` passes.
 */
const rawExchange = (port: number, parts: ReadonlyArray<readonly [number, string]>, waitMs: number) =>
  Effect.promise(
    () =>
      new Promise<RawExchange>((resolve) => {
        const socket = connect(port, "127.0.0.1")
        let received = ""
        const start = Date.now()
        const timers: Array<NodeJS.Timeout> = []
        const finish = (closedAfterMs: number | undefined) => {
          for (const timer of timers) clearTimeout(timer)
          socket.destroy()
          resolve({ received, closedAfterMs })
        }
        socket.setEncoding("utf8")
        socket.on("data", (chunk: string) => {
          received += chunk
        })
        socket.on("error", () => {})
        socket.on("close", () => finish(Date.now() - start))
        socket.on("connect", () => {
          let at = 0
          for (const [delay, text] of parts) {
            at += delay
            timers.push(setTimeout(() => socket.write(text), at))
          }
          timers.push(setTimeout(() => finish(undefined), waitMs))
        })
      })
  )

const head = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`

describe("slow requests on the laned server", () => {
  it.scopedLive("cuts a body that stalls longer than the body-idle deadline", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      // Half the announced body, then nothing.
      const stalled = yield* rawExchange(port, [[0, `${head("/echo", 20)}{"half":`]], 5_000)
      expect(stalled.closedAfterMs).toBeDefined()
      expect(stalled.closedAfterMs).toBeGreaterThanOrEqual(timeouts.bodyIdleMs - 50)
      expect(stalled.closedAfterMs).toBeLessThan(timeouts.bodyIdleMs + 1_000)
      expect(stalled.received).not.toContain("200 OK")
    })
  )

  it.scopedLive("cuts a body that trickles in past the whole-request deadline, each pause under the idle one", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const drops = Array.from({ length: 40 }, () => [150, " "] as const)
      const trickled = yield* rawExchange(port, [[0, head("/echo", 100)], ...drops], 8_000)
      expect(trickled.closedAfterMs).toBeDefined()
      expect(trickled.closedAfterMs).toBeGreaterThanOrEqual(timeouts.requestMs - 50)
      expect(trickled.closedAfterMs).toBeLessThan(timeouts.requestMs + 1_500)
      expect(trickled.received).not.toContain("200 OK")
    })
  )

  it.scopedLive("gives a media upload its own longer deadline, and cuts it at that one", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      // 2.4 s of trickle: past the request deadline, within the upload one.
      const drops = Array.from({ length: 16 }, () => [150, " "] as const)
      const slow = yield* rawExchange(port, [[0, head("/v1/media", 16)], ...drops], 4_000)
      expect(slow.received).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\n16$/)
      const endless = Array.from({ length: 60 }, () => [150, " "] as const)
      const cut = yield* rawExchange(port, [[0, head("/v1/media", 100)], ...endless], 10_000)
      expect(cut.closedAfterMs).toBeDefined()
      expect(cut.closedAfterMs).toBeGreaterThanOrEqual((timeouts.uploadMs ?? 0) - 50)
      expect(cut.closedAfterMs).toBeLessThan((timeouts.uploadMs ?? 0) + 1_500)
      expect(cut.received).not.toContain("200 OK")
    })
  )

  it.scopedLive("answers 408 to headers that never end", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const slow = yield* rawExchange(port, [[0, "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n"]], 5_000)
      expect(slow.closedAfterMs).toBeDefined()
      expect(slow.closedAfterMs).toBeLessThan(timeouts.headersMs + 1_000)
      expect(slow.received).toContain("408")
    })
  )

  it.scopedLive("keeps a whole request that waits for a slow answer, and serves a prompt body in pieces", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const body = '{"ok":1}'
      const waited = yield* rawExchange(port, [[0, head("/slow", body.length) + body]], 1_500)
      expect(waited.received).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*done$/)
      const pieces = yield* rawExchange(
        port,
        [
          [0, `${head("/echo", 12)}{"a":`],
          [150, "1234"],
          [150, "5} "]
        ],
        1_000
      )
      expect(pieces.received).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\n12$/)
    })
  )
})
