/**
 * Lookups by key that calls make at about the same time, run as one statement.
 *
 * Under concurrent load every tool call that reads one row by id paid a round trip of its own: the driver's work
 * on both sides, two system calls and a wake-up of the event loop, and a parse and plan share on the database.
 * That was close to half of a cached read's CPU. A lookup made outside a transaction waits until the event loop
 * has taken every request that arrived with it (`setImmediate`), then all the keys gathered go in one statement
 * (the DataLoader pattern). Alone, a lookup waits one turn of the loop; with ten callers at once, the bench saw
 * five to six keys per statement.
 *
 * Inside a transaction a lookup runs at once, alone, on the transaction's connection: it must see the
 * transaction's own writes, and a transaction's statements are never shared with other callers.
 *
 * The shared statement runs in a span of its own (`name`), linked to the span of every caller it answers: it
 * belongs to no one caller's trace.
 */
import { withSpan } from "@svc/core/shared"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as Tracer from "effect/Tracer"
import { makeFiberPool } from "../fiber-pool.js"
import { transactionOf } from "./lean.js"

/** Default of {@link BatchedLookupOptions.maxKeys}. */
export const DEFAULT_MAX_KEYS = 100

/** How a batched lookup reads its rows. */
export interface BatchedLookupOptions<Key, Row, E> {
  /** The span of a shared statement, e.g. `ItemsRepo.findNote batch`. */
  readonly name: string
  /** Looks up `keys` in one statement: the answer to each key at its position, `undefined` where none. */
  readonly run: (keys: ReadonlyArray<Key>) => Effect.Effect<ReadonlyArray<Row | undefined>, E>
  /** The most keys in one statement; more gathered at once go in several (default {@link DEFAULT_MAX_KEYS}). */
  readonly maxKeys?: number
}

/** One row by its key, the lookups of the same moment sharing a statement. */
export type BatchedLookup<Key, Row, E> = (key: Key) => Effect.Effect<Option.Option<Row>, E>

interface Waiting<Key, Row, E> {
  readonly key: Key
  /** The caller's span, linked from the shared statement's. */
  readonly span: Tracer.AnySpan | undefined
  /** The caller, to leave out its key when it was interrupted before its statement went out. */
  readonly fiber: Fiber.RuntimeFiber<unknown, unknown>
  /** Whether the caller waits interruptibly: an interruption ends only such a wait. */
  readonly interruptible: boolean
  readonly answer: (exit: Exit.Exit<Option.Option<Row>, E>) => void
}

// The wait registers no canceler: with one, Effect wraps the wait in an interruption handler, about seven more
// run-loop steps on every lookup. Nothing needs it. A caller interrupted before the statement
// goes out is left out of it (`stillWaiting`), and an answer to a caller interrupted later is dropped by the
// fiber itself, which takes only the first resumption of a wait. A caller that waits uninterruptibly (inside
// `Effect.uninterruptible`, a shared `Cache` lookup say) still waits after an interruption reached it, so it keeps
// its place: left out, it would never be answered.
const stillWaiting = <Key, Row, E>(waiting: Waiting<Key, Row, E>): boolean =>
  !waiting.interruptible || Cause.isEmpty(waiting.fiber.getFiberRef(FiberRef.interruptedCause))

/**
 * Builds a lookup whose calls outside a transaction are gathered per turn of the event loop. When a shared
 * statement fails, each of its keys is looked up again alone: a key the database refuses fails its own caller
 * only, and a database that is down fails each caller with its own statement's error.
 */
export const makeBatchedLookup = <Key, Row, E>(
  options: BatchedLookupOptions<Key, Row, E>
): Effect.Effect<BatchedLookup<Key, Row, E>> =>
  Effect.map(Effect.runtime<never>(), (runtime) => {
    const runInPool = makeFiberPool(runtime)
    const maxKeys = Math.max(1, options.maxKeys ?? DEFAULT_MAX_KEYS)
    let gathered: Array<Waiting<Key, Row, E>> = []

    const runPart = (part: ReadonlyArray<Waiting<Key, Row, E>>) => {
      const statement = options.run(part.map((waiting) => waiting.key))
      const traced = withSpan(options.name, {
        captureStackTrace: false,
        attributes: { "db.batch.size": part.length },
        links: part.flatMap(({ span }) =>
          span === undefined ? [] : [{ _tag: "SpanLink" as const, span, attributes: {} }]
        )
      })(statement)
      runInPool(traced, (exit) => {
        if (Exit.isFailure(exit) && part.length > 1) {
          // One key can fail a whole statement (text the database refuses, say): each key goes again alone, so
          // only its own caller sees the failure.
          for (const waiting of part) if (stillWaiting(waiting)) runPart([waiting])
          return
        }
        part.forEach((waiting, index) => {
          waiting.answer(Exit.map(exit, (rows) => Option.fromNullable(rows[index])))
        })
      })
    }

    const flush = () => {
      const batch = gathered.filter(stillWaiting)
      gathered = []
      for (let start = 0; start < batch.length; start += maxKeys) runPart(batch.slice(start, start + maxKeys))
    }

    const alone = (key: Key) => Effect.map(options.run([key]), (rows) => Option.fromNullable(rows[0]))

    return (key) =>
      Effect.withFiberRuntime<Option.Option<Row>, E>((fiber, status) => {
        const context = fiber.currentContext
        if (Option.isSome(transactionOf(context))) return alone(key)
        return Effect.async<Option.Option<Row>, E>((resume) => {
          const span = Option.getOrUndefined(Context.getOption(context, Tracer.ParentSpan))
          const interruptible = RuntimeFlags.interruptible(status.runtimeFlags)
          gathered.push({ key, span, fiber, interruptible, answer: resume })
          if (gathered.length === 1) setImmediate(flush)
        })
      })
  })

/**
 * The keys as the one parameter of a batched statement, which reads them with
 * `jsonb_to_recordset($1::jsonb) AS k(n int, …)`: each key's fields and its position `n`. JSON carries any text
 * safely and reads the same on PostgreSQL and PGlite.
 */
export const keysParameter = (keys: ReadonlyArray<Readonly<Record<string, string>>>): string =>
  JSON.stringify(keys.map((key, n) => ({ ...key, n })))

/** Rows that carry their key's position `n`, put back in key order: `undefined` where a key found none. */
export const inKeyOrder = <Row extends { readonly n: number }>(
  rows: ReadonlyArray<Row>,
  keys: number
): Array<Row | undefined> => {
  const ordered = new Array<Row | undefined>(keys).fill(undefined)
  for (const row of rows) if (row.n >= 0 && row.n < keys) ordered[row.n] = row
  return ordered
}
