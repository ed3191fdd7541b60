/**
 * Tool schemas compiled, once each, into small functions that decode an input or encode an answer the way
 * Effect Schema's `ParseResult` does, for values that pass the schema.
 *
 * `Schema.decodeUnknownEither` and `Schema.encodeEither` walk the schema's AST for every value, building wrappers
 * and options as they go; on the bench's cached `tools/call` the answer's walk was ~10 % of the call's CPU outside
 * the HTTP stack, and the input's ~3 %. Here the walk is done once per schema. Each node becomes a function that
 * checks and converts a value as `ParseResult` does, calling the schema's own pieces (refinement filters,
 * declarations such as a class's `instanceof` check, transformations such as a date's `toISOString`). Only the
 * nodes tool schemas use are compiled: structs and classes, arrays, literals, strings, numbers, booleans,
 * `undefined`, unions of those with at most one other member, refinements, final transformations and
 * compositions. A node
 * anything else is made of does not compile, and a value any check turns down is `MISMATCH`: the callers
 * (`answer-encoder.ts`, `input-decoder.ts`) then use the full walk, so a failing value fails with exactly the
 * error it always had.
 */
import { Either, Option, ParseResult, Predicate, Schema, SchemaAST } from "effect"

/** A compiled node: the decoded or encoded value, or `MISMATCH` when the value needs the full walk. */
export type Compiled = (value: unknown) => unknown

const MISMATCH: unique symbol = Symbol("svc/schema-compiler/mismatch")

/** Which way a schema is walked, with the parse options the full walk gets (handed to the schema's pieces). */
export interface Direction {
  readonly decoding: boolean
  readonly options: SchemaAST.ParseOptions
}

/**
 * The value of a schema piece's answer that is already there: the pieces answer with an effect, in practice an
 * `Either` (a subtype of `Effect`); a failure, or an effect that would have to run, is `MISMATCH`.
 */
const rightOf = (result: unknown): unknown =>
  Either.isEither(result) && Either.isRight(result) ? result.right : MISMATCH

// The `typeof` of the values each keyword a leaf can be takes, and the check of each (`typeof` against a constant,
// which V8 compiles to a type check).
const keywordKinds: Readonly<Record<string, string>> = {
  StringKeyword: "string",
  NumberKeyword: "number",
  BooleanKeyword: "boolean",
  UndefinedKeyword: "undefined"
}
const kindChecks: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number",
  boolean: (value) => typeof value === "boolean",
  undefined: (value) => value === undefined
}

/** The `typeof` of every value a literal or keyword takes; `undefined` for other nodes. */
const kindOf = (ast: SchemaAST.AST): string | undefined =>
  SchemaAST.isLiteral(ast) ? (ast.literal === null ? "object" : typeof ast.literal) : keywordKinds[ast._tag]

/** A check on a value that decodes and encodes to itself: literals and keywords. `undefined` for every other node. */
const leafCheck = (ast: SchemaAST.AST): ((value: unknown) => boolean) | undefined => {
  if (SchemaAST.isLiteral(ast)) {
    const literal = ast.literal
    return (value) => value === literal
  }
  const kind = keywordKinds[ast._tag]
  return kind === undefined ? undefined : kindChecks[kind]
}

const fromCheck =
  (check: (value: unknown) => boolean): Compiled =>
  (value) =>
    check(value) ? value : MISMATCH

const withoutRefinements = (ast: SchemaAST.AST): SchemaAST.AST =>
  SchemaAST.isRefinement(ast) ? withoutRefinements(ast.from) : ast

// A refinement over a leaf checks the value and every filter. Over anything else (a date is a refinement of a
// transformation), as `ParseResult` does: decoding converts with the base, then runs the filters on the result;
// encoding checks the value against the type side (by `ParseResult.is`, for those a short walk), then converts with
// the base without the filters.
const compileRefinement = (ast: SchemaAST.Refinement, direction: Direction): Compiled | undefined => {
  const { options } = direction
  const filters: Array<SchemaAST.Refinement> = []
  let base: SchemaAST.AST = ast
  while (SchemaAST.isRefinement(base)) {
    filters.unshift(base)
    base = base.from
  }
  const passes = (value: unknown): boolean => {
    for (const refinement of filters) if (Option.isSome(refinement.filter(value, options, refinement))) return false
    return true
  }
  const check = leafCheck(base)
  if (check !== undefined) return (value) => (check(value) && passes(value) ? value : MISMATCH)
  const convertBase = compile(base, direction)
  if (convertBase === undefined) return undefined
  if (direction.decoding) {
    return (value) => {
      const decoded = convertBase(value)
      return decoded !== MISMATCH && passes(decoded) ? decoded : MISMATCH
    }
  }
  const isType = ParseResult.is(Schema.make(SchemaAST.typeAST(ast)))
  return (value) => (isType(value) ? convertBase(value) : MISMATCH)
}

const compileTypeLiteral = (ast: SchemaAST.TypeLiteral, direction: Direction): Compiled | undefined => {
  // An empty struct takes any value that is not null or undefined, as it is: not a record walk. Options that keep
  // the input's key order or tell a missing key from `undefined` are left to the full walk.
  if (ast.indexSignatures.length > 0 || ast.propertySignatures.length === 0) return undefined
  if (direction.options.propertyOrder === "original" || direction.options.exact === true) return undefined
  const fields: Array<{ readonly name: string; readonly optional: boolean; readonly convert: Compiled }> = []
  for (const signature of ast.propertySignatures) {
    if (typeof signature.name !== "string") return undefined
    const convert = compile(signature.type, direction)
    if (convert === undefined) return undefined
    fields.push({ name: signature.name, optional: signature.isOptional, convert })
  }
  // With `onExcessProperty: "error"` a key the struct does not declare is refused (by the full walk).
  const declared = direction.options.onExcessProperty === "error" ? new Set(fields.map(({ name }) => name)) : undefined
  return (value) => {
    // The check `ParseResult` makes of a struct's input.
    if (!Predicate.isRecord(value)) return MISMATCH
    if (declared !== undefined) {
      for (const key of Reflect.ownKeys(value)) if (typeof key !== "string" || !declared.has(key)) return MISMATCH
    }
    // Only the declared fields, in their declared order: what `ParseResult` keeps of an object.
    const output: Record<string, unknown> = {}
    for (const field of fields) {
      const present = Object.hasOwn(value, field.name)
      if (!present && field.optional) continue
      const converted = field.convert(value[field.name])
      if (converted === MISMATCH) return MISMATCH
      output[field.name] = converted
    }
    return output
  }
}

const compileArray = (ast: SchemaAST.TupleType, direction: Direction): Compiled | undefined => {
  const [rest] = ast.rest
  if (ast.elements.length > 0 || ast.rest.length !== 1 || rest === undefined) return undefined
  const convertItem = compile(rest.type, direction)
  if (convertItem === undefined) return undefined
  return (value) => {
    if (!Array.isArray(value)) return MISMATCH
    const output = new Array<unknown>(value.length)
    for (let index = 0; index < value.length; index++) {
      const converted = convertItem(value[index])
      if (converted === MISMATCH) return MISMATCH
      output[index] = converted
    }
    return output
  }
}

// The member other than the leaves must either hold objects on the side the value comes from (a struct, an array,
// a class, a date), so that a value a leaf takes (a primitive) is one it does not take, or convert every value to
// itself as the leaves do (a refined leaf, a union of leaves): either way the result is the one `ParseResult`
// gives, whichever member it picks. A union with two other members, or one that turns primitives into something
// else (a number sent as a string), goes to the full walk.
const convertsAsItself = (ast: SchemaAST.AST): boolean => {
  const base = withoutRefinements(ast)
  return leafCheck(base) !== undefined || (SchemaAST.isUnion(base) && base.types.every(convertsAsItself))
}

// Or it takes, on that side, only values of a kind no leaf takes (a date sent as text, beside `undefined`).
const safeBesideLeaves = (ast: SchemaAST.AST, leaves: ReadonlyArray<SchemaAST.AST>, direction: Direction): boolean => {
  if (convertsAsItself(ast)) return true
  const incoming = withoutRefinements(direction.decoding ? SchemaAST.encodedAST(ast) : SchemaAST.typeAST(ast))
  if (SchemaAST.isTypeLiteral(incoming) || SchemaAST.isTupleType(incoming) || SchemaAST.isDeclaration(incoming)) {
    return true
  }
  const kind = kindOf(incoming)
  return kind !== undefined && leaves.every((leaf) => kindOf(leaf) !== kind)
}

const compileUnion = (ast: SchemaAST.Union, direction: Direction): Compiled | undefined => {
  const leaves: Array<(value: unknown) => boolean> = []
  const leafNodes: Array<SchemaAST.AST> = []
  const others: Array<SchemaAST.AST> = []
  for (const member of ast.types) {
    const check = leafCheck(member)
    if (check === undefined) others.push(member)
    else {
      leaves.push(check)
      leafNodes.push(member)
    }
  }
  const [other] = others
  if (others.length > 1 || (other !== undefined && !safeBesideLeaves(other, leafNodes, direction))) return undefined
  const convertOther = other === undefined ? undefined : compile(other, direction)
  if (other !== undefined && convertOther === undefined) return undefined
  return (value) => {
    for (const check of leaves) if (check(value)) return value
    return convertOther === undefined ? MISMATCH : convertOther(value)
  }
}

// In the order of `ParseResult`. Decoding: the encoded side is decoded, transformed, then checked against the type
// side. Encoding: the type side is checked (a class's `instanceof`, a date's validity), transformed back, then the
// encoded side encoded.
// A composition (`Schema.compose`) is the two walks one after the other, with nothing in between.
const compileTransformation = (ast: SchemaAST.Transformation, direction: Direction): Compiled | undefined => {
  const { transformation } = ast
  const composed = SchemaAST.isComposeTransformation(transformation)
  if (!composed && !SchemaAST.isFinalTransformation(transformation)) return undefined
  const first = compile(direction.decoding ? ast.from : ast.to, direction)
  const second = compile(direction.decoding ? ast.to : ast.from, direction)
  if (first === undefined || second === undefined) return undefined
  if (composed) {
    return (value) => {
      const converted = first(value)
      return converted === MISMATCH ? MISMATCH : second(converted)
    }
  }
  const transform = direction.decoding ? transformation.decode : transformation.encode
  return (value) => {
    const converted = first(value)
    if (converted === MISMATCH) return MISMATCH
    const transformed = rightOf(transform(converted, direction.options, ast, value))
    return transformed === MISMATCH ? MISMATCH : second(transformed)
  }
}

const compileDeclaration = (ast: SchemaAST.Declaration, direction: Direction): Compiled => {
  const convert = (direction.decoding ? ast.decodeUnknown : ast.encodeUnknown)(...ast.typeParameters)
  return (value) => rightOf(convert(value, direction.options, ast))
}

/**
 * `full` (Effect Schema's walk) with the compiled walk in front: the compiled one's result whenever the value passes
 * every check on the way, which only ever holds what the schema's target side holds; `full`'s answer otherwise.
 */
export const withFastPath = <A, B, E>(
  fast: Compiled | undefined,
  full: (value: A) => Either.Either<B, E>
): ((value: A) => Either.Either<B, E>) => {
  if (fast === undefined) return full
  return (value) => {
    const converted = fast(value)
    return converted === MISMATCH ? full(value) : Either.right(converted as B)
  }
}

/** The compiled walk of `ast` in `direction`; `undefined` when some node of it is not one this compiles. */
export const compile = (ast: SchemaAST.AST, direction: Direction): Compiled | undefined => {
  const check = leafCheck(ast)
  if (check !== undefined) return fromCheck(check)
  // Parse options set on a node (`annotations({ parseOptions })`) hold for it and below, merged as `ParseResult`
  // merges them: a struct that refuses unknown fields refuses them when encoding too.
  const annotated = SchemaAST.getParseOptionsAnnotation(ast)
  const here = Option.isSome(annotated)
    ? { ...direction, options: { ...direction.options, ...annotated.value } }
    : direction
  switch (ast._tag) {
    case "Refinement":
      return compileRefinement(ast, here)
    case "TypeLiteral":
      return compileTypeLiteral(ast, here)
    case "TupleType":
      return compileArray(ast, here)
    case "Union":
      return compileUnion(ast, here)
    case "Transformation":
      return compileTransformation(ast, here)
    case "Declaration":
      return compileDeclaration(ast, here)
    default:
      return undefined
  }
}
