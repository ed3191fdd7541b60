/**
 * Spans on the hot path only when someone receives them. Effect's built-in tracer keeps spans in memory and
 * hands them to no one, yet every `Effect.withSpan` still captures a stack trace, allocates a span and adds it
 * to the context: on a cached tool call that cost more than the call's own logic (measured with the bench's
 * CPU profiles). Services on the hot path decide once, when they are built, whether to trace.
 */
import { Effect, FiberRef, type Tracer } from "effect"

// The tracer a runtime has when none was installed; an exporter (e.g. @effect/opentelemetry) replaces it.
const builtInTracer: Tracer.Tracer = Effect.runSync(Effect.tracer)

/**
 * Whether spans reach an exporter: the tracer is enabled and is not Effect's built-in one. Read it while a
 * service is built, where the server's tracer layer (if any) is already in place.
 */
export const spansExported: Effect.Effect<boolean> = Effect.zipWith(
  FiberRef.get(FiberRef.currentTracerEnabled),
  Effect.tracer,
  (enabled, tracer) => enabled && tracer !== builtInTracer
)

/** `Effect.withSpan` when `traced`, else nothing at all (not even the stack trace a span captures). */
export const spanWhen =
  (traced: boolean) =>
  (name: string, options?: Tracer.SpanOptions) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    traced ? Effect.withSpan(self, name, options) : self
