/**
 * Reading a `Cache` that calls share.
 *
 * Callers that ask a `Cache` for the same key while it is being looked up share one lookup, run in the fiber of the
 * first of them. When that fiber is interrupted (its client went away), `Cache` ends the lookup and hands the
 * interruption to every other caller waiting on it: their calls ended unanswered although their clients were
 * still there (the abort storm of `adapters/test/http/abort-storm.test.ts` lost about one call in a thousand so).
 * Read through {@link getUninterrupted}, a lookup always runs to its end and each caller gets its result; a caller
 * that was interrupted meanwhile ends right after. Lookups here are one or two short statements, so the delay is
 * that of the statements.
 */
import type * as Cache from "effect/Cache"
import * as Effect from "effect/Effect"

/** `cache.get(key)`, never ended part-way by the caller's interruption, so a lookup others wait on always ends. */
export const getUninterrupted = <Key, Value, Error>(
  cache: Cache.Cache<Key, Value, Error>,
  key: Key
): Effect.Effect<Value, Error> => Effect.uninterruptible(cache.get(key))
