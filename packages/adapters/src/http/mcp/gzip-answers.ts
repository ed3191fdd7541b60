/**
 * The gzip of a constant result's whole JSON-RPC answer, per request id.
 *
 * The answer is one gzip member made by `zlib`, compressed once per (result, id) off the event loop and kept for
 * the most recent ids. Clients number their requests, and a fresh client's `tools/list` nearly always carries the
 * same small id, so repeats cost a map lookup and answer at once. A new id costs a whole compression at zlib's
 * default level (~6.8 ms for 24 KB on a 166 KB list, off the event loop; the fastest level took ~1.2 ms but sent
 * 33 KB, and the bytes sent on every repeat cost more than the one compression). Two other shapes were turned
 * down: splicing a per-request head onto a cached deflate needs a CRC-32 combined by hand (`zlib.crc32` is Node ≥ 20.15), and sending the head as a second
 * gzip member is valid RFC 1952 that curl (`--compressed` fails with error 23) and httpx (the Python MCP SDK's
 * client, which keeps the first member only) do not decode.
 */
import { constants, gzip } from "node:zlib"
import { Effect } from "effect"

/** How many ids keep their compressed answer per result; the least recently used goes first. */
const KEPT_IDS = 16

/** The gzip of `answer(id)` for a result whose answer differs only in its id; see the module comment. */
export type GzipAnswers = (id: string | number) => Effect.Effect<Uint8Array>

interface Kept {
  readonly made: Promise<Uint8Array>
  /** The compressed answer once `made` has settled: a repeat then answers without waiting a turn. */
  bytes?: Uint8Array
}

/** Compresses `answer(id)` at most once per id among the {@link KEPT_IDS} most recently asked for. */
export const makeGzipAnswers = (answer: (id: string | number) => Uint8Array): GzipAnswers => {
  const kept = new Map<string, Kept>()
  const entryFor = (key: string, id: string | number): Kept => {
    const found = kept.get(key)
    if (found !== undefined) {
      // Re-inserted so the map's order stays least recently used first.
      kept.delete(key)
      kept.set(key, found)
      return found
    }
    const entry: Kept = {
      made: new Promise<Uint8Array>((resolve, reject) =>
        gzip(answer(id), { level: constants.Z_DEFAULT_COMPRESSION }, (error, bytes) => {
          if (error !== null) {
            reject(error)
            return
          }
          entry.bytes = bytes
          resolve(bytes)
        })
      )
    }
    entry.made.catch(() => kept.delete(key))
    kept.set(key, entry)
    if (kept.size > KEPT_IDS) {
      const oldest = kept.keys().next()
      if (oldest.done !== true) kept.delete(oldest.value)
    }
    return entry
  }
  // The id's JSON text is the key: 1 and "1" are different ids with different answers.
  return (id) => {
    const entry = entryFor(JSON.stringify(id), id)
    return entry.bytes !== undefined ? Effect.succeed(entry.bytes) : Effect.promise(() => entry.made)
  }
}
