/** Where the GraphQL face answers. */
export const GRAPHQL_PATH = "/graphql"
