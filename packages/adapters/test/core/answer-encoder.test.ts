/**
 * The compiled answer encoder gives what `Schema.encodeEither` gives, for every tool's answer schema: the same
 * encoded answer for valid values (generated from each schema), and the same error for values that fail it.
 */
import { expect, layer } from "@effect/vitest"
import { encodesFast, makeAnswerEncoder, ToolRegistry } from "@svc/core"
import { Arbitrary, Effect, Either, FastCheck, ParseResult, Schema } from "effect"
import { testCoreLayer } from "../support/core.js"

const SAMPLES = 10

// Equal as JSON text too: the order of an object's fields is part of the answer an agent reads.
const expectSame = (fast: Either.Either<unknown, ParseResult.ParseError>, full: typeof fast) => {
  if (Either.isRight(full)) {
    expect(fast).toEqual(full)
    expect(JSON.stringify(Either.getOrThrow(fast))).toBe(JSON.stringify(full.right))
  } else {
    expect(Either.isLeft(fast)).toBe(true)
    if (Either.isLeft(fast))
      expect(ParseResult.TreeFormatter.formatErrorSync(fast.left)).toBe(
        ParseResult.TreeFormatter.formatErrorSync(full.left)
      )
  }
}

// Values that pass a field's base type but break common refinements: empty and over-long text, a fraction where a
// whole number is due, a negative count, an impossible date.
const edgeValues: ReadonlyArray<unknown> = ["", "x".repeat(100_001), 1.5, -1, new Date(Number.NaN), Symbol("no")]

/** A copy of `object` with `key` set to `field`, of the same class (so a class's own check still passes). */
const withField = (object: object, key: string, field: unknown): object =>
  Object.assign(Object.create(Object.getPrototypeOf(object)), object, { [key]: field })

/** Copies of `value` with one field, at the top or one level down, set to each edge value. */
const variants = (value: unknown): Array<unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [...edgeValues]
  const out: Array<unknown> = []
  for (const [key, field] of Object.entries(value)) {
    for (const edge of edgeValues) out.push(withField(value, key, edge))
    if (typeof field === "object" && field !== null && !Array.isArray(field) && !(field instanceof Date)) {
      for (const [inner] of Object.entries(field)) {
        for (const edge of edgeValues) out.push(withField(value, key, withField(field, inner, edge)))
      }
    }
  }
  return out
}

layer(testCoreLayer(), { timeout: "120 seconds" })("the compiled answer encoder", (it) => {
  // A table row's cells are a record (an index signature), which goes to the full encoder.
  it.effect("compiles every tool's answer schema but the three that answer table rows", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      const slow = registry.tools.filter(({ tool }) => !encodesFast(tool.outputSchema)).map(({ tool }) => tool.name)
      expect(slow).toEqual(["svc_read_table", "svc_add_table_rows", "svc_update_table_rows"])
    })
  )

  it.effect("encodes generated answers of every tool exactly as Schema.encodeEither does", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      for (const { tool } of registry.tools) {
        const schema = tool.outputSchema as Schema.Schema<unknown, unknown>
        const fast = makeAnswerEncoder(schema)
        const full = Schema.encodeEither(schema)
        for (const value of FastCheck.sample(Arbitrary.make(schema), { numRuns: SAMPLES, seed: 7 })) {
          expectSame(fast(value), full(value))
          for (const variant of variants(value)) expectSame(fast(variant), full(variant))
        }
      }
    })
  )
})
