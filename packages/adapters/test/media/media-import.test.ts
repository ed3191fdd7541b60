import * as http from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, layer } from "@effect/vitest"
import { MediaLibrary } from "@svc/core/media"
import { ToolServer } from "@svc/core/tools"
import { Effect } from "effect"
import { mediaLayer } from "../../src/media/index.js"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { mp4Head, png } from "./fixtures.js"

const directory = mkdtempSync(join(tmpdir(), "svc-media-import-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

// The test core's importer admits loopback files (support/core.ts), as SVC_WEBHOOKS_ALLOW_LOOPBACK does.
const media = mediaLayer({ store: "filesystem", directory, publicBase: "http://svc.test" })

const MB = 1024 * 1024
// Twice the limit, so that what sits in the sockets' buffers when the reader stops cannot hold the rest.
const BIG = 200 * MB

/** A loopback server: `/photo.png`, a redirect, an error, and a 200 MB video sent as long as it is read. */
const serve = Effect.acquireRelease(
  Effect.promise(async () => {
    const image = await png(120, 90)
    let bigSent = 0
    let bigClosedEarly = false
    const server = http.createServer((request, response) => {
      switch (request.url) {
        case "/media/photo.png":
          response.writeHead(200, { "content-type": "image/png" }).end(image)
          return
        case "/moved":
          response.writeHead(302, { location: "/media/photo.png" }).end()
          return
        case "/broken":
          response.writeHead(500).end("no")
          return
        case "/declared-big":
          response.writeHead(200, { "content-length": String(101 * MB) })
          response.write(mp4Head())
          return
        case "/big.mp4": {
          response.writeHead(200, { "content-type": "video/mp4" })
          response.on("close", () => {
            bigClosedEarly = bigSent < BIG
          })
          const more = () => {
            while (bigSent < BIG && !response.destroyed) {
              const chunk = new Uint8Array(64 * 1024)
              if (bigSent === 0) chunk.set(mp4Head())
              bigSent += chunk.byteLength
              if (!response.write(chunk)) return void response.once("drain", more)
            }
            response.end()
          }
          more()
          return
        }
        default:
          response.writeHead(404).end()
      }
    })
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
    return {
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      image,
      big: () => ({ sent: bigSent, closedEarly: bigClosedEarly }),
      server
    }
  }),
  ({ server }) =>
    Effect.promise(
      () =>
        new Promise<void>((done) => {
          server.closeAllConnections()
          server.close(() => done())
        })
    )
)

layer(testCoreLayer(media), { timeout: "120 seconds" })(`importing media from a URL (${engineName})`, (it) => {
  it.scoped("fetches a file and stores it like an upload, named after the URL", () =>
    Effect.gen(function* () {
      const site = yield* serve
      const { workspace } = yield* signUp()
      const asset = yield* (yield* MediaLibrary).importUrl(workspace.id, { url: `${site.base}/media/photo.png` })
      expect(asset).toMatchObject({ mimeType: "image/png", width: 120, height: 90, fileName: "photo.png" })
      expect(asset.bytes).toBe(site.image.byteLength)
    })
  )

  it.scoped("follows no redirect, and says what an error status or an address it will not reach was", () =>
    Effect.gen(function* () {
      const site = yield* serve
      const { workspace } = yield* signUp()
      const library = yield* MediaLibrary
      const moved = yield* Effect.flip(library.importUrl(workspace.id, { url: `${site.base}/moved` }))
      expect(moved).toMatchObject({ _tag: "MediaUrlRefused" })
      expect(moved.message).toContain("redirects")
      expect(yield* Effect.flip(library.importUrl(workspace.id, { url: `${site.base}/broken` }))).toMatchObject({
        _tag: "Unreachable"
      })
      // Loopback is allowed here; a private address is not, nor plain http elsewhere.
      const internal = yield* Effect.flip(library.importUrl(workspace.id, { url: "https://10.1.2.3/a.png" }))
      expect(internal).toMatchObject({ _tag: "MediaUrlRefused" })
      const plain = yield* Effect.flip(library.importUrl(workspace.id, { url: "http://example.com/a.png" }))
      expect(plain.message).toContain("https://")
    })
  )

  it.scoped("stops downloading past 100 MB, and refuses a declared length over it without reading", () =>
    Effect.gen(function* () {
      const site = yield* serve
      const { workspace } = yield* signUp()
      const library = yield* MediaLibrary
      const big = yield* Effect.flip(library.importUrl(workspace.id, { url: `${site.base}/big.mp4` }))
      expect(big._tag).toBe("MediaTooLarge")
      // The socket closes as the refusal unwinds; a moment of real time for the server to see it.
      yield* Effect.promise(() => new Promise((done) => setTimeout(done, 200)))
      expect(site.big().closedEarly).toBe(true)
      expect(site.big().sent).toBeLessThan(BIG)
      const declared = yield* Effect.flip(library.importUrl(workspace.id, { url: `${site.base}/declared-big` }))
      expect(declared._tag).toBe("MediaTooLarge")
    })
  )

  it.scoped("the tool answers a refused URL as invalid input on url", () =>
    Effect.gen(function* () {
      const site = yield* serve
      const { principal } = yield* signUp()
      const answer = yield* (yield* ToolServer).call(principal, "svc_import_scheduling_media", {
        url: `${site.base}/moved`
      })
      expect(answer).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "url" }] })
      const stored = yield* (yield* ToolServer).call(principal, "svc_import_scheduling_media", {
        url: `${site.base}/media/photo.png`,
        fileName: "cover.png"
      })
      expect(stored).toMatchObject({ ok: true, media: { fileName: "cover.png", width: 120 } })
    })
  )
})
