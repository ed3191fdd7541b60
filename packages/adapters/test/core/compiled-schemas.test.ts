/**
 * The compiled schema walks give what Effect Schema gives, for every tool: the answer encoder what
 * `Schema.encodeEither` gives of each answer schema, the input decoder what `Schema.decodeUnknownEither` (all
 * errors, unknown fields refused) gives of each input schema. The same result for valid values (generated from
 * each schema), and the same error for values that fail it.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { decodesFast, encodesFast, makeAnswerEncoder, makeInputDecoder, ToolRegistry } from "@svc/core/tools"
import { Arbitrary, Effect, Either, FastCheck, ParseResult, Schema } from "effect"
import { testCoreLayer } from "../support/core.js"

const SAMPLES = 10

// Each sample checks every third of its broken copies, a different third from the sample before, so each field and
// edge value is still checked (on three or four samples) for a third of the time.
const STRIDE = 3
const inTurn = <A>(copies: ReadonlyArray<A>, sample: number): Array<A> =>
  copies.filter((_, index) => index % STRIDE === sample % STRIDE)

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

// Inputs as JSON brings them: text where a field wants a number, numbers, null, a list, an object, a field the tool
// does not take, and every edge value above that JSON can carry.
const inputEdges: ReadonlyArray<unknown> = ["", "x".repeat(100_001), "7", 1.5, -1, 0, 101, null, true, [], ["a"], {}]

/** Copies of an input with one field, at the top or one level down, set to each edge value, left out, or added. */
const inputVariants = (input: unknown): Array<unknown> => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return [...inputEdges]
  const out: Array<unknown> = [{ ...input, unknownField: 1 }]
  for (const [key, field] of Object.entries(input)) {
    const { [key]: _left, ...without } = input as Record<string, unknown>
    out.push(without)
    for (const edge of inputEdges) out.push({ ...input, [key]: edge })
    if (typeof field === "object" && field !== null && !Array.isArray(field)) {
      out.push({ ...input, [key]: { ...field, unknownField: 1 } })
      for (const [inner] of Object.entries(field)) {
        for (const edge of inputEdges) out.push({ ...input, [key]: { ...field, [inner]: edge } })
      }
    }
    if (Array.isArray(field) && field.length > 0) {
      for (const edge of inputEdges) out.push({ ...input, [key]: [...field, edge] })
    }
  }
  return out
}

const SAMPLE_TIMEOUT_MS = 120_000

// The comparisons are synchronous: run back to back for every tool they hold the worker's event loop for minutes on
// a busy 2-core machine, and vitest's own messages to its main process time out ("Timeout calling onTaskUpdate"),
// failing the run. Between samples the test lets the event loop turn.
const letEventLoopTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

layer(testCoreLayer(), { timeout: "120 seconds" })("the compiled input decoder", (it) => {
  // A record (an index signature) goes to the full decoder: a table row's cells, and a product's `fields`.
  it.effect("compiles every tool's input schema but those that take records (table rows, product fields)", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      const slow = registry.tools.filter(({ tool }) => !decodesFast(tool.inputSchema)).map(({ tool }) => tool.name)
      expect(slow).toEqual([
        "svc_create_table",
        "svc_add_table_rows",
        "svc_update_table_rows",
        "svc_save_custom_ai_product",
        "svc_save_bundle"
      ])
    })
  )

  it.effect(
    "decodes generated inputs of every tool, and inputs broken in one field, as Schema does",
    () =>
      Effect.gen(function* () {
        const registry = yield* ToolRegistry
        // Only schemas the compiler takes: the others go to Schema's own decoder, which would be compared with itself.
        for (const { tool } of registry.tools.filter(({ tool }) => decodesFast(tool.inputSchema))) {
          const schema = tool.inputSchema as Schema.Schema<unknown, unknown>
          const fast = makeInputDecoder(schema)
          const full = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })
          // Generated on the type side, then encoded: the JSON a caller sends.
          const encode = Schema.encodeSync(schema)
          for (const [sample, value] of FastCheck.sample(Arbitrary.make(schema), {
            numRuns: SAMPLES,
            seed: 7
          }).entries()) {
            const input = JSON.parse(JSON.stringify(encode(value))) as unknown
            expectSame(fast(input), full(input))
            for (const variant of inTurn(inputVariants(input), sample)) expectSame(fast(variant), full(variant))
            yield* letEventLoopTurn
          }
          expectSame(fast(undefined), full(undefined))
          expectSame(fast("text"), full("text"))
        }
      }),
    // Hundreds of generated values per tool: seconds alone, far longer beside the rest of the suite on 2 cores.
    SAMPLE_TIMEOUT_MS
  )
})

layer(testCoreLayer(), { timeout: "120 seconds" })("the compiled answer encoder", (it) => {
  // A record (an index signature) goes to the full encoder: a table row's cells, and the store's rows that the
  // store tools answer as the store API's JSON (a product, a customer, a sale, a cohort).
  it.effect(
    "compiles every tool's answer schema but those that answer records (table rows, a skill's front matter)",
    () =>
      Effect.gen(function* () {
        const registry = yield* ToolRegistry
        const slow = registry.tools.filter(({ tool }) => !encodesFast(tool.outputSchema)).map(({ tool }) => tool.name)
        expect(slow).toEqual(["svc_read_table", "svc_add_table_rows", "svc_update_table_rows", "svc_get_skill"])
      })
  )

  it.effect(
    "encodes generated answers of every tool exactly as Schema.encodeEither does",
    () =>
      Effect.gen(function* () {
        const registry = yield* ToolRegistry
        for (const { tool } of registry.tools.filter(({ tool }) => encodesFast(tool.outputSchema))) {
          const schema = tool.outputSchema as Schema.Schema<unknown, unknown>
          const fast = makeAnswerEncoder(schema)
          const full = Schema.encodeEither(schema)
          for (const [sample, value] of FastCheck.sample(Arbitrary.make(schema), {
            numRuns: SAMPLES,
            seed: 7
          }).entries()) {
            expectSame(fast(value), full(value))
            for (const variant of inTurn(variants(value), sample)) expectSame(fast(variant), full(variant))
            yield* letEventLoopTurn
          }
        }
      }),
    SAMPLE_TIMEOUT_MS
  )
})

describe("parse options set on a schema node", () => {
  it("refuses unknown fields when encoding a struct that says so, as Schema does", () => {
    const Strict = Schema.Struct({ a: Schema.String }).annotations({ parseOptions: { onExcessProperty: "error" } })
    const schema = Schema.Struct({ inner: Strict })
    const value = { inner: { a: "x", extra: 1 } }
    const full = Schema.encodeEither(schema)(value)
    expect(Either.isLeft(full)).toBe(true)
    expectSame(makeAnswerEncoder(schema)(value), full)
  })

  it("drops unknown fields when decoding a struct that says to ignore them, as Schema does", () => {
    const Lenient = Schema.Struct({ a: Schema.String }).annotations({ parseOptions: { onExcessProperty: "ignore" } })
    const schema = Schema.Struct({ inner: Lenient })
    const input = { inner: { a: "x", extra: 1 } }
    const full = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })(input)
    expect(full).toEqual(Either.right({ inner: { a: "x" } }))
    expectSame(makeInputDecoder(schema)(input), full)
  })
})
