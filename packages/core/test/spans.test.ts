import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Tracer } from "effect"
import { withSpan } from "../src/shared/spans.js"

// A tracer that keeps the names of the spans it is asked for, standing in for an exporter.
const recordingTracer = (names: Array<string>) => {
  const builtIn = Effect.runSync(Effect.tracer)
  return Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      names.push(name)
      return builtIn.span(name, parent, context, links, startTime, kind, options)
    },
    context: (f) => f()
  })
}

const parentName = Effect.map(
  Effect.option(Effect.currentSpan),
  Option.map((span) => span.name)
)

describe("withSpan", () => {
  it.effect("makes the span, as Effect.withSpan does, while the tracer is on", () =>
    Effect.gen(function* () {
      const names: Array<string> = []
      const inner = yield* parentName.pipe(
        withSpan("Inner.call", { attributes: { tool: "t" } }),
        withSpan("Outer.call"),
        Effect.withTracer(recordingTracer(names))
      )
      expect(names).toEqual(["Outer.call", "Inner.call"])
      expect(inner).toEqual(Option.some("Inner.call"))
    })
  )

  it.effect("runs the effect as it is, with no span at all, while the tracer is off", () =>
    Effect.gen(function* () {
      const names: Array<string> = []
      const inner = yield* parentName.pipe(
        withSpan("Skipped.call"),
        Effect.withTracer(recordingTracer(names)),
        Effect.withTracerEnabled(false)
      )
      expect(names).toEqual([])
      expect(inner).toEqual(Option.none())
    })
  )

  it.effect("keeps the effect's failure and value", () =>
    Effect.gen(function* () {
      expect(yield* Effect.succeed(1).pipe(withSpan("Value.call"))).toBe(1)
      const failed = yield* Effect.fail("no").pipe(withSpan("Failure.call"), Effect.flip)
      expect(failed).toBe("no")
    })
  )
})
