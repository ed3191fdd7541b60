/** The GraphQL face (`/graphql`): graphql-yoga over a schema derived from the tools' and the store API's schemas. */
export { GRAPHQL_PATH } from "./path.js"
export { GRAPHQL_PACKAGES, GraphqlRoutes } from "./routes.js"
export { DEFAULT_GRAPHQL_SETTINGS, GraphqlSettings, type GraphqlSettingsShape } from "./settings.js"
