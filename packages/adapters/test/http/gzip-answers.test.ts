/**
 * The gzipped `tools/list` answers: one gzip member each (clients such as curl and httpx decode only the first
 * member), the same JSON as the plain answer for every id, compressed once per id while the id is kept.
 */
import { gunzipSync, inflateRawSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeGzipAnswers } from "../../src/http/mcp/gzip-answers.js"
import { resultAnswer } from "../../src/http/mcp/protocol.js"

const GZIP_HEADER = 10
const GZIP_TRAILER = 8

// Big enough that deflate makes several blocks, varied enough that it does not shrink to nothing.
const result = new TextEncoder().encode(
  JSON.stringify({
    tools: Array.from({ length: 400 }, (_, index) => ({
      name: `tool_${index}`,
      description: `Reads item ${(index * 7919) % 1000} of the workspace, ${index % 3 === 0 ? "newest" : "oldest"} first`
    }))
  })
)

const plainAnswer = (id: string | number) => Buffer.concat(resultAnswer(id, result))

/** Whether `bytes` is exactly one gzip member: its deflate stream ends right before the 8-byte trailer. */
const isOneMember = (bytes: Uint8Array) => {
  const deflated = Buffer.from(bytes).subarray(GZIP_HEADER)
  const { engine } = inflateRawSync(deflated, { info: true }) as unknown as { engine: { bytesWritten: number } }
  return engine.bytesWritten === deflated.length - GZIP_TRAILER
}

describe("gzipped answers of a constant result", () => {
  it.effect("decode to the plain answer for each id, as one gzip member", () =>
    Effect.gen(function* () {
      const answers = makeGzipAnswers(plainAnswer)
      for (const id of [1, "1", 0, "req-ü", 2 ** 40]) {
        const zipped = yield* answers(id)
        expect(gunzipSync(zipped).equals(plainAnswer(id))).toBe(true)
        expect(JSON.parse(gunzipSync(zipped).toString("utf8")).id).toEqual(id)
        expect(isOneMember(zipped)).toBe(true)
        expect(zipped.byteLength).toBeLessThan(plainAnswer(id).byteLength / 3)
      }
    })
  )

  it.effect("compress once per id while the id is among the 16 last asked for", () =>
    Effect.gen(function* () {
      const compressed: Array<string | number> = []
      const answers = makeGzipAnswers((id) => {
        compressed.push(id)
        return plainAnswer(id)
      })
      // Asked for at once: the second waits for the first's compression instead of starting its own.
      const [first, again] = yield* Effect.all([answers(7), answers(7)], { concurrency: "unbounded" })
      expect(again).toBe(first)
      expect(compressed).toEqual([7])

      for (let id = 100; id < 115; id++) yield* answers(id)
      expect(yield* answers(7)).toBe(first)
      expect(compressed).toHaveLength(16)

      // 7 was used last: two more ids push out 100 and 101, and 7 stays.
      yield* answers(200)
      yield* answers(201)
      expect(yield* answers(7)).toBe(first)
      yield* answers(100)
      expect(compressed).toHaveLength(19)
      expect(compressed.at(-1)).toBe(100)
    })
  )
})
