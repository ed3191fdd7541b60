/**
 * Statements on the hot path, run without `@effect/sql`'s per-statement machinery.
 *
 * A `sql` template of `@effect/sql` compiles its text on every run, opens a scope, and looks up its connection
 * through the fiber's context: measured with the bench, about 100 µs of CPU per statement, more than the `pg`
 * driver's own work and a quarter of a cached tool call. A `LeanSql` statement fixes its text once per call site
 * (a template's strings are one object per site), and runs it straight on a connection through the public
 * `Connection` interface: the transaction's when inside `sql.withTransaction` (read from `@effect/sql`'s public
 * `TransactionConnection` tag, so it takes part in it), else the engine's autocommit one. It takes plain values
 * only (no fragments, identifiers or helpers); dynamic SQL stays with `sql`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { withSpan } from "@svc/core/shared"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"

/** A value a lean statement binds as a parameter. */
export type LeanValue = string | number | boolean | Date | null

/**
 * Runs a fixed statement: ``lean<Row>`SELECT … WHERE id = ${id}` `` answers the rows. Each `${…}` becomes a
 * parameter (`$1`, `$2`, …), never text.
 */
export type LeanSql = <Row extends object = Record<string, unknown>>(
  strings: TemplateStringsArray,
  ...values: ReadonlyArray<LeanValue>
) => Effect.Effect<ReadonlyArray<Row>, SqlError>

/** The lean statement runner of the database in use. */
export const LeanSql = Context.GenericTag<LeanSql>("svc/sql/LeanSql")

/** What runs a statement outside a transaction: the engine's autocommit connection. */
export type Autocommit = Pick<Connection, "execute">

const texts = new WeakMap<TemplateStringsArray, string>()

/** The SQL text of a template: its strings joined by `$1`, `$2`, …; computed once per call site. */
export const leanText = (strings: TemplateStringsArray): string => {
  let text = texts.get(strings)
  if (text === undefined) {
    text = strings.reduce((joined, part, index) => `${joined}$${index}${part}`)
    texts.set(strings, text)
  }
  return text
}

/** The transaction `sql.withTransaction` put in `context`, if any: its connection and savepoint depth. */
export const transactionOf = (context: Context.Context<never>) =>
  Context.getOption(context as Context.Context<SqlClient.TransactionConnection>, SqlClient.TransactionConnection)

/**
 * A `LeanSql` over an engine's autocommit connection. Each statement gets the `sql.execute` span `@effect/sql`
 * would have given it (none while the tracer is off).
 */
export const makeLeanSql = (autocommit: Autocommit): LeanSql => {
  const run = (text: string, values: ReadonlyArray<LeanValue>) =>
    Effect.contextWithEffect((context: Context.Context<never>) => {
      const transaction = transactionOf(context)
      const connection = Option.isSome(transaction) ? transaction.value[0] : autocommit
      return connection.execute(text, values, undefined)
    })
  return <Row extends object>(strings: TemplateStringsArray, ...values: ReadonlyArray<LeanValue>) => {
    const text = leanText(strings)
    return withSpan("sql.execute", {
      kind: "client",
      captureStackTrace: false,
      attributes: { "db.operation.name": "execute", "db.query.text": text }
    })(run(text, values) as Effect.Effect<ReadonlyArray<Row>, SqlError>)
  }
}

/**
 * `LeanSql` for a `SqlClient` this package did not build (an embedding backend's own): statements run through
 * the client's regular path (`sql.unsafe`), so they cost what `sql` costs but behave the same.
 */
export const LeanSqlFromClient: Layer.Layer<LeanSql, never, SqlClient.SqlClient> = Layer.effect(
  LeanSql,
  Effect.map(
    SqlClient.SqlClient,
    (sql): LeanSql =>
      <Row extends object>(strings: TemplateStringsArray, ...values: ReadonlyArray<LeanValue>) =>
        sql.unsafe<Row>(leanText(strings), values)
  )
)
