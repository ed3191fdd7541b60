import { ItemType, Platform } from "@svc/core/items"
import { ToolServer } from "@svc/core/tools"
import { Effect } from "effect"
import {
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  GraphQLObjectType,
  GraphQLSchema,
  lexicographicSortSchema
} from "graphql"
import { makeConnections } from "./connections.js"
import type { GraphqlContext } from "./context.js"
import { makeTypeMaker } from "./derive.js"
import type { GraphqlKit, GraphqlPart, RootFields } from "./parts.js"
import { makeResults } from "./results.js"
import { toolMutations } from "./tool-mutations.js"
import { storePart } from "./store.js"
import { subscriptionsPart } from "./subscriptions.js"
import { viewerPart } from "./viewer.js"
import { workspacePart } from "./workspace.js"

/** Every root field takes one call from the caller's per-minute limit before it runs (the documented cost). */
const charged = (field: GraphQLFieldConfig<unknown, GraphqlContext>): GraphQLFieldConfig<unknown, GraphqlContext> => {
  const { resolve, subscribe } = field
  return {
    ...field,
    ...(resolve === undefined
      ? {}
      : {
          resolve: async (source, args, context, info) => {
            await context.admit()
            return resolve(source, args, context, info)
          }
        }),
    ...(subscribe === undefined
      ? {}
      : {
          subscribe: async (source, args, context, info) => {
            await context.admit()
            return subscribe(source, args, context, info)
          }
        })
  }
}

const merge = (parts: ReadonlyArray<GraphqlPart>, root: keyof GraphqlPart): RootFields => {
  const fields: RootFields = {}
  for (const part of parts) {
    for (const [name, field] of Object.entries(part[root] ?? {})) {
      if (name in fields) throw new Error(`two parts of the GraphQL schema define ${root}.${name}`)
      fields[name] = charged(field)
    }
  }
  return fields
}

const rootType = (name: string, fields: RootFields, description: string) =>
  Object.keys(fields).length === 0
    ? undefined
    : new GraphQLObjectType({ name, description, fields: fields as GraphQLFieldConfigMap<unknown, unknown> })

/**
 * The GraphQL schema of the served core, built once at start-up from the served tool registry and the store API's
 * contract: every type derived from their Effect schemas (`derive.ts`). The SDL is committed as `schema.graphql`
 * and sorted, so that it reads the same however the parts are ordered.
 */
export const makeGraphqlSchema = Effect.gen(function* () {
  const { registry } = yield* ToolServer
  const types = makeTypeMaker()
  // Literal sets used in many places: named once for what they are, not for the first field that meets them.
  types.rename(ItemType, "ItemType")
  types.rename(Platform, "Platform")
  const kit: GraphqlKit = { types, results: makeResults(types) }
  const connections = makeConnections(types)
  const parts: ReadonlyArray<GraphqlPart> = [
    yield* viewerPart(kit, connections, registry),
    yield* workspacePart(kit, connections, registry),
    yield* storePart(kit, connections),
    yield* subscriptionsPart(kit),
    toolMutations(registry, kit)
  ]
  const query = rootType("Query", merge(parts, "query"), "Reads: the caller, a workspace, a store.")
  if (query === undefined) throw new Error("the GraphQL schema has no query field")
  const mutation = rootType("Mutation", merge(parts, "mutation"), "Changes: the write tools and the store's changes.")
  const subscription = rootType("Subscription", merge(parts, "subscription"), "Events as they are written.")
  return lexicographicSortSchema(
    new GraphQLSchema({
      query,
      ...(mutation === undefined ? {} : { mutation }),
      ...(subscription === undefined ? {} : { subscription })
    })
  )
})
