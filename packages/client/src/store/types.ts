// Inputs and answers of the store API, read from the OpenAPI types that `npm run generate` writes from the contract,
// so a changed endpoint changes these types and cannot drift from the server.
import type { components, paths } from "../generated/store-api.js"

/** The prefix every store API path has; the client's routes are written without it. */
export const STORE_API_PREFIX = "/store-app/v1"

/** A store API route as the table in `client.ts` names it, e.g. `/products/{id}`. */
export type Route = {
  readonly [P in keyof paths]: P extends `${typeof STORE_API_PREFIX}${infer R}` ? R : never
}[keyof paths]

/** The HTTP methods the store API uses, as the generated types spell them. */
export type Method = "get" | "post" | "put" | "patch" | "delete"

/** The generated operation of one route and method. */
export type Operation<R extends Route, M extends Method> = NonNullable<paths[`${typeof STORE_API_PREFIX}${R}`][M]>

/** The path parameters of an operation, by name (`{ id }`), or none. */
export type PathParams<O> = O extends { readonly parameters: { readonly path: infer P extends object } } ? P : unknown

/** The query of an operation, or none. */
export type Query<O> = O extends { readonly parameters: { readonly query?: infer Q } }
  ? [NonNullable<Q>] extends [never]
    ? unknown
    : NonNullable<Q>
  : unknown

/** The JSON body of an operation, or none. */
export type Body<O> = O extends {
  readonly requestBody: { readonly content: { readonly "application/json": infer B extends object } }
}
  ? B
  : unknown

/** What an operation answers on success (200 or 201). */
export type Answer<O> = O extends { readonly responses: infer Rs }
  ? Rs extends { readonly 200: { readonly content: { readonly "application/json": infer A } } }
    ? A
    : Rs extends { readonly 201: { readonly content: { readonly "application/json": infer A } } }
      ? A
      : never
  : never

type Flatten<T> = { [K in keyof T]: T[K] } & {}

/** One method's input: its path parameters by name, plus its query (GET, DELETE) or its body (POST, PATCH). */
export type Input<O> = Flatten<PathParams<O> & Query<O> & Body<O>>

/** A paged answer: `data`, `has_more` and `next_cursor`. */
export interface PageShape {
  readonly data: ReadonlyArray<unknown>
  readonly has_more: boolean
  readonly next_cursor: string
}

/** The page variant of an operation's answer (`products.list` also answers summaries when asked without paging). */
export type Page<O> = Extract<Answer<O>, PageShape>

/** One row of a paged answer. */
export type Row<O> = Page<O>["data"][number]

/** The body of each error status, from the contract's error schemas. */
export type ErrorBody<Name extends keyof components["schemas"]> = components["schemas"][Name]
