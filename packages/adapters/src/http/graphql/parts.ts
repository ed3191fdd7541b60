import type { GraphQLFieldConfigMap } from "graphql"
import type { GraphqlContext } from "./context.js"
import type { TypeMaker } from "./derive.js"
import type { Results } from "./results.js"

/** Root fields of one area of the graph. */
export type RootFields = GraphQLFieldConfigMap<unknown, GraphqlContext>

/** What an area adds to the three root types. */
export interface GraphqlPart {
  readonly query?: RootFields
  readonly mutation?: RootFields
  readonly subscription?: RootFields
}

/** What every area builds its types with: one type maker per schema (names are unique across it) and the results. */
export interface GraphqlKit {
  readonly types: TypeMaker
  readonly results: Results
}

/** `svc_create_note` → `createNote`. */
export const camelCase = (pascal: string): string => pascal.charAt(0).toLowerCase() + pascal.slice(1)
