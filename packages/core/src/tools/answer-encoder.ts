/**
 * Encoding a tool's answer without Effect Schema's generic walk, for answers that pass their schema.
 *
 * `Schema.encodeEither` walks the schema's AST for every answer, building wrappers and options as it goes; on the
 * bench's cached `tools/call` that walk was ~10 % of the call's CPU outside the HTTP stack. Here the walk is done
 * once per schema: each node becomes a small function that checks and encodes a value the way `ParseResult` does,
 * calling the schema's own pieces (refinement filters, declarations such as a class's `instanceof` check, the
 * transformations such as a date's `toISOString`). Only the nodes tool answers use are compiled: structs and
 * classes, arrays, literals, strings, numbers, booleans, `undefined`, unions of those with at most one other
 * member, refinements and final transformations. Anything else, and any value a check turns down, goes to
 * `Schema.encodeEither`, so an answer failing its schema fails with exactly the error it always had.
 */
import { Either, Option, ParseResult, Predicate, Schema, SchemaAST } from "effect"

/** A compiled node: the encoded value, or `MISMATCH` when the value needs the full encoder. */
type Encode = (value: unknown) => unknown

const MISMATCH: unique symbol = Symbol("svc/answer-encoder/mismatch")

const options: SchemaAST.ParseOptions = {}

/**
 * The value of a schema piece's answer that is already there: the pieces answer with an effect, in practice an
 * `Either` (a subtype of `Effect`); a failure, or an effect that would have to run, is `MISMATCH`.
 */
const rightOf = (result: unknown): unknown =>
  Either.isEither(result) && Either.isRight(result) ? result.right : MISMATCH

/** A check on a value that encodes to itself: literals and keywords. `undefined` for every other node. */
const leafCheck = (ast: SchemaAST.AST): ((value: unknown) => boolean) | undefined => {
  switch (ast._tag) {
    case "Literal": {
      const literal = ast.literal
      return (value) => value === literal
    }
    case "StringKeyword":
      return (value) => typeof value === "string"
    case "NumberKeyword":
      return (value) => typeof value === "number"
    case "BooleanKeyword":
      return (value) => typeof value === "boolean"
    case "UndefinedKeyword":
      return (value) => value === undefined
    default:
      return undefined
  }
}

const fromCheck =
  (check: (value: unknown) => boolean): Encode =>
  (value) =>
    check(value) ? value : MISMATCH

// A refinement is encoded by checking the value against its type (the base and every filter), then encoding the
// base without the filters, as `ParseResult` does. Over a leaf the checks run here; over anything else (a date is a
// refinement of a transformation) the type side is checked by `ParseResult.is`, which for those is a short walk.
const compileRefinement = (ast: SchemaAST.Refinement): Encode | undefined => {
  const filters: Array<SchemaAST.Refinement> = []
  let base: SchemaAST.AST = ast
  while (SchemaAST.isRefinement(base)) {
    filters.unshift(base)
    base = base.from
  }
  const check = leafCheck(base)
  if (check !== undefined) {
    return (value) => {
      if (!check(value)) return MISMATCH
      for (const refinement of filters)
        if (Option.isSome(refinement.filter(value, options, refinement))) return MISMATCH
      return value
    }
  }
  const encodeBase = compile(base)
  if (encodeBase === undefined) return undefined
  const isType = ParseResult.is(Schema.make(SchemaAST.typeAST(ast)))
  return (value) => (isType(value) ? encodeBase(value) : MISMATCH)
}

const compileTypeLiteral = (ast: SchemaAST.TypeLiteral): Encode | undefined => {
  if (ast.indexSignatures.length > 0) return undefined
  const fields: Array<{ readonly name: string; readonly optional: boolean; readonly encode: Encode }> = []
  for (const signature of ast.propertySignatures) {
    if (typeof signature.name !== "string") return undefined
    const encode = compile(signature.type)
    if (encode === undefined) return undefined
    fields.push({ name: signature.name, optional: signature.isOptional, encode })
  }
  return (value) => {
    // The check `ParseResult` makes of a struct's input.
    if (!Predicate.isRecord(value)) return MISMATCH
    // Only the declared fields, in their declared order: what `ParseResult` keeps of an object when encoding.
    const output: Record<string, unknown> = {}
    for (const field of fields) {
      const present = Object.hasOwn(value, field.name)
      if (!present && field.optional) continue
      const encoded = field.encode(value[field.name])
      if (encoded === MISMATCH) return MISMATCH
      output[field.name] = encoded
    }
    return output
  }
}

const compileArray = (ast: SchemaAST.TupleType): Encode | undefined => {
  const [rest] = ast.rest
  if (ast.elements.length > 0 || ast.rest.length !== 1 || rest === undefined) return undefined
  const encodeItem = compile(rest.type)
  if (encodeItem === undefined) return undefined
  return (value) => {
    if (!Array.isArray(value)) return MISMATCH
    const output = new Array<unknown>(value.length)
    for (let index = 0; index < value.length; index++) {
      const encoded = encodeItem(value[index])
      if (encoded === MISMATCH) return MISMATCH
      output[index] = encoded
    }
    return output
  }
}

// The member other than the leaves must either hold objects (a struct, an array, a class, a date), so that a value
// a leaf takes (a primitive) is one it does not take, or encode every value as itself as the leaves do (a refined
// leaf, a union of leaves): either way the encoded value is the one `ParseResult` gives, whichever member it picks.
// A union with two other members, or one that turns primitives into something else (a number sent as a string),
// goes to the full encoder.
const withoutRefinements = (ast: SchemaAST.AST): SchemaAST.AST =>
  SchemaAST.isRefinement(ast) ? withoutRefinements(ast.from) : ast

const encodesAsItself = (ast: SchemaAST.AST): boolean => {
  const base = withoutRefinements(ast)
  return leafCheck(base) !== undefined || (SchemaAST.isUnion(base) && base.types.every(encodesAsItself))
}

const safeBesideLeaves = (ast: SchemaAST.AST): boolean => {
  if (encodesAsItself(ast)) return true
  const type = withoutRefinements(SchemaAST.typeAST(ast))
  return SchemaAST.isTypeLiteral(type) || SchemaAST.isTupleType(type) || SchemaAST.isDeclaration(type)
}

const compileUnion = (ast: SchemaAST.Union): Encode | undefined => {
  const leaves: Array<(value: unknown) => boolean> = []
  const others: Array<SchemaAST.AST> = []
  for (const member of ast.types) {
    const check = leafCheck(member)
    if (check === undefined) others.push(member)
    else leaves.push(check)
  }
  const [other] = others
  if (others.length > 1 || (other !== undefined && !safeBesideLeaves(other))) return undefined
  const encodeOther = other === undefined ? undefined : compile(other)
  if (other !== undefined && encodeOther === undefined) return undefined
  return (value) => {
    for (const check of leaves) if (check(value)) return value
    return encodeOther === undefined ? MISMATCH : encodeOther(value)
  }
}

// The type side is checked (a class's `instanceof`, a date's validity), transformed back, then the encoded side
// encoded: the order of `ParseResult`.
const compileTransformation = (ast: SchemaAST.Transformation): Encode | undefined => {
  const transformation = ast.transformation
  if (!SchemaAST.isFinalTransformation(transformation)) return undefined
  const checkType = compile(ast.to)
  const encodeFrom = compile(ast.from)
  if (checkType === undefined || encodeFrom === undefined) return undefined
  return (value) => {
    const typed = checkType(value)
    if (typed === MISMATCH) return MISMATCH
    const transformed = rightOf(transformation.encode(typed, options, ast, value))
    return transformed === MISMATCH ? MISMATCH : encodeFrom(transformed)
  }
}

const compileDeclaration = (ast: SchemaAST.Declaration): Encode => {
  const encode = ast.encodeUnknown(...ast.typeParameters)
  return (value) => rightOf(encode(value, options, ast))
}

const compile = (ast: SchemaAST.AST): Encode | undefined => {
  const check = leafCheck(ast)
  if (check !== undefined) return fromCheck(check)
  switch (ast._tag) {
    case "Refinement":
      return compileRefinement(ast)
    case "TypeLiteral":
      return compileTypeLiteral(ast)
    case "TupleType":
      return compileArray(ast)
    case "Union":
      return compileUnion(ast)
    case "Transformation":
      return compileTransformation(ast)
    case "Declaration":
      return compileDeclaration(ast)
    default:
      return undefined
  }
}

/** Whether every node of `schema` compiles, so that its valid values take the fast path (checked for every tool). */
export const encodesFast = (schema: Schema.Schema.Any): boolean => compile(schema.ast) !== undefined

/**
 * `Schema.encodeEither(schema)` with a compiled fast path: the same answer for every value, taken without the
 * generic walk whenever the value passes every check on the way.
 */
export const makeAnswerEncoder = <A, I>(
  schema: Schema.Schema<A, I>
): ((value: A) => Either.Either<I, ParseResult.ParseError>) => {
  const full = Schema.encodeEither(schema)
  const fast = compile(schema.ast)
  if (fast === undefined) return full
  return (value) => {
    const encoded = fast(value)
    // The compiled walk only ever answers with what the schema's encoded type holds.
    return encoded === MISMATCH ? full(value) : Either.right(encoded as I)
  }
}
