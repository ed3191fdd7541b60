import { GraphQLScalarType, Kind, valueFromASTUntyped } from "graphql"

/**
 * Any JSON value, for what GraphQL's types cannot say: records with free keys (table cells, event data), unions of
 * scalars (a cell is a string, number, boolean or null) and unions of input objects (GraphQL has no input unions).
 * The value is still checked: a tool decodes its input with its own schema, so a bad value answers `invalid`.
 */
export const JsonScalar = new GraphQLScalarType({
  name: "JSON",
  description: "Any JSON value. Tool inputs given as JSON are checked by the tool's own schema.",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) =>
    ast.kind === Kind.VARIABLE ? variables?.[ast.name.value] : valueFromASTUntyped(ast, variables)
})
