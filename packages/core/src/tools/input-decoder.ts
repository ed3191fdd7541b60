/**
 * Decoding a tool's input without Effect Schema's generic walk, for inputs that pass their schema (the walk is
 * compiled once per schema: see `schema-compiler.ts`). Every tool decodes strictly: all errors reported, unknown
 * fields refused. Any other input goes to `Schema.decodeUnknownEither`, so a bad input is refused with exactly the
 * errors it always had.
 */
import { type Either, type ParseResult, Schema } from "effect"
import { compile, type Direction, withFastPath } from "./schema-compiler.js"

const decoding: Direction = { decoding: true, options: { errors: "all", onExcessProperty: "error" } }

/** Whether every node of `schema` compiles, so that its valid inputs take the fast path (checked for every tool). */
export const decodesFast = (schema: Schema.Schema.Any): boolean => compile(schema.ast, decoding) !== undefined

/**
 * `Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })` with a compiled fast path:
 * the same answer for every input, taken without the generic walk whenever the input passes every check.
 */
export const makeInputDecoder = <A, I>(
  schema: Schema.Schema<A, I>
): ((input: unknown) => Either.Either<A, ParseResult.ParseError>) =>
  withFastPath(compile(schema.ast, decoding), Schema.decodeUnknownEither(schema, decoding.options))
