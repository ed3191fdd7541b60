/**
 * Starting the fibers of single requests without entering them in Effect's set of root fibers.
 *
 * Every fiber `Runtime.runFork` starts goes into one global `Set` (Effect's global fiber scope) and leaves it when
 * it ends; the set serves only `Fiber.roots`, a debugging listing. With a fiber per tool call, that set changes
 * thousands of times a second, and the request fibers then outlive young collections: measured on the bench (a
 * cached `tools/call`, PostgreSQL, 10 connections), each young collection promoted ~590 KB of request state (the
 * fibers, the handlers' state, the encoded answers) to the old generation, where only a full collection frees it;
 * with request fibers kept out of the set the promotion fell to ~140 KB and a call took ~9 % less CPU. (The likely
 * cause: V8 links each replaced table of a set to its successor, so one table that reached the old generation
 * keeps every later one, and the fibers they name, alive until a full collection.)
 *
 * Effect has no option for this, so the fibers started here are kept out of the set by wrapping the global
 * scope's `add` once: the wrapper skips exactly the next call after `untrackedRunFork` asks it to, which
 * `Runtime.runFork` makes before the fiber runs a step. Every other fiber (the server's own, the workers', any a
 * request forks) is still entered. When Effect's global scope is not where this expects it (a different version),
 * nothing is wrapped and the fibers start tracked as before; `test/core/untracked-fibers.test.ts` fails then, so an
 * upgrade that moves it does not go unnoticed.
 *
 * The runtime the fibers start from is also made ready for forking once (`forkReady`): a runtime taken inside a
 * layer holds values that every fiber forked from it gets reset (the layer's fork scope, the interruption cause of
 * the fiber that built it), and Effect compared each old value with its reset with `Equal.equals` on every fork,
 * hashing a `Cause` on the way (~1 % of a cached tool call's CPU in the bench profile).
 */
import type * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as FiberRefs from "effect/FiberRefs"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Runtime from "effect/Runtime"

interface GlobalFiberScope {
  add: (runtimeFlags: unknown, child: unknown) => void
}

// Where Effect 3 keeps its global values (`GlobalValue.globalValue`) and the key of its global fiber scope.
const GLOBAL_STORE = "effect/GlobalValue"
const GLOBAL_SCOPE = Symbol.for("effect/FiberScope/Global")

const isGlobalFiberScope = (value: unknown): value is GlobalFiberScope =>
  Predicate.hasProperty(value, "add") &&
  Predicate.isFunction(value.add) &&
  Predicate.hasProperty(value, "roots") &&
  value.roots instanceof Set

const findGlobalFiberScope = (): GlobalFiberScope | undefined => {
  const store: unknown = Reflect.get(globalThis, GLOBAL_STORE)
  if (!(store instanceof Map)) return undefined
  const scope: unknown = store.get(GLOBAL_SCOPE)
  return isGlobalFiberScope(scope) ? scope : undefined
}

// Set just before a fork that should skip the set, and cleared by the very next `add` (or after the fork).
let skipNext = false
let wrapped: boolean | undefined

const wrapGlobalScope = (): boolean => {
  if (wrapped !== undefined) return wrapped
  const scope = findGlobalFiberScope()
  if (scope === undefined) {
    wrapped = false
    return wrapped
  }
  const add = scope.add
  scope.add = function (this: GlobalFiberScope, runtimeFlags: unknown, child: unknown) {
    if (skipNext) {
      skipNext = false
      return
    }
    add.call(this, runtimeFlags, child)
  }
  wrapped = true
  return wrapped
}

/** Whether the fibers `untrackedRunFork` starts skip Effect's root set (false when its global scope was not found). */
export const rootSetSkipped = (): boolean => wrapGlobalScope()

/**
 * The same runtime, with each fiber ref already holding the value a fiber forked from it gets, wherever forking
 * that value again changes nothing (a ref reset on fork). A fiber forked from either runtime sees the same values;
 * from this one, forking finds every value unchanged at once. Refs whose fork changes a value each time keep
 * their value.
 */
export const forkReady = <R>(runtime: Runtime.Runtime<R>): Runtime.Runtime<R> => {
  const id = FiberId.unsafeMake()
  const once = FiberRefs.forkAs(runtime.fiberRefs, id)
  const twice = FiberRefs.forkAs(once, id)
  let fiberRefs = runtime.fiberRefs
  for (const fiberRef of FiberRefs.fiberRefs(runtime.fiberRefs)) {
    const original = FiberRefs.get(runtime.fiberRefs, fiberRef)
    const forked = FiberRefs.get(once, fiberRef)
    const again = FiberRefs.get(twice, fiberRef)
    if (Option.isNone(original) || Option.isNone(forked) || Option.isNone(again)) continue
    if (forked.value !== original.value && forked.value === again.value) {
      fiberRefs = FiberRefs.updateAs(fiberRefs, { fiberId: id, fiberRef, value: forked.value })
    }
  }
  return Runtime.make({ context: runtime.context, runtimeFlags: runtime.runtimeFlags, fiberRefs })
}

/**
 * `Runtime.runFork(runtime)` for fibers that serve one request: the same fiber, started the same way, but not
 * entered in Effect's set of root fibers (so `Fiber.roots` does not list them). Interruption, observers and
 * everything else work as with `Runtime.runFork`.
 */
export const untrackedRunFork = <R>(
  runtime: Runtime.Runtime<R>
): (<A, E>(effect: Effect.Effect<A, E, R>) => Fiber.RuntimeFiber<A, E>) => {
  const runFork = Runtime.runFork(forkReady(runtime))
  if (!wrapGlobalScope()) return (effect) => runFork(effect)
  return (effect) => {
    skipNext = true
    try {
      return runFork(effect)
    } finally {
      skipNext = false
    }
  }
}
