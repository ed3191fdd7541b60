/** A GraphQL client for the tests: `graphql-request` against the test app's Node server. */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { GraphQLClient } from "graphql-request"

/** A client of `<url>/graphql` that sends `token` as a bearer token (none when `undefined`). */
export const graphqlClient = (url: string, token: string | undefined): GraphQLClient =>
  new GraphQLClient(`${url}/graphql`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })

/** Posts one GraphQL request and answers the HTTP status and the JSON body, errors included (no throwing). */
export const postGraphql = async (
  url: string,
  token: string | undefined,
  body: unknown,
  headers: Record<string, string> = {}
): Promise<{ readonly status: number; readonly headers: Headers; readonly body: GraphqlBody }> => {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json, application/json",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers
    },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphqlBody }
}

/** A GraphQL answer as JSON. */
export interface GraphqlBody {
  readonly data?: Record<string, unknown> | null
  readonly errors?: ReadonlyArray<{
    readonly message: string
    readonly path?: ReadonlyArray<string | number>
    readonly extensions?: Record<string, unknown>
  }>
}

/** Sends one GraphQL request through `client` (graphql-request throws on GraphQL errors). */
export const request = <A>(client: GraphQLClient, query: string, variables?: Record<string, unknown>) =>
  Effect.promise(() => client.request<A>(query, variables))

/** Runs a tool mutation (`field`, whose input type is `<Field>Input`) and answers its payload, failing on a ToolFailure. */
export const mutate = (client: GraphQLClient, field: string, input: Record<string, unknown>, select = "") =>
  Effect.map(
    request<Record<string, Record<string, unknown>>>(
      client,
      `mutation($input: ${field.charAt(0).toUpperCase()}${field.slice(1)}Input!) { ${field}(input: $input) {
         __typename ... on ToolFailure { status message } ${select} } }`,
      { input }
    ),
    (answer) => {
      const payload = answer[field] as Record<string, unknown>
      expect(payload.__typename).not.toBe("ToolFailure")
      return payload
    }
  )
