import { Effect, Option } from "effect"
import { createYoga, type YogaServerInstance } from "graphql-yoga"
import { type GraphqlContext, makeContextFactory } from "./context.js"
import { guardPlugins } from "./guards.js"
import { GRAPHQL_PATH } from "./path.js"
import { makeGraphqlSchema } from "./schema.js"
import { DEFAULT_GRAPHQL_SETTINGS, GraphqlSettings } from "./settings.js"

/** The yoga server of the GraphQL face: the derived schema, one context per request, the guards and GraphiQL. */
export type GraphqlYoga = YogaServerInstance<Record<string, never>, GraphqlContext>

export const makeGraphqlYoga = Effect.gen(function* () {
  const schema = yield* makeGraphqlSchema
  // Embedding backends and test harnesses that name no settings get the documented defaults.
  const settings = Option.getOrElse(yield* Effect.serviceOption(GraphqlSettings), () => DEFAULT_GRAPHQL_SETTINGS)
  const contextOf = yield* makeContextFactory
  const yoga: GraphqlYoga = createYoga<Record<string, never>, GraphqlContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    context: ({ request }) => contextOf(request),
    // The other faces send no CORS headers either: a browser page calls svc from its own origin.
    cors: false,
    landingPage: false,
    batching: { limit: settings.maxBatch },
    // Offline GraphiQL: its scripts and styles are inlined, not fetched from a CDN.
    graphiql: settings.graphiql
      ? {
          title: "svc GraphQL",
          // A placeholder to replace with a key; ASCII only, as a browser refuses any other character in a header.
          headers: JSON.stringify({ Authorization: "Bearer svc_pat_..." }),
          shouldPersistHeaders: false
        }
      : false,
    // GraphiQL's page is a 9 MB script: loaded on the first page view, not by every server start (or test file).
    renderGraphiQL: (options) =>
      import("@graphql-yoga/render-graphiql").then((graphiql) => graphiql.renderGraphiQL(options)),
    plugins: [...guardPlugins(settings)],
    logging: "warn"
  })
  return yoga
})
