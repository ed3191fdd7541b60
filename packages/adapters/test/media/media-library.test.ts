import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, layer } from "@effect/vitest"
import { MEDIA_MAX_BYTES, MediaLibrary, MULTIPART_PART_BYTES, UPLOAD_PURGE_GRACE_MS } from "@svc/core/media"
import { Duration, Effect, Either, Stream, TestClock } from "effect"
import { mediaLayer } from "../../src/media/index.js"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { generated, mp4Head, png, zip } from "./fixtures.js"

const directory = mkdtempSync(join(tmpdir(), "svc-media-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const media = mediaLayer({ store: "filesystem", directory, publicBase: "http://svc.test" })

/** Every file under the store's directory, relative to it. */
const filesInStore = () =>
  readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))

const once = (bytes: Uint8Array) => Stream.make(bytes)

layer(testCoreLayer(media), { timeout: "120 seconds" })(
  `MediaLibrary on the filesystem store (${engineName})`,
  (it) => {
    it.effect("stores a PNG with its dimensions, a thumbnail and its SHA-256", () =>
      Effect.gen(function* () {
        const { workspace } = yield* signUp()
        const library = yield* MediaLibrary
        const bytes = yield* Effect.promise(() => png(640, 480))
        const asset = yield* library.upload(workspace.id, { fileName: "../../cat.png", body: once(bytes) })
        expect(asset).toMatchObject({
          kind: "image",
          mimeType: "image/png",
          bytes: bytes.byteLength,
          width: 640,
          height: 480
        })
        expect(asset.fileName).toBe("cat.png")
        expect(asset.sha256).toBe(createHash("sha256").update(bytes).digest("hex"))
        expect(asset.thumbnail).toMatchObject({ mimeType: "image/webp", width: 320, height: 240 })
        expect(readFileSync(join(directory, workspace.id, asset.id))).toEqual(Buffer.from(bytes))
        expect(yield* library.read(asset)).toEqual(bytes)
        expect(yield* library.findReady(workspace.id, [asset.id])).toEqual([asset])
      })
    )

    it.effect("refuses a zip named .png from its bytes, and leaves nothing behind", () =>
      Effect.gen(function* () {
        const { workspace } = yield* signUp()
        const before = filesInStore()
        const refused = yield* Effect.flip(
          (yield* MediaLibrary).upload(workspace.id, { fileName: "photo.png", body: once(zip()) })
        )
        expect(refused).toMatchObject({ _tag: "MediaTypeRefused", detected: "application/zip" })
        expect(filesInStore()).toEqual(before)
      })
    )

    it.effect("refuses a 101 MB file as it streams: reading stops just past 100 MB", () =>
      Effect.gen(function* () {
        const { workspace } = yield* signUp()
        const source = generated(mp4Head(), 101 * 1024 * 1024)
        const body = Stream.orDie(Stream.fromAsyncIterable(source.bytes(), (e) => e))
        const refused = yield* Effect.flip((yield* MediaLibrary).upload(workspace.id, { fileName: "big.mp4", body }))
        expect(refused._tag).toBe("MediaTooLarge")
        expect(source.pulled()).toBeGreaterThan(MEDIA_MAX_BYTES)
        expect(source.pulled()).toBeLessThanOrEqual(MEDIA_MAX_BYTES + 64 * 1024)
        expect(filesInStore().filter((file) => file.startsWith(workspace.id))).toEqual([])
      })
    )

    it.effect("a prepared upload is received once, before its expiry, then ready", () =>
      Effect.gen(function* () {
        const { workspace } = yield* signUp()
        const library = yield* MediaLibrary
        const prepared = yield* library.prepare(workspace.id, { fileName: "clip.png" })
        expect(prepared.url).toMatch(
          new RegExp(`^http://svc\\.test/v1/media/uploads/${prepared.upload.id}\\?expires=\\d+&signature=[\\w-]+$`)
        )
        // Not ready before its bytes arrive.
        const early = yield* Effect.flip(library.findReady(workspace.id, [prepared.upload.mediaId]))
        expect(early).toMatchObject({ _tag: "NotFound" })
        const bytes = yield* Effect.promise(() => png(32, 16))
        const asset = yield* library.receive(prepared.upload.id, once(bytes))
        expect(asset).toMatchObject({ id: prepared.upload.mediaId, width: 32, height: 16, fileName: "clip.png" })
        expect(yield* library.findReady(workspace.id, [asset.id])).toEqual([asset])
        const again = yield* Effect.flip(library.receive(prepared.upload.id, once(bytes)))
        expect(again).toMatchObject({ _tag: "Conflict" })
      })
    )

    it.effect("an expired upload URL is refused", () =>
      Effect.gen(function* () {
        const { workspace } = yield* signUp()
        const library = yield* MediaLibrary
        const prepared = yield* library.prepare(workspace.id, {})
        yield* TestClock.adjust(Duration.minutes(15))
        const refused = yield* Effect.flip(
          library.receive(prepared.upload.id, once(yield* Effect.promise(() => png(4, 4))))
        )
        expect(refused).toMatchObject({ _tag: "Forbidden" })
        expect(refused.message).toContain("expired")
      })
    )

    it.effect("a failed upload spends its URL: a type refused, then the right file refused as used", () =>
      Effect.gen(function* () {
        const { workspace } = yield* signUp()
        const library = yield* MediaLibrary
        const prepared = yield* library.prepare(workspace.id, {})
        expect((yield* Effect.flip(library.receive(prepared.upload.id, once(zip()))))._tag).toBe("MediaTypeRefused")
        const retried = yield* Effect.flip(
          library.receive(prepared.upload.id, once(yield* Effect.promise(() => png(4, 4))))
        )
        expect(retried._tag).toBe("Conflict")
        expect(yield* Effect.either(library.findReady(workspace.id, [prepared.upload.mediaId]))).toSatisfy(
          Either.isLeft
        )
      })
    )

    it.effect("findReady answers in the order asked, and names the first id not ready in this workspace", () =>
      Effect.gen(function* () {
        const library = yield* MediaLibrary
        const mine = yield* signUp()
        const theirs = yield* signUp()
        const bytes = yield* Effect.promise(() => png(8, 8))
        const a = yield* library.upload(mine.workspace.id, { fileName: "a.png", body: once(bytes) })
        const b = yield* library.upload(mine.workspace.id, { fileName: "b.png", body: once(bytes) })
        const other = yield* library.upload(theirs.workspace.id, { fileName: "c.png", body: once(bytes) })
        expect((yield* library.findReady(mine.workspace.id, [b.id, a.id])).map((asset) => asset.id)).toEqual([
          b.id,
          a.id
        ])
        const refused = yield* Effect.flip(library.findReady(mine.workspace.id, [a.id, other.id, "med_nope"]))
        expect(refused._tag).toBe("NotFound")
        expect(refused.message).toContain(other.id)
      })
    )

    it.effect("a multipart upload: parts of 8 MB at most, completed into one checked video", () =>
      Effect.gen(function* () {
        const { workspace } = yield* signUp()
        const library = yield* MediaLibrary
        const total = 2 * MULTIPART_PART_BYTES + 1000
        const started = yield* library.startMultipart(workspace.id, { fileName: "clip.mp4", bytes: total })
        expect(started.parts.map((part) => part.partNumber)).toEqual([1, 2, 3])
        expect(started.parts[1]?.url).toContain(`/v1/media/uploads/${started.upload.id}/parts/2?expires=`)
        const file = new Uint8Array(total)
        file.set(mp4Head())
        const part = (n: number) => file.subarray((n - 1) * MULTIPART_PART_BYTES, n * MULTIPART_PART_BYTES)
        // A part over 8 MB is refused as it streams.
        const oversize = yield* Effect.flip(
          library.receivePart(started.upload.id, 1, once(new Uint8Array(MULTIPART_PART_BYTES + 1)))
        )
        expect(oversize._tag).toBe("MediaTooLarge")
        yield* library.receivePart(started.upload.id, 1, once(part(1)))
        yield* library.receivePart(started.upload.id, 3, once(part(3)))
        const early = yield* Effect.flip(library.completeMultipart(workspace.id, started.upload.id))
        expect(early).toMatchObject({ _tag: "InvalidInput" })
        expect(early.message).toContain("parts 2 never arrived")
        yield* library.receivePart(started.upload.id, 2, once(part(2)))
        const asset = yield* library.completeMultipart(workspace.id, started.upload.id)
        expect(asset).toMatchObject({ id: started.upload.mediaId, kind: "video", mimeType: "video/mp4", bytes: total })
        expect(asset.sha256).toBe(createHash("sha256").update(file).digest("hex"))
        expect(filesInStore().filter((f) => f.startsWith("uploads/"))).toEqual([])
      })
    )

    it.effect("the purge deletes what an abandoned upload left, an hour after it expired, and keeps assets", () =>
      Effect.gen(function* () {
        const { workspace } = yield* signUp()
        const library = yield* MediaLibrary
        const kept = yield* library.prepare(workspace.id, { fileName: "kept.png" })
        const asset = yield* library.receive(kept.upload.id, once(yield* Effect.promise(() => png(6, 6))))
        const started = yield* library.startMultipart(workspace.id, { bytes: 3 * MULTIPART_PART_BYTES })
        yield* library.receivePart(started.upload.id, 1, once(mp4Head()))
        const leftovers = () => filesInStore().filter((f) => f.startsWith(`uploads/${started.upload.id}`))
        expect(leftovers()).toHaveLength(1)
        yield* library.purgeExpired
        expect(leftovers()).toHaveLength(1)
        const expiresIn = started.upload.expiresAt.getTime() - started.upload.createdAt.getTime()
        yield* TestClock.adjust(Duration.millis(expiresIn + UPLOAD_PURGE_GRACE_MS + 1))
        expect(yield* library.purgeExpired).toBeGreaterThanOrEqual(1)
        expect(leftovers()).toEqual([])
        expect(existsSync(join(directory, "uploads", `${started.upload.id}.parts`))).toBe(false)
        const gone = yield* Effect.flip(library.completeMultipart(workspace.id, started.upload.id))
        expect(gone._tag).toBe("NotFound")
        // A finished upload's asset stays, bytes and all.
        expect(yield* library.findReady(workspace.id, [asset.id])).toEqual([asset])
        expect((yield* library.read(asset)).byteLength).toBe(asset.bytes)
      })
    )
  }
)
