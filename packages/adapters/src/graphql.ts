/**
 * `@svc/adapters/graphql`: the GraphQL face's schema, for tools that print or test it (the served face itself is
 * `GraphqlRoutes` in `@svc/adapters/http`, which loads this part when it starts). Importing this entry needs the
 * GraphQL packages (`GRAPHQL_PACKAGES`), which are optional peers of `@svc/adapters`.
 */
export { makeGraphqlSchema } from "./http/graphql/schema.js"
export { makeGraphqlYoga } from "./http/graphql/yoga.js"
