import { Clock, Effect, Option, Stream } from "effect"
import { checkedMedia, tooLarge, typeRefused } from "./checks.js"
import type { MediaRefused } from "./errors.js"
import { MediaBlobs, MediaProbe, MediaRepo, type StoredBlob } from "./ports.js"
import { assetKey, MEDIA_MAX_BYTES, MEDIA_TYPES, type MediaAsset, thumbnailKey } from "./schema.js"
import type { MediaUpload } from "./upload.js"

/** A file to store: its bytes, streamed, and the name its sender gave (never used to decide its type). */
export interface MediaFile<E> {
  readonly fileName: string | null
  readonly body: Stream.Stream<Uint8Array, E>
}

const FILE_NAME_MAX = 255

/** A name fit to keep: its last path segment, without control characters, at most 255 characters; null when none. */
const keptName = (name: string | null | undefined): string | null => {
  if (name === null || name === undefined) return null
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is taken out
  const last = (name.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim()
  return last === "" ? null : last.slice(0, FILE_NAME_MAX)
}

/**
 * How a file becomes an asset, whichever way it came: checked as it streams into the store (`storeChecked`), or
 * checked in the store after a client sent it there (`adoptStored`); then, for images, measured and previewed, and
 * only then recorded. What fails on the way is deleted.
 */
export const makeMediaIntake = Effect.gen(function* () {
  const blobs = yield* MediaBlobs
  const probe = yield* MediaProbe
  const repo = yield* MediaRepo
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** The asset row of stored, checked bytes: images get their size and a preview first. */
  const recordAsset = (
    workspaceId: string,
    id: string,
    fileName: string | null,
    mimeType: string,
    stored: StoredBlob
  ): Effect.Effect<MediaAsset, MediaRefused> =>
    Effect.gen(function* () {
      const kind = MEDIA_TYPES[mimeType] ?? "image"
      const where = { workspaceId, id }
      let facts: Pick<MediaAsset, "width" | "height" | "thumbnail"> = { width: null, height: null, thumbnail: null }
      if (kind === "image" || kind === "gif") {
        const image = yield* probe.image(blobs.open(assetKey(where)))
        if (Option.isNone(image)) {
          return yield* Effect.fail(
            typeRefused(mimeType, `the file starts like ${mimeType} but does not decode as an image`)
          )
        }
        const { width, height, thumbnail } = image.value
        const preview = yield* blobs.put(thumbnailKey(where), Stream.make(thumbnail.bytes))
        facts = {
          width,
          height,
          thumbnail: {
            mimeType: "image/webp",
            width: thumbnail.width,
            height: thumbnail.height,
            bytes: preview.bytes
          }
        }
      }
      const asset: MediaAsset = {
        id,
        workspaceId,
        kind,
        mimeType,
        bytes: stored.bytes,
        ...facts,
        fileName,
        sha256: stored.sha256,
        createdAt: yield* now
      }
      yield* repo.insertAsset(asset)
      return asset
    }).pipe(
      // Whatever stops it (a refusal, a defect, an interruption), no bytes stay behind without their row.
      Effect.onExit((exit) =>
        exit._tag === "Success"
          ? Effect.void
          : blobs.remove([assetKey({ workspaceId, id }), thumbnailKey({ workspaceId, id })])
      )
    )

  /** Streams `file` into the asset `id`, checked as it goes. */
  const storeChecked = <E>(workspaceId: string, id: string, file: MediaFile<E>) =>
    Effect.gen(function* () {
      let mimeType = ""
      const stored = yield* blobs.put(
        assetKey({ workspaceId, id }),
        checkedMedia(file.body, probe.sniffBytes, probe.detect, (found) => {
          mimeType = found
        })
      )
      return yield* recordAsset(workspaceId, id, keptName(file.fileName), mimeType, stored)
    })

  /** Checks bytes a client sent straight to the store (`storageKey`), then makes them the upload's asset. */
  const adoptStored = (upload: MediaUpload) =>
    Effect.gen(function* () {
      const key = upload.storageKey
      const size = yield* blobs.size(key)
      if (Option.isNone(size)) return Option.none<MediaAsset>()
      if (size.value > MEDIA_MAX_BYTES) {
        yield* blobs.remove([key])
        return yield* Effect.fail(tooLarge())
      }
      const detected = yield* Effect.flatMap(blobs.readStart(key, probe.sniffBytes), probe.detect)
      if (Option.isNone(detected) || !Object.hasOwn(MEDIA_TYPES, detected.value)) {
        yield* blobs.remove([key])
        return yield* Effect.fail(typeRefused(Option.getOrNull(detected)))
      }
      // Hashed from the store (the size and type checks above read only the head and the first bytes).
      const stored = yield* blobs.digest(key)
      const target = { workspaceId: upload.workspaceId, id: upload.mediaId }
      yield* blobs.move(key, assetKey(target))
      return Option.some(
        yield* recordAsset(upload.workspaceId, upload.mediaId, upload.fileName, detected.value, stored)
      )
    })

  return { storeChecked, adoptStored, keptName } as const
})
