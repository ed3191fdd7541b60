/**
 * Encoding a tool's answer without Effect Schema's generic walk, for answers that pass their schema (the walk is
 * compiled once per schema: see `schema-compiler.ts`). Any other answer goes to `Schema.encodeEither`, so an answer
 * failing its schema fails with exactly the error it always had.
 */
import { type Either, type ParseResult, Schema } from "effect"
import { compile, type Direction, withFastPath } from "./schema-compiler.js"

const encoding: Direction = { decoding: false, options: {} }

/** Whether every node of `schema` compiles, so that its valid values take the fast path (checked for every tool). */
export const encodesFast = (schema: Schema.Schema.Any): boolean => compile(schema.ast, encoding) !== undefined

/**
 * `Schema.encodeEither(schema)` with a compiled fast path: the same answer for every value, taken without the
 * generic walk whenever the value passes every check on the way.
 */
export const makeAnswerEncoder = <A, I>(
  schema: Schema.Schema<A, I>
): ((value: A) => Either.Either<I, ParseResult.ParseError>) =>
  withFastPath(compile(schema.ast, encoding), Schema.encodeEither(schema))
