/** The GraphQL face (`/graphql`): graphql-yoga over a schema derived from the tools' and the store API's schemas. */
export { GraphqlRoutes } from "./routes.js"
export { DEFAULT_GRAPHQL_SETTINGS, GraphqlSettings, type GraphqlSettingsShape } from "./settings.js"
export { makeGraphqlSchema } from "./schema.js"
export { GRAPHQL_PATH } from "./yoga.js"
