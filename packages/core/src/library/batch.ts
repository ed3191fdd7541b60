import { Effect, Either } from "effect"
import { InvalidInput } from "../shared/errors.js"

/** Checks every entry, failing with one `InvalidInput` that lists every bad field (fixed in one round). */
export const checkEach = <A, B>(
  entries: ReadonlyArray<A>,
  check: (entry: A, index: number) => Effect.Effect<B, InvalidInput>
): Effect.Effect<ReadonlyArray<B>, InvalidInput> =>
  Effect.flatMap(
    Effect.forEach(entries, (entry, i) => Effect.either(check(entry, i))),
    (results) => {
      const problems = results.flatMap((r) => (Either.isLeft(r) ? r.left.errors : []))
      if (problems.length === 0) return Effect.succeed(results.flatMap((r) => (Either.isRight(r) ? [r.right] : [])))
      const message = problems.map((problem) => `${problem.path}: ${problem.message}`).join("; ")
      return Effect.fail(new InvalidInput({ message, errors: problems }))
    }
  )

/**
 * Runs `f` over the entries one by one in the order of their keys and answers in the given order: concurrent
 * saves then take row locks in one global order and cannot deadlock (A-then-B against B-then-A).
 */
export const inKeyOrder = <A, B, E, R>(
  entries: ReadonlyArray<A>,
  key: (entry: A) => string,
  f: (entry: A) => Effect.Effect<B, E, R>
): Effect.Effect<ReadonlyArray<B>, E, R> => {
  const order = entries.map((entry, index) => ({ entry, index, key: key(entry) }))
  order.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index))
  return Effect.map(
    Effect.forEach(order, ({ entry, index }) => Effect.map(f(entry), (result) => ({ index, result }))),
    (done) => [...done].sort((a, b) => a.index - b.index).map(({ result }) => result)
  )
}
