import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Tracer } from "effect"
import { spansExported, spanWhen } from "../src/shared/tracing.js"

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

describe("spans on the hot path", () => {
  it.effect("are not exported with Effect's built-in tracer, nor when the tracer is off", () =>
    Effect.gen(function* () {
      expect(yield* spansExported).toBe(false)
      const names: Array<string> = []
      expect(yield* spansExported.pipe(Effect.withTracer(recordingTracer(names)))).toBe(true)
      expect(
        yield* spansExported.pipe(Effect.withTracer(recordingTracer(names)), Effect.withTracerEnabled(false))
      ).toBe(false)
    })
  )

  it.effect("are made when exported and skipped entirely otherwise", () =>
    Effect.gen(function* () {
      const names: Array<string> = []
      const inSpan = Effect.map(
        Effect.option(Effect.currentSpan),
        Option.map((span) => span.name)
      )
      const traced = yield* inSpan.pipe(spanWhen(true)("Traced.call"), Effect.withTracer(recordingTracer(names)))
      expect(traced).toEqual(Option.some("Traced.call"))
      expect(names).toEqual(["Traced.call"])
      const skipped = yield* inSpan.pipe(spanWhen(false)("Skipped.call"), Effect.withTracer(recordingTracer(names)))
      expect(skipped).toEqual(Option.none())
      expect(names).toEqual(["Traced.call"])
    })
  )
})
