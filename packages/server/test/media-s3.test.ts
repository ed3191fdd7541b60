import { createHash } from "node:crypto"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mp4Head, png, zip } from "../../adapters/test/media/fixtures.js"
import { engineName, freshDatabase } from "./support/environment.js"
import { mediaToolCaller } from "./support/media-tools.js"
import { type S3Peer, startS3Peer } from "./support/s3-peer.js"
import { type RunningServer, startServer } from "./support/server-process.js"

const MB = 1024 * 1024

let peer: S3Peer
let server: RunningServer
let dispose = async () => {}

beforeAll(async () => {
  peer = await startS3Peer()
  const database = await freshDatabase()
  dispose = database.dispose
  server = await startServer({ ...database.env, ...peer.env })
}, 90_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await dispose()
  await peer?.stop()
})

const token = () => /svc_pat_[0-9A-Za-z]{36}/.exec(server.output())?.[0] ?? ""

const callTool = mediaToolCaller(() => server.baseUrl, token)

/** The object keys s3rver holds in the bucket (its filesystem store names each object's file after its key). */
const objectKeys = () =>
  readdirSync(join(peer.directory, peer.bucket), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith("._S3rver_object"))
    .map((entry) => join(entry.parentPath, entry.name).slice(join(peer.directory, peer.bucket).length + 1))
    .map((file) => file.replace(/\._S3rver_object$/, ""))

const prepareAndPut = async (bytes: Uint8Array, fileName: string) => {
  const prepared = await callTool("svc_prepare_scheduling_media_upload", { fileName })
  expect(prepared.status).toBe(200)
  const { url, uploadId, mediaId } = prepared.body.upload
  expect(url.startsWith(`${peer.endpoint}/${peer.bucket}/uploads/${uploadId}?`)).toBe(true)
  expect(url).toContain("X-Amz-Signature=")
  const put = await fetch(url, { method: "PUT", body: bytes })
  expect(put.status).toBe(200)
  return { uploadId: uploadId as string, mediaId: mediaId as string }
}

describe(`the S3 media store against s3rver (${engineName})`, { timeout: 180_000 }, () => {
  it("a presigned PUT straight to the bucket, then complete: checked, moved to the asset's key", async () => {
    const bytes = await png(300, 200)
    const { uploadId, mediaId } = await prepareAndPut(bytes, "poster.png")
    expect(objectKeys()).toContain(`uploads/${uploadId}`)
    const completed = await callTool("svc_scheduling_media_multipart", { action: "complete", uploadId })
    expect(completed.status).toBe(200)
    expect(completed.body.media).toMatchObject({
      id: mediaId,
      kind: "image",
      width: 300,
      height: 200,
      bytes: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      thumbnail: { width: 300, height: 200 }
    })
    const keys = objectKeys()
    expect(keys).not.toContain(`uploads/${uploadId}`)
    expect(keys.some((key) => key.endsWith(`/${mediaId}`))).toBe(true)
    expect(keys.some((key) => key.endsWith(`/${mediaId}.thumb`))).toBe(true)
  })

  it("a presigned PUT with no complete is checked when a post first names it", async () => {
    const bytes = await png(64, 48)
    const { uploadId, mediaId } = await prepareAndPut(bytes, "first-use.png")
    const draft = await callTool("svc_schedule_post", {
      text: "With a picture",
      platforms: ["feed"],
      draft: true,
      media: [{ id: mediaId }]
    })
    expect(draft.status, JSON.stringify(draft.body)).toBe(200)
    expect(objectKeys()).not.toContain(`uploads/${uploadId}`)
    expect(objectKeys().some((key) => key.endsWith(`/${mediaId}`))).toBe(true)
    // Now ready: completing it answers the asset as it is.
    const completed = await callTool("svc_scheduling_media_multipart", { action: "complete", uploadId })
    expect(completed.body.media).toMatchObject({ id: mediaId, width: 64, height: 48 })
  })

  it("a 60 MB video in parts through presigned part URLs, then complete", async () => {
    const total = 60 * MB
    const started = await callTool("svc_scheduling_media_multipart", {
      action: "start",
      fileName: "talk.mp4",
      bytes: total
    })
    expect(started.status).toBe(200)
    const { uploadId, mediaId, parts, partBytes, partCount } = started.body.upload
    expect(partCount).toBe(8)
    const file = new Uint8Array(total)
    file.set(mp4Head())
    for (let at = 4096; at < total; at += 4096) file[at] = at % 251
    const sent: Array<{ partNumber: number; etag: string }> = []
    for (const { partNumber, url } of parts as ReadonlyArray<{ partNumber: number; url: string }>) {
      expect(url).toContain(`partNumber=${partNumber}`)
      const put = await fetch(url, {
        method: "PUT",
        body: file.subarray((partNumber - 1) * partBytes, partNumber * partBytes)
      })
      expect(put.status).toBe(200)
      sent.push({ partNumber, etag: put.headers.get("etag") ?? "" })
    }
    const completed = await callTool("svc_scheduling_media_multipart", { action: "complete", uploadId, parts: sent })
    expect(completed.status).toBe(200)
    expect(completed.body.media).toMatchObject({
      id: mediaId,
      kind: "video",
      mimeType: "video/mp4",
      bytes: total,
      fileName: "talk.mp4",
      sha256: createHash("sha256").update(file).digest("hex"),
      width: null,
      thumbnail: null
    })
    const again = await callTool("svc_scheduling_media_multipart", { action: "complete", uploadId, parts: sent })
    expect(again.status).toBe(409)
  })

  it("an object that fails the checks is deleted: a zip, and a file over 100 MB", async () => {
    const archive = await prepareAndPut(zip(), "photo.png")
    const refused = await callTool("svc_scheduling_media_multipart", { action: "complete", uploadId: archive.uploadId })
    expect(refused.status).toBe(422)
    expect(refused.body.message).toContain("application/zip")
    expect(objectKeys()).not.toContain(`uploads/${archive.uploadId}`)

    const big = new Uint8Array(100 * MB + 1)
    big.set(mp4Head())
    const oversize = await prepareAndPut(big, "long.mp4")
    const tooLarge = await callTool("svc_scheduling_media_multipart", {
      action: "complete",
      uploadId: oversize.uploadId
    })
    expect(tooLarge.status).toBe(422)
    expect(tooLarge.body.message).toContain("100 MB")
    expect(objectKeys()).not.toContain(`uploads/${oversize.uploadId}`)
  })
})
