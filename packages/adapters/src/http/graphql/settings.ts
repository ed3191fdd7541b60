import { Context, Layer } from "effect"

/** Limits and switches of the GraphQL face (`SVC_GRAPHQL_*` in the server's configuration). */
export interface GraphqlSettingsShape {
  /** Deepest selection nesting a document may have (fragments followed). */
  readonly maxDepth: number
  /** Largest cost of one operation: a scalar field 1, a field with a selection 2 plus 1.5 × its fields' cost, times its `first`/`last`. */
  readonly maxCost: number
  /** Most aliases in one document. */
  readonly maxAliases: number
  /** Most tokens in one document (its size in lexer tokens). */
  readonly maxTokens: number
  /** Most operations in one batched request (a JSON array of requests). */
  readonly maxBatch: number
  /** Whether `__schema` and `__type` are answered; off refuses introspection with a clear error. */
  readonly introspection: boolean
  /** Whether `GET /graphql` from a browser opens GraphiQL. */
  readonly graphiql: boolean
  /** How often a subscription looks at the event log for new events, in milliseconds. */
  readonly pollIntervalMs: number
}

export const DEFAULT_GRAPHQL_SETTINGS: GraphqlSettingsShape = {
  maxDepth: 10,
  maxCost: 5_000,
  maxAliases: 15,
  maxTokens: 2_000,
  maxBatch: 10,
  introspection: true,
  graphiql: true,
  pollIntervalMs: 1_000
}

/** The GraphQL face's limits; `GraphqlSettings.Default` holds the documented defaults. */
export class GraphqlSettings extends Context.Tag("svc/http/GraphqlSettings")<GraphqlSettings, GraphqlSettingsShape>() {
  static readonly Default: Layer.Layer<GraphqlSettings> = Layer.succeed(GraphqlSettings, DEFAULT_GRAPHQL_SETTINGS)
  static readonly layer = (settings: Partial<GraphqlSettingsShape>): Layer.Layer<GraphqlSettings> =>
    Layer.succeed(GraphqlSettings, { ...DEFAULT_GRAPHQL_SETTINGS, ...settings })
}
