import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { mp4Head, png, zip } from "../../adapters/test/media/fixtures.js"
import { engineName } from "./support/environment.js"
import { type MediaToolAnswer, mediaToolCaller } from "./support/media-tools.js"
import { useServer } from "./support/server-fixture.js"

const mediaDir = mkdtempSync(join(tmpdir(), "svc-media-serve-"))
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }))

const fixture = useServer({ SVC_MEDIA_DIR: mediaDir })
const MB = 1024 * 1024

const token = () => /svc_pat_[0-9A-Za-z]{36}/.exec(fixture.server.output())?.[0] ?? ""
const auth = () => ({ Authorization: `Bearer ${token()}` })

const postFile = (bytes: Uint8Array, fileName: string, type: string, fields: Record<string, string> = {}) => {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  form.append("file", new Blob([bytes], { type }), fileName)
  return fetch(`${fixture.server.baseUrl}/v1/media`, { method: "POST", headers: auth(), body: form })
}

const callTool = mediaToolCaller(() => fixture.server.baseUrl, token)

const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()

/** Sends only the head of `POST /v1/media`, declaring `length` bytes to come; answers the first line of the answer. */
const headOnly = (baseUrl: string, token: string, length: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        `POST /v1/media HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${length}\r\n\r\n`
      )
    )
    socket.once("data", (data: Buffer) => {
      socket.destroy()
      resolve(data.toString("latin1").split("\r\n")[0] ?? "")
    })
    socket.once("error", reject)
    setTimeout(() => {
      socket.destroy()
      reject(new Error("no answer to a declared length over the limit"))
    }, 10_000)
  })

/**
 * Sends `POST /v1/media` by hand, chunked (no length declared up front), with one file part of `fileBytes` that
 * starts with `head`, but stops sending after `sendAtMost` of the file's bytes and waits: a server that reads as it
 * goes answers then, one that holds the whole body first never does. Answers the status and the file bytes sent.
 */
const sendUntilAnswered = (
  baseUrl: string,
  token: string,
  head: Uint8Array,
  fileBytes: number,
  sendAtMost: number
): Promise<{ readonly status: number; readonly sent: number; readonly body: string }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const boundary = "svc-media-test-boundary"
    const socket = connect(Number(port), hostname)
    let sent = 0
    let answer = ""
    const deadline = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer after ${sent} bytes of the file: the server waits for the whole body`))
    }, 20_000)
    const chunked = (bytes: Uint8Array) =>
      Buffer.concat([Buffer.from(`${bytes.byteLength.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
    socket.on("data", (data: Buffer) => {
      answer += data.toString("latin1")
      const [head = "", body = ""] = answer.split("\r\n\r\n")
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? Number.NaN)
      if (body.length >= length) {
        clearTimeout(deadline)
        socket.destroy()
        resolve({ status: Number(head.split(" ")[1]), sent, body })
      }
    })
    socket.on("error", (error) => {
      clearTimeout(deadline)
      reject(error)
    })
    socket.on("connect", () => {
      socket.write(
        `POST /v1/media HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`
      )
      socket.write(
        chunked(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`
          )
        )
      )
      const more = () => {
        while (sent < Math.min(sendAtMost, fileBytes)) {
          const chunk = new Uint8Array(Math.min(64 * 1024, fileBytes - sent))
          if (sent === 0) chunk.set(head)
          sent += chunk.byteLength
          if (!socket.write(chunked(chunk))) {
            socket.once("drain", more)
            return
          }
        }
        // The whole file only when `sendAtMost` allows it; else the rest is held back.
        if (sent >= fileBytes) {
          socket.write(chunked(Buffer.from(`\r\n--${boundary}--\r\n`)))
          socket.write("0\r\n\r\n")
        }
      }
      more()
    })
  })

/**
 * The status a server answers to a PUT of `bytes` zero bytes that it may refuse before reading them: the answer is
 * read even when the server closes the connection while the body is still being written (fetch would fail then).
 */
const refusedStatus = (url: string, bytes: number) =>
  new Promise<number>((resolve, reject) => {
    // Only the headers go out: a refusal from the declared length must come without the body, and with no body being
    // written, a server closing the connection after its answer cannot fail the request (EPIPE) before it is read.
    const put = httpRequest(url, { method: "PUT", headers: { "content-length": String(bytes) } }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
      put.destroy()
    })
    const timer = setTimeout(() => reject(new Error("no answer to the headers alone within 10 s")), 10_000)
    put.on("close", () => clearTimeout(timer))
    put.on("error", (error) => {
      if (!put.destroyed) reject(error)
    })
    put.flushHeaders()
  })

describe(`POST /v1/media and upload URLs on svc serve (${engineName})`, { timeout: 180_000 }, () => {
  it("stores a PNG: its dimensions, a thumbnail, the asset as the tools answer it", async () => {
    const bytes = await png(800, 600)
    const response = await postFile(bytes, "sunset.png", "image/png")
    expect(response.status).toBe(200)
    const { ok, media } = (await response.json()) as MediaToolAnswer
    expect(ok).toBe(true)
    expect(media).toMatchObject({
      kind: "image",
      mimeType: "image/png",
      bytes: bytes.byteLength,
      width: 800,
      height: 600,
      fileName: "sunset.png",
      thumbnail: { mimeType: "image/webp", width: 320, height: 240 }
    })
    expect(media.id).toMatch(/^med_/)
    expect(typeof media.createdAt).toBe("string")
  })

  it("refuses a zip whose name and declared type say PNG (415), and a body with no file part (400)", async () => {
    const refused = await postFile(zip(), "photo.png", "image/png")
    expect(refused.status).toBe(415)
    expect(await refused.json()).toMatchObject({ ok: false, status: "invalid" })
    const form = new FormData()
    form.append("workspace_id", "ws_whatever")
    const empty = await fetch(`${fixture.server.baseUrl}/v1/media`, { method: "POST", headers: auth(), body: form })
    expect(empty.status).toBe(400)
    const anonymous = await fetch(`${fixture.server.baseUrl}/v1/media`, { method: "POST", body: new FormData() })
    expect(anonymous.status).toBe(401)
  })

  it("refuses 101 MB with 413 while it streams: it answers before the rest is sent, and keeps nothing", async () => {
    const kept = filesIn(mediaDir)
    // 101 MB in the making, held back just past 100 MB: the answer must come without the rest.
    const answer = await sendUntilAnswered(fixture.server.baseUrl, token(), mp4Head(), 101 * MB, 100 * MB + 256 * 1024)
    expect(answer.status).toBe(413)
    expect(answer.sent).toBeLessThan(101 * MB)
    expect(JSON.parse(answer.body)).toMatchObject({
      ok: false,
      status: "invalid",
      message: "a media file is at most 100 MB"
    })
    expect(filesIn(mediaDir)).toEqual(kept)
    // A length declared over the limit is refused before any of the body is read.
    expect(await headOnly(fixture.server.baseUrl, token(), 101 * MB)).toMatch(/^HTTP\/1\.1 413 /)
  })

  it("a prepared upload URL takes one PUT, before its expiry; a URL changed in any way is refused", async () => {
    const prepared = await callTool("svc_prepare_scheduling_media_upload", { fileName: "cover.png" })
    expect(prepared.status).toBe(200)
    const { url, mediaId, method } = prepared.body.upload
    expect(method).toBe("PUT")
    expect(url).toMatch(new RegExp(`^${fixture.server.baseUrl}/v1/media/uploads/mup_`))
    const bytes = await png(100, 50)
    const tampered = url.replace(/expires=(\d+)/, (_: string, s: string) => `expires=${Number(s) + 3600}`)
    expect((await fetch(tampered, { method: "PUT", body: bytes })).status).toBe(403)
    const put = await fetch(url, { method: "PUT", body: bytes })
    expect(put.status).toBe(200)
    expect(await put.json()).toMatchObject({
      ok: true,
      media: { id: mediaId, width: 100, height: 50, fileName: "cover.png" }
    })
    const again = await fetch(url, { method: "PUT", body: bytes })
    expect(again.status).toBe(409)
    expect(await again.json()).toMatchObject({ ok: false, status: "conflict" })
    // The same asset, asked for again through complete, is answered as it is.
    const completed = await callTool("svc_scheduling_media_multipart", {
      action: "complete",
      uploadId: prepared.body.upload.uploadId
    })
    expect(completed.body).toMatchObject({ ok: true, media: { id: mediaId } })
  })

  it("a file in parts: start, PUT each part to its URL, complete", async () => {
    const total = 17 * MB + 123
    const started = await callTool("svc_scheduling_media_multipart", {
      action: "start",
      fileName: "clip.mp4",
      bytes: total
    })
    expect(started.status).toBe(200)
    const { uploadId, parts, partBytes, partCount } = started.body.upload
    expect(partCount).toBe(3)
    const file = new Uint8Array(total)
    file.set(mp4Head())
    // A part over 8 MB is refused (from its declared length) and its URL still works after.
    expect(await refusedStatus(parts[0]?.url ?? "", partBytes + 1)).toBe(413)
    for (const { partNumber, url } of parts as ReadonlyArray<{ partNumber: number; url: string }>) {
      const put = await fetch(url, {
        method: "PUT",
        body: file.subarray((partNumber - 1) * partBytes, partNumber * partBytes)
      })
      expect(put.status).toBe(200)
    }
    const completed = await callTool("svc_scheduling_media_multipart", { action: "complete", uploadId })
    expect(completed.status).toBe(200)
    expect(completed.body.media).toMatchObject({
      kind: "video",
      mimeType: "video/mp4",
      bytes: total,
      fileName: "clip.mp4"
    })
  })

  it("small files inline as base64, capped and checked like the rest", async () => {
    const bytes = await png(10, 20)
    const uploaded = await callTool("svc_upload_scheduling_media", {
      data: Buffer.from(bytes).toString("base64"),
      fileName: "dot.png"
    })
    expect(uploaded.status).toBe(200)
    expect(uploaded.body.media).toMatchObject({ width: 10, height: 20, mimeType: "image/png" })
    const refused = await callTool("svc_upload_scheduling_media", { data: Buffer.from(zip()).toString("base64") })
    expect(refused.status).toBe(422)
    expect(refused.body.errors[0]?.path).toBe("data")
  })
})
