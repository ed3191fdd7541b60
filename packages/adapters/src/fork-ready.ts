/**
 * A runtime made ready for forking a fiber per request.
 *
 * A runtime taken inside a layer holds values that every fiber forked from it gets reset (the layer's fork scope,
 * the interruption cause of the fiber that built it), and Effect compares each old value with its reset with
 * `Equal.equals` on every fork, hashing a `Cause` on the way (~1 % of a cached tool call's CPU in the bench
 * profile). Built once with Effect's public `FiberRefs` API, so forking finds every value unchanged at once.
 */
import * as FiberId from "effect/FiberId"
import * as FiberRefs from "effect/FiberRefs"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"

/**
 * The same runtime, with each fiber ref already holding the value a fiber forked from it gets, wherever forking
 * that value again changes nothing (a ref reset on fork). A fiber forked from either runtime sees the same values.
 * Refs whose fork changes a value each time keep their value.
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
