import { Effect } from "effect"
import type { Connections } from "./connections.js"
import type { GraphqlKit, GraphqlPart } from "./parts.js"
import { storeMutations } from "./store-mutations.js"
import { storeQueries } from "./store-queries.js"

/**
 * The store on the graph: `store(handle)` with its settings, creator page, products, sales, customers, discount codes,
 * paid questions, reviews, events and webhooks, and the store's changes as mutations. The same services, rules and
 * schemas as the store API (`/store-app/v1`).
 */
export const storePart = (kit: GraphqlKit, connections: Connections) =>
  Effect.gen(function* () {
    const { query, product } = yield* storeQueries(kit, connections)
    const mutation = yield* storeMutations(kit, product)
    const part: GraphqlPart = { query, mutation }
    return part
  })
