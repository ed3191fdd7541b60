import { Effect, Either, Encoding, Schema, Stream } from "effect"
import { invalid } from "../shared/errors.js"
import { Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import type { MediaRefused, MediaUrlRefused } from "./errors.js"
import type { MediaAsset } from "./schema.js"
import { MediaLibrary } from "./service.js"
import { INLINE_UPLOAD_MAX_BYTES, MULTIPART_PART_BYTES, type PreparedParts } from "./upload.js"

const MB = 1024 * 1024

const FileName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)).annotations({
  description: "Name for people; the type is read from the bytes."
})

const UploadId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
  description: "mup_… from start (complete: also from svc_prepare_scheduling_media_upload)."
})

/** The asset as every media tool (and `POST /v1/media`) answers it. */
export const MediaRecord = Schema.Struct({
  id: Schema.String.annotations({ description: "Media id (med_…): put it in svc_schedule_post's media." }),
  kind: Schema.Literal("image", "gif", "video", "pdf"),
  mimeType: Schema.String.annotations({ description: "Type read from the bytes, e.g. image/png." }),
  bytes: Schema.Int.annotations({ description: "Size in bytes." }),
  width: Schema.NullOr(Schema.Int).annotations({ description: "Pixels, images and GIFs; else null." }),
  height: Schema.NullOr(Schema.Int),
  fileName: Schema.NullOr(Schema.String),
  sha256: Schema.String.annotations({ description: "SHA-256 of the bytes, hex." }),
  thumbnail: Schema.NullOr(
    Schema.Struct({ mimeType: Schema.String, width: Schema.Int, height: Schema.Int, bytes: Schema.Int })
  ).annotations({ description: "WebP preview of an image; null for other kinds." }),
  createdAt: Timestamp
})

/** An asset as the tools answer it. */
export const mediaRecord = (asset: MediaAsset): typeof MediaRecord.Type => ({
  id: asset.id,
  kind: asset.kind,
  mimeType: asset.mimeType,
  bytes: asset.bytes,
  width: asset.width,
  height: asset.height,
  fileName: asset.fileName,
  sha256: asset.sha256,
  thumbnail: asset.thumbnail,
  createdAt: asset.createdAt
})

const MediaField = MediaRecord.annotations({ description: "The stored file, ready to post." })

/** A refused file as a tool failure: the caller must send another file. */
const asInvalid = (field: string) => (error: MediaRefused | MediaUrlRefused) => invalid(field, error.message)

const Part = Schema.Struct({
  partNumber: Schema.Int.annotations({ description: "1-based." }),
  url: Schema.String.annotations({ description: "PUT this part's bytes here." })
})

const MultipartUpload = Schema.Struct({
  uploadId: Schema.String.annotations({ description: "mup_…" }),
  mediaId: Schema.String.annotations({ description: "Media id it becomes on complete (med_…)." }),
  partBytes: Schema.Int.annotations({ description: "Every part is this size but the last." }),
  partCount: Schema.Int,
  expiresAt: Timestamp,
  parts: Schema.Array(Part).annotations({ description: "URLs of the parts asked for." })
})

const multipartRecord = (prepared: PreparedParts): typeof MultipartUpload.Type => ({
  uploadId: prepared.upload.id,
  mediaId: prepared.upload.mediaId,
  partBytes: prepared.partBytes,
  partCount: prepared.upload.partCount ?? prepared.parts.length,
  expiresAt: prepared.upload.expiresAt,
  parts: prepared.parts
})

// Base64 carries 3 bytes in 4 characters.
const INLINE_BASE64_MAX = Math.ceil(INLINE_UPLOAD_MAX_BYTES / 3) * 4

const needs = (field: string, action: string) => invalid(field, `action ${action} needs ${field}`)

/** The Scheduling group's media tools: upload (inline, by URL, by import, in parts) files a post then names. */
export const mediaTools = Effect.gen(function* () {
  const media = yield* MediaLibrary

  return [
    defineTool({
      name: "svc_prepare_scheduling_media_upload",
      title: "Prepare media upload",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Get a URL to PUT one file's bytes to (to 100 MB; JPG, PNG, WebP, GIF, PDF, MP4, MOV, WebM, read from the bytes), once, within 15 minutes; then put mediaId in svc_schedule_post's media. Over 8 MB: svc_scheduling_media_multipart. Free.",
      input: { fileName: Schema.optional(FileName) },
      output: {
        upload: Schema.Struct({
          uploadId: Schema.String.annotations({ description: "mup_…" }),
          mediaId: Schema.String.annotations({ description: "Media id once the file is sent (med_…)." }),
          url: Schema.String.annotations({ description: "PUT the file's bytes here." }),
          method: Schema.Literal("PUT"),
          expiresAt: Timestamp
        }).annotations({ description: "Where to PUT the file's bytes (no other headers needed), and until when." })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const prepared = yield* media.prepare(id, input)
          return {
            upload: {
              uploadId: prepared.upload.id,
              mediaId: prepared.upload.mediaId,
              url: prepared.url,
              method: "PUT" as const,
              expiresAt: prepared.upload.expiresAt
            }
          }
        })
    }),
    defineTool({
      name: "svc_scheduling_media_multipart",
      title: "Upload media in parts",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description: `Upload a large file (to 100 MB) in ${MULTIPART_PART_BYTES / MB} MB parts. start (fileName, bytes): part URLs for 1 hour; PUT each part. sign_parts (uploadId, partNumbers): new URLs. complete (uploadId, parts): checks it, returns media for svc_schedule_post. abort (uploadId). Free.`,
      input: {
        action: Schema.Literal("start", "sign_parts", "complete", "abort").annotations({
          description: "Step; the description says which fields each reads."
        }),
        uploadId: Schema.optional(UploadId),
        fileName: Schema.optional(FileName),
        bytes: Schema.optional(
          Schema.Int.pipe(Schema.between(1, 100 * MB)).annotations({
            description: "start: the file's size in bytes."
          })
        ),
        parts: Schema.optional(
          Schema.Array(
            Schema.Struct({
              partNumber: Schema.Int.pipe(Schema.between(1, 10_000)).annotations({ description: "Part number." }),
              etag: Schema.String.pipe(Schema.maxLength(200)).annotations({ description: "Its PUT's ETag." })
            })
          )
            .pipe(Schema.maxItems(100))
            .annotations({ description: "complete: the parts' ETags, if the store needs them." })
        ),
        partNumbers: Schema.optional(
          Schema.Array(Schema.Int.pipe(Schema.between(1, 10_000)))
            .pipe(Schema.maxItems(100))
            .annotations({ description: "sign_parts: which parts; default all." })
        )
      },
      output: {
        upload: Schema.optional(MultipartUpload.annotations({ description: "start, sign_parts: the parts' URLs." })),
        media: Schema.optional(MediaField.annotations({ description: "complete: the stored file." })),
        aborted: Schema.optional(Schema.Boolean.annotations({ description: "abort: true." }))
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          switch (input.action) {
            case "start": {
              if (input.bytes === undefined) return yield* needs("bytes", "start")
              const started = yield* media.startMultipart(id, { fileName: input.fileName, bytes: input.bytes })
              return { upload: multipartRecord(started) }
            }
            case "sign_parts": {
              if (input.uploadId === undefined) return yield* needs("uploadId", "sign_parts")
              return { upload: multipartRecord(yield* media.signParts(id, input.uploadId, input.partNumbers)) }
            }
            case "complete": {
              if (input.uploadId === undefined) return yield* needs("uploadId", "complete")
              return { media: mediaRecord(yield* media.completeMultipart(id, input.uploadId, input.parts)) }
            }
            case "abort": {
              if (input.uploadId === undefined) return yield* needs("uploadId", "abort")
              yield* media.abortMultipart(id, input.uploadId)
              return { aborted: true }
            }
          }
        }).pipe(Effect.catchTags({ MediaTooLarge: asInvalid("bytes"), MediaTypeRefused: asInvalid("uploadId") }))
    }),
    defineTool({
      name: "svc_upload_scheduling_media",
      title: "Upload small media",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description: `Store a small file sent as base64 (at most ${INLINE_UPLOAD_MAX_BYTES / MB} MB decoded, and the call within the server's 1 MB request limit by default); returns media for svc_schedule_post. JPG, PNG, WebP, GIF, PDF, MP4, MOV, WebM, read from the bytes. Larger: svc_prepare_scheduling_media_upload. Free.`,
      input: {
        data: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(INLINE_BASE64_MAX)).annotations({
          description: "The file's bytes, base64."
        }),
        fileName: Schema.optional(FileName)
      },
      output: { media: MediaField },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const decoded = Encoding.decodeBase64(input.data.replace(/\s+/g, ""))
          if (Either.isLeft(decoded))
            return yield* invalid("data", "data is not base64; send the file's bytes base64-encoded")
          const asset = yield* media.upload(id, { fileName: input.fileName ?? null, body: Stream.make(decoded.right) })
          return { media: mediaRecord(asset) }
        }).pipe(Effect.catchTags({ MediaTooLarge: asInvalid("data"), MediaTypeRefused: asInvalid("data") }))
    }),
    defineTool({
      name: "svc_import_scheduling_media",
      title: "Import media from URL",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
      description:
        "Fetch a file from a public https URL (no redirects followed; up to 100 MB; JPG, PNG, WebP, GIF, PDF, MP4, MOV, WebM, told from the bytes) and store it; returns media for svc_schedule_post. Free.",
      input: {
        url: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)).annotations({
          description: "https URL of the file itself."
        }),
        fileName: Schema.optional(FileName)
      },
      output: { media: MediaField },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { media: mediaRecord(yield* media.importUrl(id, input)) }
        }).pipe(
          Effect.catchTags({
            MediaTooLarge: asInvalid("url"),
            MediaTypeRefused: asInvalid("url"),
            MediaUrlRefused: asInvalid("url")
          })
        )
    })
  ]
})
