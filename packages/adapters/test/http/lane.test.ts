import { connect } from "node:net"
import { gunzipSync } from "node:zlib"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FACES, sendVia, TestApp } from "../support/app.js"
import { mcpHeaders, mcpPost, rpc } from "./requests.js"

/** The real core with a 2 KiB body cap, so the caps are cheap to reach. */
const app = TestApp.layerWith({ settings: { maxBodyBytes: 2048 } })

/** Sends raw bytes on a fresh connection and answers what came back before the server closed it or `waitMs` passed. */
const raw = (url: string, bytes: string, options: { readonly waitMs: number; readonly abort?: boolean }) =>
  new Promise<string>((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    let answer = ""
    socket.setEncoding("latin1")
    socket.on("data", (chunk: string) => {
      answer += chunk
    })
    socket.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNRESET" ? resolve(answer) : reject(error)
    )
    socket.on("close", () => resolve(answer))
    socket.on("connect", () => {
      socket.write(bytes)
      if (options.abort === true) socket.destroy()
    })
    setTimeout(() => {
      socket.destroy()
      resolve(answer)
    }, options.waitMs)
  })

layer(app, { excludeTestServices: true, timeout: "60 seconds" })((it) => {
  for (const face of FACES) {
    describe(`tools/list compression (${face})`, () => {
      it.effect("gzips the cached tool list for a client that takes gzip, and says the answer varies with it", () =>
        Effect.gen(function* () {
          const testApp = yield* TestApp
          const { token } = yield* testApp.signUp()
          const send = sendVia(testApp, face)
          const list = (acceptEncoding: string | undefined, id: number | string) =>
            Effect.promise(async () => {
              const request = mcpPost(testApp.url, rpc("tools/list", {}, id), {
                token,
                headers: { "accept-encoding": acceptEncoding }
              })
              // fetch would add its own Accept-Encoding and undo the gzip; the raw bytes are what we check.
              const response = await (face === "platform router"
                ? send(request)
                : rawFetch(request, acceptEncoding === undefined ? "identity" : acceptEncoding))
              return {
                status: response.status,
                encoding: response.headers.get("content-encoding"),
                vary: response.headers.get("vary"),
                bytes: Buffer.from(await response.arrayBuffer())
              }
            })
          const plain = yield* list(undefined, 7)
          expect(plain.status).toBe(200)
          expect(plain.encoding).toBeNull()
          expect(plain.vary).toBe("accept-encoding")
          const answer = JSON.parse(plain.bytes.toString("utf8")) as { id: number; result: { tools: unknown[] } }
          expect(answer.id).toBe(7)
          expect(answer.result.tools.length).toBeGreaterThan(30)

          for (const header of ["gzip", "gzip, deflate, br", "deflate;q=0.5, GZIP;q=0.8", "*"]) {
            const zipped = yield* list(header, 7)
            expect(zipped.status).toBe(200)
            expect(zipped.encoding).toBe("gzip")
            expect(zipped.vary).toBe("accept-encoding")
            expect(zipped.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 3)
            expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true)
          }
          // Another id changes only the uncompressed head; the answer is still exact.
          const other = yield* list("gzip", "req-ü")
          expect(JSON.parse(gunzipSync(other.bytes).toString("utf8"))).toEqual({ ...answer, id: "req-ü" })

          for (const header of ["identity", "gzip;q=0", "br", "*, gzip;q=0"]) {
            const refused = yield* list(header, 7)
            expect(refused.encoding).toBeNull()
            expect(refused.bytes.equals(plain.bytes)).toBe(true)
          }
        })
      )
    })
  }

  describe("the node:http lane", () => {
    it.effect(
      "serves /mcp with a query string and percent-encoded tool names, and leaves other paths to the router",
      () =>
        Effect.gen(function* () {
          const { url, signUp } = yield* TestApp
          const { token } = yield* signUp()
          const status = (path: string, body?: unknown, headers: Record<string, string> = mcpHeaders(token)) =>
            Effect.promise(() =>
              fetch(
                `${url}${path}`,
                body === undefined ? {} : { method: "POST", headers, body: JSON.stringify(body) }
              ).then((response) => response.status)
            )
          expect(yield* status("/mcp?trace=1", rpc("ping"))).toBe(200)
          const note = { markdown: "# Lane\n\ntext" }
          expect(yield* status("/v1/tools/svc%5Fcreate%5Fnote", note)).toBe(200)
          // Left to the router, which answers as it always has (it ignores a trailing slash).
          expect(yield* status("/v1/tools/svc_create_note/", note)).toBe(200)
          expect(yield* status("/health")).toBe(200)
        })
    )

    it.effect("survives a client that goes away mid-body and a body far over the cap", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp()
        const head = (length: number) =>
          `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Length: ${length}\r\n\r\n`
        const gone = yield* Effect.promise(() =>
          raw(url, `${head(1000)}{"jsonrpc":"2.0",`, { waitMs: 300, abort: true })
        )
        expect(gone).toBe("")
        // Chunked, so nothing announces the size: the lane stops reading past twice the cap.
        const flood = `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nTransfer-Encoding: chunked\r\n\r\n${`1000\r\n${"x".repeat(4096)}\r\n`.repeat(4)}`
        const answered = yield* Effect.promise(() => raw(url, flood, { waitMs: 2000 }))
        expect(answered).toMatch(/^HTTP\/1\.1 413 /)
        const ping = yield* Effect.promise(() => fetch(mcpPost(url, rpc("ping"), { token })))
        expect(ping.status).toBe(200)
      })
    )
  })
})

/** A request sent with exactly this Accept-Encoding, its body handed back as it came (never decompressed). */
const rawFetch = (request: Request, acceptEncoding: string) =>
  Effect.runPromise(
    Effect.promise(async () => {
      const url = new URL(request.url)
      const body = await request.text()
      const headers = [...request.headers.entries()]
        .filter(([name]) => name !== "accept-encoding")
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("")
      const answer = await raw(
        request.url,
        `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\nAccept-Encoding: ${acceptEncoding}\r\n` +
          `${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        { waitMs: 5000 }
      )
      const bytes = Buffer.from(answer, "latin1")
      const end = bytes.indexOf("\r\n\r\n")
      const [statusLine = "", ...headerLines] = bytes.subarray(0, end).toString("latin1").split("\r\n")
      const responseHeaders = new Headers(
        headerLines.map((line): [string, string] => {
          const colon = line.indexOf(":")
          return [line.slice(0, colon), line.slice(colon + 1).trim()]
        })
      )
      const status = Number(statusLine.split(" ")[1])
      return new Response(bytes.subarray(end + 4), { status, headers: responseHeaders })
    })
  )
