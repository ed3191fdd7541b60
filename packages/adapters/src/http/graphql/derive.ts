import { Option, Schema, SchemaAST as AST } from "effect"
import {
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLEnumValueConfigMap,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  type GraphQLNamedType,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLString,
  type GraphQLType,
  GraphQLUnionType
} from "graphql"
import { JsonScalar } from "./scalars.js"

/**
 * GraphQL types derived from the Effect schemas the tools and the store API already use, so that a schema change
 * shows up in GraphQL without a hand edit. Types describe the wire (encoded) form, which is what a tool decodes and
 * what it answers: a class is the object it is sent as, a transformation its encoded side.
 *
 * The mapping, for a schema `S`:
 * - string, template literal, bigint: `String`; number: `Float`, or `Int` under an integer refinement;
 *   boolean and boolean literals: `Boolean`;
 * - string literals: an enum named for the schema when every value is a GraphQL name (so values stay as the
 *   tools send them), else `String` with the values in the description;
 * - a struct: an object type (an input object type on the input side); a record, an empty struct or a struct with
 *   index signatures: `JSON`;
 * - an array: a list; `S | null` and optional fields: nullable;
 * - a union of structs: a union type on the output side (resolved by checking each member's encoded schema),
 *   `JSON` on the input side (GraphQL has no input unions; the tool's decoder still checks it); any other union:
 *   `JSON`.
 *
 * Names come from a schema's `identifier` annotation (a class's name), else from the name the caller gives, which
 * is the path to the field in PascalCase. A name taken by another schema gets a number. The order of calls
 * decides the names, so a schema must be built in a fixed order for its SDL to be stable.
 */
export interface TypeMaker {
  /** The output type of `schema`, non-null unless it admits null. */
  readonly output: (schema: Schema.Schema.Any | AST.AST, name: string) => GraphQLOutputType
  /** The input type of `schema`, non-null unless it admits null. */
  readonly input: (schema: Schema.Schema.Any | AST.AST, name: string) => GraphQLInputType
  /** The fields of a struct schema as an object type's fields (for types that add fields of their own). */
  readonly outputFields: (schema: Schema.Schema.Any | AST.AST, name: string) => GraphQLFieldConfigMap<unknown, unknown>
  /** The fields of a struct schema as arguments or input fields. */
  readonly inputFields: (schema: Schema.Schema.Any | AST.AST, name: string) => GraphQLInputFieldConfigMap
  /** Reserves a name for a type made by hand, so that no derived type takes it. */
  readonly reserve: (name: string) => string
  /** Names a schema that carries no identifier of its own, wherever it is met. */
  readonly rename: (schema: Schema.Schema.Any | AST.AST, name: string) => void
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/
const RESERVED_VALUES = new Set(["true", "false", "null"])

/** `svc_create_note` → `CreateNote`, `next_cursor` → `NextCursor`, `items` → `Items`. */
export const pascalCase = (text: string): string =>
  text
    .replace(/^svc_/, "")
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("")

const astOf = (schema: Schema.Schema.Any | AST.AST): AST.AST => ("ast" in schema ? schema.ast : schema)

const identifierOf = (ast: AST.AST): string | undefined => {
  const id = AST.getIdentifierAnnotation(ast)
  return Option.isSome(id) && GRAPHQL_NAME.test(id.value) ? id.value : undefined
}

const KEYWORDS = new Set([
  "StringKeyword",
  "NumberKeyword",
  "BooleanKeyword",
  "BigIntKeyword",
  "UnknownKeyword",
  "AnyKeyword",
  "ObjectKeyword",
  "SymbolKeyword",
  "UndefinedKeyword",
  "VoidKeyword",
  "NeverKeyword"
])

/** The description of a schema: its outermost own one (the keywords' built-in "a string" and the like are noise). */
const descriptionOf = (ast: AST.AST): string | undefined => {
  let node: AST.AST | undefined = ast
  while (node !== undefined) {
    if (!KEYWORDS.has(node._tag)) {
      const found = AST.getDescriptionAnnotation(node)
      if (Option.isSome(found)) return found.value
    }
    node = node._tag === "Refinement" ? node.from : node._tag === "Transformation" ? node.to : undefined
  }
  return undefined
}

const isNullish = (ast: AST.AST): boolean =>
  (ast._tag === "Literal" && ast.literal === null) || ast._tag === "UndefinedKeyword" || ast._tag === "VoidKeyword"

const isIntegerRefinement = (ast: AST.Refinement): boolean => {
  const json = AST.getJSONSchemaAnnotation(ast)
  if (Option.isSome(json) && (json.value as { type?: unknown }).type === "integer") return true
  return identifierOf(ast) === "Int"
}

/** The schema with transformations taken to their encoded side, suspensions run and non-integer refinements dropped. */
const structural = (ast: AST.AST): AST.AST => {
  switch (ast._tag) {
    case "Transformation":
      return structural(ast.from)
    case "Suspend":
      return structural(ast.f())
    case "Refinement":
      return isIntegerRefinement(ast) ? ast : structural(ast.from)
    default:
      return ast
  }
}

/** The name a schema carries itself: its identifier, or its class's (a class is a transformation to a declaration). */
const ownName = (ast: AST.AST): string | undefined => {
  const own = identifierOf(ast)
  if (own !== undefined) return own
  if (ast._tag === "Transformation") return identifierOf(ast.to) ?? ownName(ast.from)
  if (ast._tag === "Refinement") return ownName(ast.from)
  return undefined
}

const isObjectLike = (ast: AST.TypeLiteral): boolean =>
  ast.propertySignatures.length > 0 && ast.indexSignatures.length === 0

/** A short name telling a union's member apart: its first single string literal field, else its position. */
const memberSuffix = (member: AST.TypeLiteral, index: number): string => {
  for (const property of member.propertySignatures) {
    const type = structural(property.type)
    if (type._tag === "Literal" && typeof type.literal === "string") return pascalCase(type.literal)
    if (type._tag === "Literal" && typeof type.literal === "boolean" && property.name === "ok") {
      if (!member.propertySignatures.some((other) => other !== property && isSingleStringLiteral(other.type))) {
        return type.literal ? "Ok" : "Failed"
      }
    }
  }
  return String(index + 1)
}

const isSingleStringLiteral = (ast: AST.AST): boolean => {
  const type = structural(ast)
  return type._tag === "Literal" && typeof type.literal === "string"
}

export const makeTypeMaker = (): TypeMaker => {
  const taken = new Map<string, unknown>()
  const outputs = new Map<AST.AST, GraphQLOutputType>()
  const inputs = new Map<AST.AST, GraphQLInputType>()
  const enums = new Map<AST.AST, GraphQLNamedType>()
  const renamed = new Map<AST.AST, string>()

  /** A free type name for `owner` based on `base`. */
  const claim = (base: string, owner: unknown): string => {
    const safe = GRAPHQL_NAME.test(base) ? base : `T${pascalCase(base)}`
    let name = safe
    for (let n = 2; taken.has(name) && taken.get(name) !== owner; n++) name = `${safe}${n}`
    taken.set(name, owner)
    return name
  }

  /** Enum of string literals (one enum per schema), or `String` when a value is not a GraphQL name. */
  const literalsType = (ast: AST.AST, literals: ReadonlyArray<string>, name: string): GraphQLNamedType => {
    const known = enums.get(ast)
    if (known !== undefined) return known
    const valid = literals.every((value) => GRAPHQL_NAME.test(value) && !RESERVED_VALUES.has(value))
    const type = valid
      ? new GraphQLEnumType({
          name: claim(ownName(ast) ?? name, ast),
          description: descriptionOf(ast),
          values: Object.fromEntries(literals.map((value) => [value, { value }])) satisfies GraphQLEnumValueConfigMap
        })
      : GraphQLString
    enums.set(ast, type)
    return type
  }

  /** The nullable form of the type of `ast`, and whether the schema admits null. */
  const shape = (
    ast: AST.AST,
    name: string,
    side: "output" | "input"
  ): { readonly type: GraphQLType; readonly nullable: boolean } => {
    const named = renamed.get(ast) ?? ownName(ast) ?? name
    const node = structural(ast)
    switch (node._tag) {
      case "StringKeyword":
      case "TemplateLiteral":
      case "BigIntKeyword":
        return { type: GraphQLString, nullable: false }
      case "NumberKeyword":
        return { type: GraphQLFloat, nullable: false }
      case "BooleanKeyword":
        return { type: GraphQLBoolean, nullable: false }
      case "Refinement":
        // `structural` keeps only integer refinements.
        return { type: GraphQLInt, nullable: false }
      case "Literal": {
        const value = node.literal
        if (value === null) return { type: JsonScalar, nullable: true }
        if (typeof value === "boolean") return { type: GraphQLBoolean, nullable: false }
        if (typeof value === "number")
          return { type: Number.isInteger(value) ? GraphQLInt : GraphQLFloat, nullable: false }
        // A single string (a `status: "rejected"` tag) is a plain string, not an enum of one.
        return { type: GraphQLString, nullable: false }
      }
      case "Enums": {
        const values = node.enums.map(([, value]) => value)
        return values.every((value) => typeof value === "string")
          ? { type: literalsType(ast, values as ReadonlyArray<string>, named), nullable: false }
          : { type: GraphQLFloat, nullable: false }
      }
      case "Union": {
        const members = node.types.filter((member) => !isNullish(member))
        const nullable = members.length < node.types.length
        if (members.length === 1) {
          const inner = shape(members[0]!, named, side)
          return { type: inner.type, nullable: nullable || inner.nullable }
        }
        const structs = members.map(structural)
        if (structs.every((member) => member._tag === "Literal" && typeof member.literal === "string")) {
          const literals = structs.map((member) => (member as AST.Literal).literal as string)
          return { type: literalsType(ast, literals, named), nullable }
        }
        if (structs.every((member) => member._tag === "Literal" && typeof member.literal === "boolean")) {
          return { type: GraphQLBoolean, nullable }
        }
        if (
          side === "output" &&
          structs.every((member): member is AST.TypeLiteral => member._tag === "TypeLiteral" && isObjectLike(member))
        ) {
          return { type: unionOf(ast, members, structs as ReadonlyArray<AST.TypeLiteral>, named), nullable }
        }
        return { type: JsonScalar, nullable }
      }
      case "TypeLiteral":
        if (!isObjectLike(node)) return { type: JsonScalar, nullable: false }
        return side === "output"
          ? { type: objectOf(ast, node, named), nullable: false }
          : { type: inputObjectOf(ast, node, named), nullable: false }
      case "TupleType": {
        if (node.elements.length > 0 || node.rest.length !== 1) return { type: JsonScalar, nullable: false }
        const element = shape(node.rest[0]!.type, named, side)
        const item: GraphQLType = element.nullable ? element.type : new GraphQLNonNull(element.type)
        return { type: new GraphQLList(item), nullable: false }
      }
      default:
        return { type: JsonScalar, nullable: false }
    }
  }

  const objectOf = (ast: AST.AST, node: AST.TypeLiteral, name: string): GraphQLOutputType => {
    const known = outputs.get(node)
    if (known !== undefined) return known
    const typeName = claim(name, node)
    const type = new GraphQLObjectType({
      name: typeName,
      description: descriptionOf(ast) ?? descriptionOf(node),
      fields: () => fieldsOf(node, typeName)
    })
    outputs.set(node, type)
    return type
  }

  const inputObjectOf = (ast: AST.AST, node: AST.TypeLiteral, name: string): GraphQLInputType => {
    const known = inputs.get(node)
    if (known !== undefined) return known
    const typeName = claim(name.endsWith("Input") ? name : `${name}Input`, Symbol())
    const type = new GraphQLInputObjectType({
      name: typeName,
      description: descriptionOf(ast) ?? descriptionOf(node),
      fields: () => inputFieldsOf(node, typeName.replace(/Input$/, ""))
    })
    inputs.set(node, type)
    return type
  }

  const unionOf = (
    ast: AST.AST,
    members: ReadonlyArray<AST.AST>,
    structs: ReadonlyArray<AST.TypeLiteral>,
    name: string
  ): GraphQLOutputType => {
    const known = outputs.get(ast)
    if (known !== undefined) return known
    const typeName = claim(name, ast)
    const types = members.map(
      (member, index) =>
        shape(member, `${typeName}${memberSuffix(structs[index]!, index)}`, "output").type as GraphQLObjectType
    )
    // The value is the wire form: each member's encoded schema tells whether it is that member.
    const guards = members.map((member) => Schema.is(Schema.make(AST.encodedAST(member))))
    const type = new GraphQLUnionType({
      name: typeName,
      description: descriptionOf(ast),
      types,
      resolveType: (value) => types[guards.findIndex((guard) => guard(value))]?.name
    })
    outputs.set(ast, type)
    return type
  }

  /** The fields of a struct on one side: same names, nullability and descriptions for object and input types. */
  const propertiesOf = (node: AST.TypeLiteral, parent: string, side: "output" | "input") =>
    Object.fromEntries(
      node.propertySignatures
        .filter((property) => typeof property.name === "string" && GRAPHQL_NAME.test(property.name))
        .map((property) => {
          const key = property.name as string
          const { type, nullable } = shape(property.type, `${parent}${pascalCase(key)}`, side)
          const description = propertyDescription(property)
          return [
            key,
            {
              type: nullable || property.isOptional ? type : new GraphQLNonNull(type),
              ...(description === undefined ? {} : { description })
            }
          ] as const
        })
    )

  const fieldsOf = (node: AST.TypeLiteral, parent: string) =>
    propertiesOf(node, parent, "output") as GraphQLFieldConfigMap<unknown, unknown>

  const inputFieldsOf = (node: AST.TypeLiteral, parent: string) =>
    propertiesOf(node, parent, "input") as GraphQLInputFieldConfigMap

  const propertyDescription = (property: AST.PropertySignature): string | undefined => {
    const own = AST.getDescriptionAnnotation(property)
    return Option.isSome(own) ? own.value : descriptionOf(property.type)
  }

  const structOf = (schema: Schema.Schema.Any | AST.AST): AST.TypeLiteral => {
    const node = structural(astOf(schema))
    if (node._tag !== "TypeLiteral") throw new Error(`expected a struct schema, got ${node._tag}`)
    return node
  }

  return {
    output: (schema, name) => {
      const { type, nullable } = shape(astOf(schema), name, "output")
      return nullable ? (type as GraphQLOutputType) : new GraphQLNonNull(type as GraphQLOutputType)
    },
    input: (schema, name) => {
      const { type, nullable } = shape(astOf(schema), name, "input")
      return nullable ? (type as GraphQLInputType) : new GraphQLNonNull(type as GraphQLInputType)
    },
    outputFields: (schema, name) => fieldsOf(structOf(schema), name),
    inputFields: (schema, name) => inputFieldsOf(structOf(schema), name),
    reserve: (name) => claim(name, Symbol(name)),
    rename: (schema, name) => {
      renamed.set(astOf(schema), name)
    }
  }
}
