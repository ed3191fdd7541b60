/**
 * The `timestamptz` fast path reads exactly what `pg`'s own parser reads, and hands every other form to it.
 */
import { createRequire } from "node:module"
import { describe, expect, it } from "@effect/vitest"
import { makeTimestamptzParser } from "../../src/sql/timestamp-parser.js"

// The parser `pg` itself uses (the one @effect/sql-pg loads), as database.ts finds it.
const require = createRequire(import.meta.url)
const pgRequire = createRequire(require.resolve("@effect/sql-pg/PgClient"))
const pgTypes = pgRequire("pg").types as { getTypeParser: (oid: number, format: "text") => (text: string) => unknown }
const pgParse = pgTypes.getTypeParser(1184, "text")

const fallbacks: Array<string> = []
const parse = makeTimestamptzParser((text) => {
  fallbacks.push(text)
  return pgParse(text)
})

const millisOf = (value: unknown): number | string => (value instanceof Date ? value.getTime() : String(value))

describe("makeTimestamptzParser", () => {
  it("reads the UTC form as pg does, for every fraction of 1 to 4 digits and a spread of 5 and 6", () => {
    fallbacks.length = 0
    const texts: Array<string> = []
    for (let digits = 1; digits <= 6; digits++) {
      const step = digits <= 4 ? 1 : 37
      for (let fraction = 0; fraction < 10 ** digits; fraction += step) {
        texts.push(`2026-11-24 23:10:56.${String(fraction).padStart(digits, "0")}+00`)
      }
    }
    texts.push("2026-11-24 23:10:56+00", "1970-01-01 00:00:00+00", "2024-02-29 12:00:00.5+00", "0100-03-01 00:00:00+00")
    const differing = texts.filter((text) => millisOf(parse(text)) !== millisOf(pgParse(text)))
    expect(differing).toEqual([])
    expect(fallbacks).toEqual([])
  })

  it("hands every other form to pg's parser: offsets, BC, years past 9999 or below 100, infinity, odd text", () => {
    const others = [
      "2026-11-24 23:10:56+02",
      "2026-11-24 23:10:56.5-05:30",
      "2026-11-24 23:10:56+05:45",
      "0044-03-15 12:00:00+00 BC",
      "12026-11-24 23:10:56+00",
      "0099-12-31 23:59:59+00",
      "infinity",
      "-infinity",
      "2026-11-24T23:10:56+00",
      "2026-11-24 23:10:56.+00",
      "2026-11-24 23:10:56.1234567+00",
      "2026-1x-24 23:10:56+00"
    ]
    fallbacks.length = 0
    for (const text of others) expect(millisOf(parse(text))).toEqual(millisOf(pgParse(text)))
    expect(fallbacks).toEqual(others)
  })
})
