import { SchemaAST as AST } from "effect"

/** The schema of one field of a struct schema (a tool's input or answer). */
export const fieldSchema = (struct: AST.AST, key: string): AST.AST => {
  const node = AST.encodedAST(struct)
  const found = node._tag === "TypeLiteral" ? node.propertySignatures.find((p) => p.name === key) : undefined
  if (found === undefined) throw new Error(`the schema has no field ${key}`)
  return found.type
}

/** The element schema of an array schema. */
export const elementSchema = (array: AST.AST): AST.AST => {
  const node = AST.encodedAST(array)
  const members = node._tag === "Union" ? node.types.filter((t) => t._tag === "TupleType") : [node]
  const tuple = members[0]
  if (tuple?._tag !== "TupleType" || tuple.rest[0] === undefined) throw new Error("expected an array schema")
  return tuple.rest[0].type
}
