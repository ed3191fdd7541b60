import { Chunk, Clock, Effect, Option, Stream } from "effect"
import { Conflict, Forbidden, invalid, NotFound } from "../shared/errors.js"
import { Ids } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { capped, tooLarge } from "./checks.js"
import type { MediaRefused } from "./errors.js"
import { type MediaFile, makeMediaIntake } from "./intake.js"
import { MediaBlobs, MediaFetcher, MediaRepo, type SentPart } from "./ports.js"
import { assetKey, MEDIA_MAX_BYTES, type MediaAsset, thumbnailKey } from "./schema.js"
import {
  MULTIPART_PART_BYTES,
  MULTIPART_TTL_MS,
  type MediaUpload,
  partCountOf,
  type PreparedParts,
  type PreparedUpload,
  UPLOAD_PURGE_GRACE_MS,
  UPLOAD_URL_TTL_MS
} from "./upload.js"

const uploadNotFound = (id: string) =>
  new NotFound({ message: `no upload ${id} in this workspace; start one with svc_scheduling_media_multipart` })

const mediaNotFound = (id: string) =>
  new NotFound({
    message: `no ready media ${id} in this workspace: upload it first (svc_upload_scheduling_media, svc_prepare_scheduling_media_upload, POST /v1/media)`
  })

/**
 * The media library of each workspace: files checked from their bytes (size while they stream, type from their
 * first bytes, images decoded for their size and a preview) before they become assets a post may name. An upload
 * is never half visible: its asset row is written last, after every check passed, and what fails is deleted.
 */
export class MediaLibrary extends Effect.Service<MediaLibrary>()("svc/media/MediaLibrary", {
  effect: Effect.gen(function* () {
    const blobs = yield* MediaBlobs
    const repo = yield* MediaRepo
    const fetcher = yield* MediaFetcher
    const ids = yield* Ids
    const { storeChecked, adoptStored, keptName } = yield* makeMediaIntake

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /**
     * Runs `finish` on an upload taken from `pending` (so no one else finishes it at the same time), recording how it
     * ended: complete, failed, or back to pending when `finish` answered none (nothing arrived yet).
     */
    const finishing = <E>(upload: MediaUpload, finish: Effect.Effect<Option.Option<MediaAsset>, E>) =>
      Effect.gen(function* () {
        const taken = yield* repo.transition(upload.id, "pending", "receiving")
        if (!taken) {
          return yield* Effect.fail(
            new Conflict({
              message: `upload ${upload.id} was already used or ended; prepare another to send this file again`
            })
          )
        }
        return yield* finish.pipe(
          Effect.tap((asset) => repo.transition(upload.id, "receiving", Option.isSome(asset) ? "complete" : "pending")),
          Effect.onExit((exit) =>
            exit._tag === "Success" ? Effect.void : Effect.asVoid(repo.transition(upload.id, "receiving", "failed"))
          )
        )
      })

    const unexpired = (upload: MediaUpload) =>
      Effect.flatMap(now, (at) =>
        upload.expiresAt.getTime() > at.getTime()
          ? Effect.void
          : Effect.fail(
              new Forbidden({
                message: `this upload expired at ${upload.expiresAt.toISOString()}; prepare another (svc_prepare_scheduling_media_upload or svc_scheduling_media_multipart)`
              })
            )
      )

    const newUpload = (
      workspaceId: string,
      fields: Pick<MediaUpload, "method" | "fileName" | "declaredBytes" | "partCount">,
      ttlMs: number
    ) =>
      Effect.gen(function* () {
        const id = yield* ids.make("mup_")
        const mediaId = yield* ids.make("med_")
        const createdAt = yield* now
        const direct = fields.method === "single" && blobs.receivesUploads
        const storageKey = direct ? assetKey({ workspaceId, id: mediaId }) : `uploads/${id}`
        const storeUploadId = fields.method === "multipart" ? yield* blobs.startParts(storageKey) : null
        const upload: MediaUpload = {
          id,
          workspaceId,
          mediaId,
          state: "pending",
          storageKey,
          storeUploadId,
          expiresAt: new Date(createdAt.getTime() + ttlMs),
          createdAt,
          ...fields,
          fileName: keptName(fields.fileName)
        }
        yield* repo.insertUpload(upload)
        return upload
      })

    const multipartOf = (workspaceId: string, uploadId: string) =>
      Effect.flatMap(repo.findUpload(uploadId), (found) =>
        Option.isSome(found) && found.value.workspaceId === workspaceId && found.value.method === "multipart"
          ? Effect.succeed(found.value)
          : Effect.fail(uploadNotFound(uploadId))
      )

    const partsOf = (upload: MediaUpload, partNumbers: ReadonlyArray<number> | undefined) =>
      Effect.gen(function* () {
        const count = upload.partCount ?? 1
        const wanted = partNumbers ?? Array.from({ length: count }, (_, i) => i + 1)
        const outside = wanted.find((n) => !Number.isInteger(n) || n < 1 || n > count)
        if (outside !== undefined) {
          return yield* invalid("partNumbers", `part numbers run from 1 to ${count} for this upload`)
        }
        const parts = yield* blobs.partUrls(
          upload,
          [...new Set(wanted)].sort((a, b) => a - b)
        )
        return { upload, partBytes: MULTIPART_PART_BYTES, parts } satisfies PreparedParts
      })

    /** The asset of a single upload a client sent straight to the store, checked on its first use. */
    const adoptOnUse = (workspaceId: string, id: string) =>
      Effect.gen(function* () {
        // Only a store the client sends to directly holds bytes this server has not checked yet.
        if (blobs.receivesUploads) return Option.none<MediaAsset>()
        const upload = yield* repo.findUploadOf(workspaceId, id)
        if (Option.isNone(upload) || upload.value.method !== "single" || upload.value.state !== "pending") {
          return Option.none<MediaAsset>()
        }
        return yield* finishing(upload.value, adoptStored(upload.value)).pipe(
          Effect.catchAll(() => Effect.succeed(Option.none<MediaAsset>()))
        )
      })

    const findReady = (workspaceId: string, wanted: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const found = new Map((yield* repo.findAssets(workspaceId, wanted)).map((asset) => [asset.id, asset]))
        const ready: Array<MediaAsset> = []
        for (const id of wanted) {
          const asset = found.get(id) ?? Option.getOrUndefined(yield* adoptOnUse(workspaceId, id))
          if (asset === undefined) return yield* Effect.fail(mediaNotFound(id))
          ready.push(asset)
        }
        return ready as ReadonlyArray<MediaAsset>
      }).pipe(withSpan("MediaLibrary.findReady"))

    const open = (asset: MediaAsset): Stream.Stream<Uint8Array> => blobs.open(assetKey(asset))

    return {
      /** Stores a file sent in one request (`POST /v1/media`, the upload tool), checked while it streams. */
      upload: <E>(workspaceId: string, file: MediaFile<E>): Effect.Effect<MediaAsset, E | MediaRefused> =>
        Effect.flatMap(ids.make("med_"), (id) => storeChecked(workspaceId, id, file)).pipe(
          withSpan("MediaLibrary.upload")
        ),
      /** Fetches a file from an https URL (the outgoing-HTTP rules) and stores it like an upload. */
      importUrl: (workspaceId: string, input: { readonly url: string; readonly fileName?: string | undefined }) =>
        Effect.gen(function* () {
          const fetched = yield* fetcher.fetch(input.url)
          if (fetched.declaredBytes !== null && fetched.declaredBytes > MEDIA_MAX_BYTES) {
            // Pulled for one chunk and let go, which closes the download instead of leaving it open.
            yield* Effect.ignore(Stream.runDrain(Stream.take(fetched.body, 1)))
            return yield* Effect.fail(tooLarge())
          }
          const id = yield* ids.make("med_")
          return yield* storeChecked(workspaceId, id, {
            fileName: input.fileName ?? fetched.fileName,
            body: fetched.body
          })
        }).pipe(withSpan("MediaLibrary.importUrl")),
      /** A URL to PUT one whole file to, valid for 15 minutes and once; the asset's id is known from the start. */
      prepare: (workspaceId: string, input: { readonly fileName?: string | undefined }) =>
        Effect.gen(function* () {
          const upload = yield* newUpload(
            workspaceId,
            { method: "single", fileName: input.fileName ?? null, declaredBytes: null, partCount: null },
            UPLOAD_URL_TTL_MS
          )
          return { upload, url: yield* blobs.uploadUrl(upload) } satisfies PreparedUpload
        }).pipe(withSpan("MediaLibrary.prepare")),
      /**
       * The body of a PUT to a prepared URL this server receives (the filesystem store): taken once, before its
       * expiry, and checked while it streams as an upload is.
       */
      receive: <E>(uploadId: string, body: Stream.Stream<Uint8Array, E>) =>
        Effect.gen(function* () {
          const found = yield* repo.findUpload(uploadId)
          if (Option.isNone(found) || found.value.method !== "single")
            return yield* Effect.fail(uploadNotFound(uploadId))
          const upload = found.value
          yield* unexpired(upload)
          const asset = yield* finishing(
            upload,
            Effect.map(
              storeChecked(upload.workspaceId, upload.mediaId, { fileName: upload.fileName, body }),
              Option.some
            )
          )
          return Option.getOrThrow(asset)
        }).pipe(withSpan("MediaLibrary.receive")),
      /** One part of a multipart upload this server receives: at most 8 MB, before the upload's expiry. */
      receivePart: <E>(uploadId: string, partNumber: number, body: Stream.Stream<Uint8Array, E>) =>
        Effect.gen(function* () {
          const found = yield* repo.findUpload(uploadId)
          if (Option.isNone(found) || found.value.method !== "multipart") {
            return yield* Effect.fail(uploadNotFound(uploadId))
          }
          const upload = found.value
          yield* unexpired(upload)
          if (upload.state !== "pending") {
            return yield* Effect.fail(new Conflict({ message: `upload ${uploadId} was already completed or aborted` }))
          }
          if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > (upload.partCount ?? 1)) {
            return yield* invalid("partNumber", `part numbers run from 1 to ${upload.partCount ?? 1} for this upload`)
          }
          const limit = tooLarge(MULTIPART_PART_BYTES, "a part")
          return yield* blobs.putPart(upload, partNumber, capped(body, MULTIPART_PART_BYTES, limit))
        }).pipe(withSpan("MediaLibrary.receivePart")),
      /** Starts a multipart upload of a file of `bytes` (at most 100 MB), with the URLs of all its parts. */
      startMultipart: (
        workspaceId: string,
        input: { readonly fileName?: string | undefined; readonly bytes: number }
      ) =>
        Effect.gen(function* () {
          if (input.bytes > MEDIA_MAX_BYTES) return yield* Effect.fail(tooLarge())
          if (!Number.isInteger(input.bytes) || input.bytes < 1) {
            return yield* invalid("bytes", "bytes is the file's size, a whole number from 1")
          }
          const upload = yield* newUpload(
            workspaceId,
            {
              method: "multipart",
              fileName: input.fileName ?? null,
              declaredBytes: input.bytes,
              partCount: partCountOf(input.bytes)
            },
            MULTIPART_TTL_MS
          )
          return yield* partsOf(upload, undefined)
        }).pipe(withSpan("MediaLibrary.startMultipart")),
      /** Fresh URLs for some (or all) parts of a pending multipart upload. */
      signParts: (workspaceId: string, uploadId: string, partNumbers?: ReadonlyArray<number>) =>
        Effect.gen(function* () {
          const upload = yield* multipartOf(workspaceId, uploadId)
          yield* unexpired(upload)
          if (upload.state !== "pending") {
            return yield* Effect.fail(new Conflict({ message: `upload ${uploadId} was already completed or aborted` }))
          }
          return yield* partsOf(upload, partNumbers)
        }).pipe(withSpan("MediaLibrary.signParts")),
      /**
       * Joins the parts, checks the whole file and makes it the upload's asset (or deletes it and says why). A
       * prepared single upload sent straight to the store is completed the same way (without parts).
       */
      completeMultipart: (workspaceId: string, uploadId: string, sent?: ReadonlyArray<SentPart>) =>
        Effect.gen(function* () {
          const found = yield* repo.findUpload(uploadId)
          if (Option.isNone(found) || found.value.workspaceId !== workspaceId) {
            return yield* Effect.fail(uploadNotFound(uploadId))
          }
          const upload = found.value
          if (upload.method === "single") {
            if (upload.state === "complete") {
              return (yield* findReady(workspaceId, [upload.mediaId]))[0] as MediaAsset
            }
            if (blobs.receivesUploads) {
              return yield* invalid("uploadId", "PUT the file to the upload URL first; it is ready once that answers")
            }
          }
          yield* unexpired(upload)
          const finish = Effect.gen(function* () {
            if (upload.method === "single") return yield* adoptStored(upload)
            yield* blobs
              .finishParts(upload, sent)
              .pipe(
                Effect.catchTag("MissingParts", (missing) =>
                  invalid(
                    "uploadId",
                    `parts ${missing.partNumbers.join(", ")} never arrived; PUT them (sign_parts gives fresh URLs), then complete`
                  )
                )
              )
            return yield* adoptStored(upload)
          })
          const asset = yield* finishing(upload, finish).pipe(
            Effect.tapErrorTag("InvalidInput", () => repo.transition(upload.id, "failed", "pending"))
          )
          if (Option.isNone(asset))
            return yield* invalid("uploadId", "no file arrived for this upload yet; PUT it first")
          return asset.value
        }).pipe(withSpan("MediaLibrary.completeMultipart")),
      /** Abandons a multipart upload: what arrived of it is deleted. */
      abortMultipart: (workspaceId: string, uploadId: string) =>
        Effect.gen(function* () {
          const upload = yield* multipartOf(workspaceId, uploadId)
          const taken = yield* repo.transition(upload.id, "pending", "failed")
          if (!taken) {
            return yield* Effect.fail(new Conflict({ message: `upload ${uploadId} was already completed or aborted` }))
          }
          yield* blobs.abortParts(upload)
          yield* blobs.remove([upload.storageKey])
        }).pipe(withSpan("MediaLibrary.abortMultipart")),
      /**
       * The workspace's ready assets named by `ids`, in that order; `NotFound` names the first id that is unknown, of
       * another workspace, or not complete. A file sent straight to the store by a prepared URL is checked here, on
       * its first use.
       */
      findReady,
      /** The bytes of an asset, whole (for publishers that send them in one request). */
      read: (asset: MediaAsset): Effect.Effect<Uint8Array> =>
        Effect.map(Stream.runCollect(open(asset)), (chunks) => {
          const out = new Uint8Array(Chunk.reduce(chunks, 0, (n, c) => n + c.byteLength))
          let at = 0
          for (const chunk of chunks) {
            out.set(chunk, at)
            at += chunk.byteLength
          }
          return out
        }),
      /** The bytes of an asset, streamed (to serve the file on the workspace's public feed). */
      open,
      /** An asset's thumbnail, streamed; none for kinds without one. */
      openThumbnail: (asset: MediaAsset): Option.Option<Stream.Stream<Uint8Array>> =>
        asset.thumbnail === null ? Option.none() : Option.some(blobs.open(thumbnailKey(asset))),
      /**
       * Deletes uploads that expired over an hour ago, with what they left in the store (parts, an unchecked
       * file, a re-sent copy of a used URL). Answers how many uploads went.
       */
      purgeExpired: Effect.gen(function* () {
        const before = new Date((yield* Clock.currentTimeMillis) - UPLOAD_PURGE_GRACE_MS)
        const expired = yield* repo.expiredUploads(before, 500)
        for (const upload of expired) {
          if (upload.method === "multipart" && upload.state !== "complete") yield* blobs.abortParts(upload)
          // An upload this server received was written under the asset's own key: kept when its asset exists (even
          // if the process stopped before the upload was marked complete).
          const asset = { workspaceId: upload.workspaceId, id: upload.mediaId }
          const adopted = (yield* repo.findAssets(upload.workspaceId, [upload.mediaId])).length > 0
          if (!adopted || upload.storageKey !== assetKey(asset)) yield* blobs.remove([upload.storageKey])
          yield* repo.deleteUpload(upload.id)
        }
        return expired.length
      }).pipe(withSpan("MediaLibrary.purgeExpired"))
    } as const
  })
}) {}
