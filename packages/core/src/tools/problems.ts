import { Array as Arr, Option, type ParseResult, SchemaAST as AST } from "effect"
import { FieldProblem, InvalidInput } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"

// Messages an agent can act on: "must be at most 300 characters (got 412)", never a parser dump.

const shown = (actual: unknown): string => {
  if (actual === null) return "null"
  if (Array.isArray(actual)) return "a list"
  if (typeof actual === "object") return "an object"
  if (typeof actual === "string")
    return actual.length > 40 ? `a ${actual.length}-character string` : JSON.stringify(actual)
  return String(actual)
}

const typeMessage = (ast: AST.AST): string => {
  switch (ast._tag) {
    case "StringKeyword":
      return "must be a string"
    case "NumberKeyword":
      return "must be a number"
    case "BooleanKeyword":
      return "must be true or false"
    case "Literal":
      return `must be ${JSON.stringify(ast.literal)}`
    case "TypeLiteral":
      return "must be an object"
    case "TupleType":
      return "must be a list"
    case "UndefinedKeyword":
      return "must be left out"
    default:
      return "has the wrong type"
  }
}

const refinementMessage = (ast: AST.Refinement, issue: ParseResult.ParseIssue): string => {
  const custom = AST.getMessageAnnotation(ast)
  if (Option.isSome(custom)) {
    const text = custom.value(issue)
    if (typeof text === "string") return text
  }
  const rule = AST.getJSONSchemaAnnotation(ast).pipe(Option.getOrElse(() => ({}))) as Record<string, unknown>
  if (rule.type === "integer") return "must be a whole number"
  if (typeof rule.minimum === "number" && typeof rule.maximum === "number") {
    return `must be from ${rule.minimum} to ${rule.maximum}`
  }
  if (typeof rule.minimum === "number") return `must be at least ${rule.minimum}`
  if (typeof rule.maximum === "number") return `must be at most ${rule.maximum}`
  if (typeof rule.minLength === "number") {
    return rule.minLength === 1 ? "must not be empty" : `must be at least ${rule.minLength} characters`
  }
  if (typeof rule.maxLength === "number") return `must be at most ${rule.maxLength} characters`
  if (typeof rule.minItems === "number") return `must hold at least ${rule.minItems} entries`
  if (typeof rule.maxItems === "number") return `must hold at most ${rule.maxItems} entries`
  if (typeof rule.pattern === "string") return `must match the pattern ${rule.pattern}`
  return "is not an allowed value"
}

// A nullable choice (`NullOr(Literal(…))`) nests the choice's union inside the nullable one: its members count.
const flatMembers = (members: ReadonlyArray<AST.AST>): ReadonlyArray<AST.AST> =>
  members.flatMap((m) => (AST.isUnion(m) ? flatMembers(m.types) : [m]))

const unionMessage = (members: ReadonlyArray<AST.AST>): string | undefined => {
  const flat = flatMembers(members)
  return flat.every(AST.isLiteral)
    ? `must be one of ${flat.map((m) => JSON.stringify((m as AST.Literal).literal)).join(", ")}`
    : undefined
}

const collect = (issue: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>, out: Array<FieldProblem>): void => {
  const add = (message: string, withActual = false): void => {
    out.push(
      new FieldProblem({
        // A field name is the caller's to choose (an unknown one is reported): quoted as an excerpt, like a value.
        path: excerpt(path.map(String).join("."), 120),
        message: withActual && "actual" in issue ? `${message} (got ${shown(issue.actual)})` : message
      })
    )
  }
  switch (issue._tag) {
    case "Pointer":
      collect(issue.issue, [...path, ...Arr.ensure(issue.path)], out)
      return
    case "Transformation":
      collect(issue.issue, path, out)
      return
    case "Refinement":
      if (issue.kind === "From") collect(issue.issue, path, out)
      else add(refinementMessage(issue.ast, issue), true)
      return
    case "Missing":
      add("is required")
      return
    case "Unexpected":
      add("is not a field of this tool; check the tool's inputSchema")
      return
    case "Forbidden":
      add("could not be checked")
      return
    case "Type":
      add(typeMessage(issue.ast), true)
      return
    case "Composite": {
      const issues = Arr.ensure(issue.issues)
      if (!AST.isUnion(issue.ast)) {
        for (const inner of issues) collect(inner, path, out)
        return
      }
      // An optional field is a union with `undefined`; that branch says nothing useful.
      const members = issue.ast.types.filter((m) => !AST.isUndefinedKeyword(m))
      const literals = unionMessage(members)
      const relevant = issues.filter((inner) => !(inner._tag === "Type" && AST.isUndefinedKeyword(inner.ast)))
      if (literals) add(literals, true)
      else if (relevant.length === 1 && relevant[0]) collect(relevant[0], path, out)
      else add("does not match any of the allowed shapes", true)
      return
    }
  }
}

/** Turns a schema parse failure into `invalid` with one entry per bad field. */
export const toInvalidInput = (error: ParseResult.ParseError): InvalidInput => {
  const errors: Array<FieldProblem> = []
  collect(error.issue, [], errors)
  const first = errors[0]
  return new InvalidInput({
    message: first
      ? `${first.path || "the input"} ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more problems)` : ""}`
      : "the input does not match the tool's inputSchema",
    errors
  })
}
