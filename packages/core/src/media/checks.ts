import { Chunk, Effect, Option, Stream } from "effect"
import { MediaTooLarge, MediaTypeRefused } from "./errors.js"
import { MEDIA_MAX_BYTES, MEDIA_TYPES } from "./schema.js"

const MB = 1024 * 1024

/** The refusal of a file past `maxBytes`. */
export const tooLarge = (maxBytes: number = MEDIA_MAX_BYTES, what = "a media file") =>
  new MediaTooLarge({ message: `${what} is at most ${Math.round(maxBytes / MB)} MB`, maxBytes })

const ALLOWED = "JPG, PNG, WebP, GIF, PDF, MP4, MOV or WebM"

/** The refusal of bytes that are none of the allowed types. */
export const typeRefused = (detected: string | null, message?: string) =>
  new MediaTypeRefused({
    message:
      message ??
      (detected === null
        ? `the file's bytes are none of the allowed types (${ALLOWED}); its name or declared type does not count`
        : `the file's bytes are ${detected}, not one of the allowed types (${ALLOWED})`),
    detected
  })

/** Whether `mimeType` (read from the bytes) is one a media file may be. */
export const isAllowedType = (mimeType: string): boolean => Object.hasOwn(MEDIA_TYPES, mimeType)

const joined = (chunks: ReadonlyArray<Uint8Array>): Uint8Array => {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0]
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0))
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

/**
 * `body` failing with `MediaTooLarge` as soon as more than `maxBytes` went through: what follows is never pulled,
 * so a file too large is refused while it streams, with only the chunks in flight held.
 */
export const capped = <E>(
  body: Stream.Stream<Uint8Array, E>,
  maxBytes: number,
  refusal: MediaTooLarge = tooLarge(maxBytes)
): Stream.Stream<Uint8Array, E | MediaTooLarge> =>
  Stream.suspend(() => {
    let total = 0
    return Stream.mapEffect(body, (chunk) => {
      total += chunk.byteLength
      return total > maxBytes ? Effect.fail(refusal) : Effect.succeed(chunk)
    })
  })

/**
 * `body` checked as a media file while it streams: at most `MEDIA_MAX_BYTES`, and its first `sniffBytes` of a type
 * allowed, told by `detect` before any byte goes on (`found` is called with it). An empty file is refused.
 */
export const checkedMedia = <E>(
  body: Stream.Stream<Uint8Array, E>,
  sniffBytes: number,
  detect: (head: Uint8Array) => Effect.Effect<Option.Option<string>>,
  found: (mimeType: string) => void
): Stream.Stream<Uint8Array, E | MediaTooLarge | MediaTypeRefused> =>
  Stream.suspend(() => {
    // The first chunks, held until `sniffBytes` arrived (or the body ended); undefined once the type is known.
    let held: Array<Uint8Array> | undefined = []
    let heldBytes = 0
    const decide = (chunks: ReadonlyArray<Uint8Array>) => {
      const head = joined(chunks)
      if (head.byteLength === 0) return Effect.fail(typeRefused(null))
      return Effect.flatMap(detect(head.subarray(0, sniffBytes)), (mimeType) => {
        if (Option.isNone(mimeType) || !isAllowedType(mimeType.value)) {
          return Effect.fail(typeRefused(Option.getOrNull(mimeType)))
        }
        found(mimeType.value)
        return Effect.succeed(Chunk.of(head))
      })
    }
    const sniffed = Stream.mapEffect(capped(body, MEDIA_MAX_BYTES), (chunk) => {
      if (held === undefined) return Effect.succeed(Chunk.of(chunk))
      held.push(chunk)
      heldBytes += chunk.byteLength
      if (heldBytes < sniffBytes) return Effect.succeed(Chunk.empty<Uint8Array>())
      const chunks = held
      held = undefined
      return decide(chunks)
    })
    const rest = Stream.suspend(() => (held === undefined ? Stream.empty : Stream.fromEffect(decide(held))))
    return Stream.flattenChunks(Stream.concat(sniffed, rest))
  })
