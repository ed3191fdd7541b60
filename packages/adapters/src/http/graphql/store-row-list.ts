import type { StoreCaller, StoreListQuery } from "@svc/core/store"
import type { Effect } from "effect"
import type { GraphQLFieldConfigArgumentMap, GraphQLOutputType } from "graphql"
import type { StoreFailure } from "./store-contract.js"

/**
 * A list of the store's rows (paid questions, reviews) as `storeQueries` turns it into a connection over the store
 * API's keyset pages: its node, its filters, and how one page is read.
 */
export interface StoreRowList {
  readonly node: GraphQLOutputType
  readonly description: string
  readonly filters: GraphQLFieldConfigArgumentMap
  /** One page of the list's route, for `query` (the page and range) and the field's filter arguments. */
  readonly page: (
    caller: StoreCaller,
    query: StoreListQuery,
    args: Readonly<Record<string, unknown>>,
    productId: string | undefined
  ) => Effect.Effect<
    { readonly data: ReadonlyArray<unknown>; readonly has_more: boolean; readonly next_cursor: string },
    StoreFailure
  >
}

/** A filter argument as the store's list readers take it: its text, or undefined when not given. */
export const argText = (value: unknown): string | undefined => (value == null ? undefined : String(value))
