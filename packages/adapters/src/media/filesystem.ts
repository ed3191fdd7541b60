import { randomBytes } from "node:crypto"
import { createReadStream, promises as fs } from "node:fs"
import * as path from "node:path"
import { MediaBlobs, MissingParts, type MediaUpload, type StoredBlob } from "@svc/core/media"
import { Effect, Layer, Option, Stream } from "effect"
import { MediaStoreSettings } from "./settings.js"
import { fromReadable, makeTally } from "./streams.js"
import { MediaUploadSigner } from "./upload-signer.js"

/** The path of the upload URL this server receives a whole file at. */
export const uploadPath = (uploadId: string) => `/v1/media/uploads/${encodeURIComponent(uploadId)}`

/** The path of the upload URL of one part. */
export const partPath = (uploadId: string, partNumber: number) => `${uploadPath(uploadId)}/parts/${partNumber}`

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9_./-]*$/

const isMissing = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT"

/**
 * `MediaBlobs` in a directory: a blob is written to a temporary name beside its place and renamed there once whole,
 * so a reader never sees half a file. Upload URLs point at this server (`/v1/media/uploads/…`), signed with
 * `MediaUploadSigner`; the server streams what it receives through the same checks as a direct upload.
 */
export const MediaFilesystemLive = Layer.effect(
  MediaBlobs,
  Effect.gen(function* () {
    const settings = yield* MediaStoreSettings
    const signer = yield* MediaUploadSigner
    const root = path.resolve(settings.directory)

    const pathOf = (key: string) => {
      // Keys are made by the core from ids; a key that could climb out of the directory is a bug.
      if (!KEY.test(key) || key.split("/").includes("..")) throw new Error(`not a media key: ${key}`)
      return path.join(root, key)
    }
    const partsDir = (upload: MediaUpload) => `${upload.storageKey}.parts`
    const partKey = (upload: MediaUpload, partNumber: number) =>
      `${partsDir(upload)}/${String(partNumber).padStart(5, "0")}`

    const put = <E>(key: string, body: Stream.Stream<Uint8Array, E>): Effect.Effect<StoredBlob, E> =>
      Effect.gen(function* () {
        const target = pathOf(key)
        const temporary = `${target}.${randomBytes(6).toString("hex")}.tmp`
        yield* Effect.promise(() => fs.mkdir(path.dirname(target), { recursive: true }))
        const tally = makeTally()
        return yield* Effect.acquireUseRelease(
          Effect.promise(() => fs.open(temporary, "wx")),
          (file) =>
            Stream.runForEach(body, (chunk) =>
              Effect.promise(() => {
                tally.add(chunk)
                return file.write(chunk)
              })
            ).pipe(
              Effect.zipRight(Effect.promise(() => file.close())),
              Effect.zipRight(Effect.promise(() => fs.rename(temporary, target))),
              Effect.map(tally.done)
            ),
          // After a rename the temporary name is gone; after a failure this removes what was written.
          (file) =>
            Effect.promise(() => file.close().catch(() => undefined)).pipe(
              Effect.zipRight(Effect.promise(() => fs.rm(temporary, { force: true })))
            )
        )
      })

    const open = (key: string) => fromReadable(() => createReadStream(pathOf(key)))

    const size = (key: string) =>
      Effect.promise(() =>
        fs.stat(pathOf(key)).then(
          (stat) => Option.some(stat.size),
          (error) => (isMissing(error) ? Option.none<number>() : Promise.reject(error))
        )
      )

    const urlOf = (uploadId: string, partNumber: number, expiresAt: Date) =>
      Effect.gen(function* () {
        const expires = Math.floor(expiresAt.getTime() / 1000)
        const signature = yield* signer.sign({ uploadId, partNumber, expires })
        const where = partNumber === 0 ? uploadPath(uploadId) : partPath(uploadId, partNumber)
        return `${settings.publicBase}${where}?expires=${expires}&signature=${signature}`
      })

    const remove = (keys: ReadonlyArray<string>) =>
      Effect.forEach(keys, (key) => Effect.promise(() => fs.rm(pathOf(key), { force: true, recursive: true })), {
        discard: true
      })

    return {
      receivesUploads: true,
      put,
      open,
      size,
      readStart: (key, length) =>
        Effect.acquireUseRelease(
          Effect.promise(() => fs.open(pathOf(key), "r")),
          (file) =>
            Effect.promise(async () => {
              const buffer = new Uint8Array(length)
              const { bytesRead } = await file.read(buffer, 0, length, 0)
              return buffer.subarray(0, bytesRead)
            }),
          (file) => Effect.promise(() => file.close())
        ),
      digest: (key) =>
        Effect.suspend(() => {
          const tally = makeTally()
          return Effect.map(
            Stream.runForEach(open(key), (chunk) => Effect.sync(() => tally.add(chunk))),
            tally.done
          )
        }),
      move: (from, to) =>
        Effect.promise(async () => {
          await fs.mkdir(path.dirname(pathOf(to)), { recursive: true })
          await fs.rename(pathOf(from), pathOf(to))
        }),
      remove,
      uploadUrl: (upload) => urlOf(upload.id, 0, upload.expiresAt),
      startParts: () => Effect.succeed(null),
      partUrls: (upload, partNumbers) =>
        Effect.forEach(partNumbers, (partNumber) =>
          Effect.map(urlOf(upload.id, partNumber, upload.expiresAt), (url) => ({ partNumber, url }))
        ),
      putPart: (upload, partNumber, body) => put(partKey(upload, partNumber), body),
      finishParts: (upload) =>
        Effect.gen(function* () {
          const numbers = Array.from({ length: upload.partCount ?? 1 }, (_, i) => i + 1)
          const sizes = yield* Effect.forEach(numbers, (n) => size(partKey(upload, n)))
          const missing = numbers.filter((_, i) => Option.isNone(sizes[i] ?? Option.none()))
          if (missing.length > 0) return yield* Effect.fail(new MissingParts({ partNumbers: missing }))
          // Each part was capped as it arrived, so the whole is at most the part count's worth; the size and type
          // checks follow on the joined file.
          yield* put(
            upload.storageKey,
            Stream.flatMap(Stream.fromIterable(numbers), (n) => open(partKey(upload, n)))
          )
          yield* remove([partsDir(upload)])
        }),
      abortParts: (upload) => remove([partsDir(upload)])
    }
  })
)
