import { FailureStatus, ToolFailure } from "@svc/core/tools"
import { Schema, SchemaAST as AST } from "effect"
import {
  type GraphQLFieldConfigMap,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLUnionType,
  getNullableType
} from "graphql"
import type { TypeMaker } from "./derive.js"
import { elementSchema } from "./schema-fields.js"

const isFailureStatus = Schema.is(FailureStatus)

/** Whether an answer is a tool failure (`ok: false` with one of the seven statuses), not a success payload. */
export const isToolFailure = (value: unknown): boolean =>
  typeof value === "object" &&
  value !== null &&
  (value as { ok?: unknown }).ok === false &&
  isFailureStatus((value as { status?: unknown }).status)

/**
 * The typed results of mutations: `ToolFailure` (derived from core's `ToolFailure` schema, its field problems as
 * `FieldError`) and, per mutation, a union of its success payload's types and `ToolFailure`.
 */
export interface Results {
  readonly toolFailure: GraphQLObjectType
  /** `<name>` = the payload's object type(s) | ToolFailure; the payload may itself be a derived union. */
  readonly union: (name: string, payload: GraphQLOutputType, description?: string) => GraphQLNonNull<GraphQLUnionType>
}

export const makeResults = (types: TypeMaker): Results => {
  const name = types.reserve("ToolFailure")
  // The field-problem struct inside `errors`, named so the SDL says FieldError rather than a path name.
  const struct = ToolFailure.ast
  const errors =
    struct._tag === "TypeLiteral"
      ? struct.propertySignatures.find((property) => property.name === "errors")?.type
      : undefined
  if (errors !== undefined) types.rename(elementSchema(errors), "FieldError")
  const fields = types.outputFields(ToolFailure, name) as GraphQLFieldConfigMap<unknown, unknown>
  const toolFailure = new GraphQLObjectType({
    name,
    description: AST.getDescriptionAnnotation(ToolFailure.ast).pipe((found) =>
      found._tag === "Some" ? found.value : undefined
    ),
    fields
  })
  return {
    toolFailure,
    union: (name, payload, description) => {
      const inner = getNullableType(payload)
      const members = inner instanceof GraphQLUnionType ? inner.getTypes() : [inner as GraphQLObjectType]
      const resolvePayload =
        inner instanceof GraphQLUnionType ? inner.resolveType : () => (members[0] as GraphQLObjectType).name
      return new GraphQLNonNull(
        new GraphQLUnionType({
          name: types.reserve(name),
          ...(description === undefined ? {} : { description }),
          types: [...members, toolFailure],
          resolveType: (value, context, info, type) =>
            isToolFailure(value) ? toolFailure.name : resolvePayload?.(value, context, info, type)
        })
      )
    }
  }
}
