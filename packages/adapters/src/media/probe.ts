import { type ImageFacts, MediaProbe, THUMBNAIL_MAX_PX } from "@svc/core/media"
import { fileTypeFromBuffer } from "file-type"
import { Effect, Layer, Option, type Stream } from "effect"
import { loadOptional } from "../optional-package.js"
import { toReadable } from "./streams.js"

type Sharp = typeof import("sharp")["default"]

// file-type reads a file's signature from its first 4100 bytes (its `reasonableDetectionSizeInBytes`).
const SNIFF_BYTES = 4100

// sharp loads libvips (tens of MB) when imported: only a process that meets an image pays for it. Its operation
// cache is off: a server decodes each image once, and the cache would keep up to 50 MB of them.
let sharpLoaded: Promise<Sharp> | undefined
const loadSharp = () => {
  sharpLoaded ??= import("sharp").then((module) => {
    const sharp = module.default
    sharp.cache(false)
    return sharp
  })
  return sharpLoaded
}

/**
 * `MediaProbe` with `file-type` (the type from the first 4100 bytes, by their signatures) and `sharp` (an image's
 * size, EXIF orientation applied, and a WebP preview, decoded from a stream: the image is never held whole here).
 */
export const MediaProbeLive = Layer.succeed(MediaProbe, {
  sniffBytes: SNIFF_BYTES,
  detect: (head) =>
    Effect.map(
      Effect.promise(() => fileTypeFromBuffer(head)),
      (found) => Option.fromNullable(found?.mime)
    ),
  image: (bytes: Stream.Stream<Uint8Array>) =>
    Effect.gen(function* () {
      // An optional peer of @svc/adapters (@svc/server brings it): without it, an image cannot be taken in at all.
      const sharp = yield* loadOptional({ packages: ["sharp"], purpose: "reading images", load: loadSharp }).pipe(
        Effect.orDieWith((missing) => new Error(missing.message))
      )
      const readable = yield* toReadable(bytes)
      return yield* Effect.promise(async (): Promise<Option.Option<ImageFacts>> => {
        // The first frame of an animation; decoding stops with an error on damaged data rather than guessing.
        const input = sharp({ animated: false, failOn: "error" })
        const facts = Promise.all([
          input.clone().metadata(),
          input
            .clone()
            .rotate()
            .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: "inside", withoutEnlargement: true })
            .webp({ quality: 70 })
            .toBuffer({ resolveWithObject: true })
        ])
        readable.pipe(input)
        try {
          const [metadata, preview] = await facts
          const oriented = metadata.autoOrient ?? { width: metadata.width, height: metadata.height }
          return Option.some({
            width: oriented.width,
            height:
              metadata.pageHeight !== undefined && (metadata.pages ?? 1) > 1 ? metadata.pageHeight : oriented.height,
            thumbnail: { bytes: preview.data, width: preview.info.width, height: preview.info.height }
          })
        } catch {
          readable.destroy()
          return Option.none()
        }
      })
    })
})
