import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { StoreFeeds, StoreSales } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The store API's sale routes. */
export const SalesHandlersLive = HttpApiBuilder.group(StoreApi, "sales", (handlers) =>
  Effect.gen(function* () {
    const sales = yield* StoreSales
    const feeds = yield* StoreFeeds
    return handlers
      .handle("record", ({ payload }) =>
        withCaller("sales.record", (caller) => answer(sales.recordSale(caller, payload)))
      )
      .handle("list", ({ urlParams }) =>
        withCaller("sales.list", (caller) => answer(sales.listPage(caller, urlParams)))
      )
      .handle("recent", ({ urlParams }) =>
        withCaller("sales.recent", (caller) => feeds.sales(caller, urlParams.product))
      )
      .handle("get", ({ path }) => withCaller("sales.get", (caller) => answer(sales.get(caller, path.id))))
  })
)
