import { encodeCursor } from "@svc/core/shared"
import {
  GraphQLBoolean,
  type GraphQLFieldConfigArgumentMap,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLString,
  getNamedType
} from "graphql"
import type { TypeMaker } from "./derive.js"

/** A Relay connection's value: edges with cursors, and where the page ends. */
export interface ConnectionValue<A> {
  readonly edges: ReadonlyArray<{ readonly cursor: string | null; readonly node: A }>
  readonly nodes: ReadonlyArray<A>
  readonly pageInfo: {
    readonly hasNextPage: boolean
    readonly hasPreviousPage: boolean
    readonly startCursor: string | null
    readonly endCursor: string | null
  }
}

/** `first` and `after`, as every connection field takes them. */
export interface PageArgs {
  readonly first?: number | null
  readonly after?: string | null
}

/** The arguments of a connection field: the same page size and cursor as the tools' and the store API's lists. */
export const pageArgs: GraphQLFieldConfigArgumentMap = {
  first: { type: GraphQLInt, description: "Page size, 1 to 100; default 25." },
  after: { type: GraphQLString, description: "endCursor of the previous page (or any edge's cursor)." }
}

/**
 * The keyset cursor of a row: the same opaque cursor the tools (`nextCursor`) and the store API (`next_cursor`) give
 * for the row, from its `createdAt`/`created_at` and `id`; `null` for a row without them (ranked search results).
 */
export const keysetCursor = (node: unknown): string | null => {
  if (typeof node !== "object" || node === null) return null
  const row = node as { readonly id?: unknown; readonly createdAt?: unknown; readonly created_at?: unknown }
  const at = row.createdAt ?? row.created_at
  if (typeof row.id !== "string" || (typeof at !== "string" && !(at instanceof Date))) return null
  const date = at instanceof Date ? at : new Date(at)
  return Number.isNaN(date.getTime()) ? null : encodeCursor({ createdAt: date, id: row.id })
}

/**
 * A page as a connection. `next` is the list's own cursor of the next page (`undefined` at the end); edges carry
 * their row's keyset cursor, and the last edge the list's `next` so that `after: endCursor` always goes on.
 */
export const connectionOf = <A>(
  nodes: ReadonlyArray<A>,
  next: string | null | undefined,
  options: { readonly after?: string | null | undefined; readonly cursorOf?: (node: A) => string | null } = {}
): ConnectionValue<A> => {
  const cursorOf = options.cursorOf ?? keysetCursor
  const edges = nodes.map((node, index) => ({
    cursor: index === nodes.length - 1 && next != null ? next : cursorOf(node),
    node
  }))
  return {
    edges,
    nodes,
    pageInfo: {
      hasNextPage: next != null,
      hasPreviousPage: options.after != null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: next ?? edges[edges.length - 1]?.cursor ?? null
    }
  }
}

/** The connection types of a schema: `PageInfo` once, and `<Node>Connection`/`<Node>Edge` per node type. */
export interface Connections {
  readonly of: (node: GraphQLOutputType, description?: string) => GraphQLNonNull<GraphQLObjectType>
}

export const makeConnections = (types: TypeMaker): Connections => {
  const pageInfo = new GraphQLObjectType({
    name: types.reserve("PageInfo"),
    description: "Where a page of a connection ends (Relay cursor connections).",
    fields: {
      hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
      hasPreviousPage: {
        type: new GraphQLNonNull(GraphQLBoolean),
        description: "True when the page was asked with after."
      },
      startCursor: { type: GraphQLString },
      endCursor: { type: GraphQLString, description: "Pass as after for the next page; null on an empty list." }
    }
  })
  const made = new Map<string, GraphQLNonNull<GraphQLObjectType>>()
  return {
    of: (node, description) => {
      const name = getNamedType(node).name
      const known = made.get(name)
      if (known !== undefined) return known
      const nonNull = node instanceof GraphQLNonNull ? node : new GraphQLNonNull(node)
      const edge = new GraphQLObjectType({
        name: types.reserve(`${name}Edge`),
        fields: {
          cursor: {
            type: GraphQLString,
            description:
              "Where a page after this row starts; null for a row of a ranked list that pages only from its end."
          },
          node: { type: nonNull }
        }
      })
      const connection = new GraphQLNonNull(
        new GraphQLObjectType({
          name: types.reserve(`${name}Connection`),
          ...(description === undefined ? {} : { description }),
          fields: {
            edges: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(edge))) },
            nodes: { type: new GraphQLNonNull(new GraphQLList(nonNull)), description: "The edges' nodes." },
            pageInfo: { type: new GraphQLNonNull(pageInfo) }
          }
        })
      )
      made.set(name, connection)
      return connection
    }
  }
}
