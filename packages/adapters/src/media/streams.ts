import { createHash } from "node:crypto"
import { Readable } from "node:stream"
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web"
import { Effect, Stream } from "effect"

/** A Node readable (a file, a response body), opened when the stream runs, read with back-pressure; errors die. */
export const fromReadable = (open: () => Readable): Stream.Stream<Uint8Array> =>
  Stream.suspend(() => Stream.fromAsyncIterable<Uint8Array, unknown>(open(), (cause) => cause)).pipe(Stream.orDie)

/** An Effect stream as a Node readable, pulled as the reader asks (for libraries that take Node streams). */
export const toReadable = <E>(body: Stream.Stream<Uint8Array, E>): Effect.Effect<Readable> =>
  Effect.map(Stream.toReadableStreamEffect(body), (web) =>
    Readable.fromWeb(web as unknown as NodeWebReadableStream<Uint8Array>)
  )

/** A running SHA-256 and byte count. */
export const makeTally = () => {
  const hash = createHash("sha256")
  let bytes = 0
  return {
    add: (chunk: Uint8Array) => {
      hash.update(chunk)
      bytes += chunk.byteLength
    },
    done: () => ({ bytes, sha256: hash.digest("hex") })
  }
}
