import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  type Part,
  PutObjectCommand,
  S3Client,
  UploadPartCommand
} from "@aws-sdk/client-s3"
import { Upload } from "@aws-sdk/lib-storage"
import { getSignedUrl } from "@aws-sdk/s3-request-presigner"
import { MediaBlobs, MissingParts, type StoredBlob } from "@svc/core/media"
import { Clock, Effect, Layer, Option, Stream } from "effect"
import type { Readable } from "node:stream"
import type { S3StoreSettings } from "./settings.js"
import { fromReadable, makeTally, toReadable } from "./streams.js"

const statusOf = (error: unknown): number | undefined =>
  typeof error === "object" && error !== null && "$metadata" in error
    ? (error.$metadata as { httpStatusCode?: number }).httpStatusCode
    : undefined

const isNotFound = (error: unknown) =>
  statusOf(error) === 404 ||
  (typeof error === "object" &&
    error !== null &&
    "name" in error &&
    /NotFound|NoSuchKey|NoSuchUpload/.test(String(error.name)))

/** A presigned URL lives until the upload expires, at least one second (S3 refuses 0). */
const secondsUntil = (expiresAt: Date, now: number) => Math.max(1, Math.floor((expiresAt.getTime() - now) / 1000))

/**
 * `MediaBlobs` in an S3-compatible bucket through `@aws-sdk/client-s3`. Clients upload straight to the bucket with
 * presigned PUT and part URLs (`@aws-sdk/s3-request-presigner`); the core then checks the object (its size from a
 * HEAD, its type from a ranged GET) before it becomes an asset, and deletes what fails. Streams in (`put`) go up
 * with `@aws-sdk/lib-storage`'s `Upload` in parts, so a body of unknown length is never held whole.
 */
export const mediaS3Layer = (settings: S3StoreSettings) =>
  Layer.scoped(
    MediaBlobs,
    Effect.gen(function* () {
      const client = yield* Effect.acquireRelease(
        Effect.sync(
          () =>
            new S3Client({
              region: settings.region,
              ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
              forcePathStyle: settings.forcePathStyle,
              credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
            })
        ),
        (s3) => Effect.sync(() => s3.destroy())
      )
      const Bucket = settings.bucket
      const keyOf = (key: string) => `${settings.prefix ?? ""}${key}`
      const send = <A>(run: () => Promise<A>) => Effect.promise(run)

      const open = (key: string): Stream.Stream<Uint8Array> =>
        Stream.unwrap(
          Effect.map(
            send(() => client.send(new GetObjectCommand({ Bucket, Key: keyOf(key) }))),
            (object) => fromReadable(() => object.Body as Readable)
          )
        )

      const presign = (command: PutObjectCommand | UploadPartCommand, expiresAt: Date) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const options = { expiresIn: secondsUntil(expiresAt, now) }
          return send(() =>
            command instanceof PutObjectCommand
              ? getSignedUrl(client, command, options)
              : getSignedUrl(client, command, options)
          )
        })

      return {
        receivesUploads: false,
        put: <E>(key: string, body: Stream.Stream<Uint8Array, E>): Effect.Effect<StoredBlob, E> =>
          Effect.gen(function* () {
            const tally = makeTally()
            const counted = Stream.tap(body, (chunk) => Effect.sync(() => tally.add(chunk)))
            // The body's own failure must come out as itself: it is caught here, and the upload aborted.
            let failure: { readonly error: E } | undefined
            const guarded = Stream.catchAll(counted, (error) => {
              failure = { error }
              return Stream.die(new Error("the body failed"))
            })
            const readable = yield* toReadable(guarded)
            const upload = new Upload({ client, params: { Bucket, Key: keyOf(key), Body: readable } })
            const done = yield* Effect.promise(() =>
              upload.done().then(
                () => true,
                () => false
              )
            )
            if (failure !== undefined) return yield* Effect.fail(failure.error)
            if (!done) return yield* Effect.dieMessage(`could not write ${key} to the bucket`)
            return tally.done()
          }),
        open,
        size: (key) =>
          Effect.promise(() =>
            client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) })).then(
              (head) => Option.some(head.ContentLength ?? 0),
              (error) => (isNotFound(error) ? Option.none<number>() : Promise.reject(error))
            )
          ),
        readStart: (key, length) =>
          send(async () => {
            const object = await client.send(
              new GetObjectCommand({ Bucket, Key: keyOf(key), Range: `bytes=0-${length - 1}` })
            )
            const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array()
            // A store that ignores Range sends it all: only the head is kept.
            return bytes.subarray(0, length)
          }),
        digest: (key) =>
          Effect.suspend(() => {
            const tally = makeTally()
            return Effect.map(
              Stream.runForEach(open(key), (chunk) => Effect.sync(() => tally.add(chunk))),
              tally.done
            )
          }),
        move: (from, to) =>
          send(async () => {
            await client.send(
              new CopyObjectCommand({
                Bucket,
                Key: keyOf(to),
                CopySource: `${Bucket}/${keyOf(from).split("/").map(encodeURIComponent).join("/")}`
              })
            )
            await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(from) }))
          }),
        remove: (keys) =>
          Effect.forEach(keys, (key) => send(() => client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }))), {
            discard: true
          }),
        uploadUrl: (upload) =>
          presign(new PutObjectCommand({ Bucket, Key: keyOf(upload.storageKey) }), upload.expiresAt),
        startParts: (key) =>
          Effect.map(
            send(() => client.send(new CreateMultipartUploadCommand({ Bucket, Key: keyOf(key) }))),
            (created) => created.UploadId ?? null
          ),
        partUrls: (upload, partNumbers) =>
          Effect.forEach(partNumbers, (partNumber) =>
            Effect.map(
              presign(
                new UploadPartCommand({
                  Bucket,
                  Key: keyOf(upload.storageKey),
                  UploadId: upload.storeUploadId ?? "",
                  PartNumber: partNumber
                }),
                upload.expiresAt
              ),
              (url) => ({ partNumber, url })
            )
          ),
        // Without the parts' ETags from the client, the store lists them, so a client needs to send none (browsers
        // cannot read them without CORS settings on the bucket); stores without ListParts need them sent.
        finishParts: (upload, sent) =>
          Effect.gen(function* () {
            const UploadId = upload.storeUploadId ?? ""
            const Key = keyOf(upload.storageKey)
            const parts: Array<Part> = (sent ?? []).map((p) => ({ PartNumber: p.partNumber, ETag: p.etag }))
            let marker: string | undefined
            for (;;) {
              if (sent !== undefined) break
              const page = yield* send(() =>
                client.send(new ListPartsCommand({ Bucket, Key, UploadId, PartNumberMarker: marker }))
              )
              parts.push(...(page.Parts ?? []))
              if (!page.IsTruncated || page.NextPartNumberMarker === undefined) break
              marker = page.NextPartNumberMarker
            }
            const received = new Set(parts.map((p) => p.PartNumber))
            const count = upload.partCount ?? 1
            const missing = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !received.has(n))
            if (missing.length > 0) return yield* Effect.fail(new MissingParts({ partNumbers: missing }))
            const wanted = parts
              .filter((p) => (p.PartNumber ?? 0) <= count)
              .sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0))
              .map((p) => ({ PartNumber: p.PartNumber, ETag: p.ETag }))
            yield* send(() =>
              client.send(
                new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: wanted } })
              )
            )
          }),
        // Cleanup: a store that cannot abort (or forgot the upload) is logged, not a failure; a bucket lifecycle rule
        // for incomplete multipart uploads catches what is left (docs/media.md).
        abortParts: (upload) =>
          upload.storeUploadId === null
            ? Effect.void
            : Effect.tryPromise(() =>
                client.send(
                  new AbortMultipartUploadCommand({
                    Bucket,
                    Key: keyOf(upload.storageKey),
                    UploadId: upload.storeUploadId ?? ""
                  })
                )
              ).pipe(
                Effect.catchAll((error) =>
                  isNotFound(error.error)
                    ? Effect.void
                    : Effect.logWarning(`could not abort the multipart upload of ${upload.storageKey}`, error.error)
                ),
                Effect.asVoid
              ),
        putPart: () => Effect.dieMessage("parts go straight to the bucket by their presigned URLs")
      }
    })
  )
