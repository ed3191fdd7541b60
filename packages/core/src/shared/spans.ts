/**
 * Spans that cost nothing while the tracer is off.
 *
 * With the tracer disabled (no exporter configured), `Effect.withSpan` still makes a no-op span, copies the fiber's
 * whole context to make it the parent, and registers an exit hook to end it: measured in-process on a cached tool
 * call, the four spans of the call path took it from ~90 to ~200 µs of CPU. `withSpan` here reads the same flag
 * Effect reads (`FiberRef.currentTracerEnabled`) when the effect runs, and makes the span exactly as
 * `Effect.withSpan` does when the tracer is on; when it is off, the effect runs as it is. Every caller takes the
 * same path either way; only Effect's no-op span is left out (docs/performance.md).
 */
import { Effect, FiberRef, type Tracer } from "effect"

/** `Effect.withSpan(name, options)`, skipped while the tracer is disabled. */
export const withSpan =
  (name: string, options?: Tracer.SpanOptions) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiberRuntime<A, E, R>((fiber) =>
      fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.withSpan(self, name, options) : self
    )
