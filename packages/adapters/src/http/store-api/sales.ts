import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  readSaleListQuery,
  saleAnswerJson,
  saleApiAnswer,
  saleInputOf,
  salePageJson,
  salesFeedJson,
  StoreFeeds,
  StoreSales,
  pagedAnswer
} from "@svc/core/store"
import { StoreApi, storeApiNextSteps } from "@svc/core/store-api"
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
        withCaller("sales.record", (caller) =>
          answer(
            Effect.map(sales.recordSale(caller, saleInputOf(payload)), (outcome) =>
              saleAnswerJson(outcome, storeApiNextSteps)
            )
          )
        )
      )
      .handle("list", ({ urlParams }) =>
        withCaller("sales.list", (caller) =>
          answer(pagedAnswer(readSaleListQuery(urlParams), (query) => sales.listPage(caller, query), salePageJson))
        )
      )
      .handle("recent", ({ urlParams }) =>
        withCaller("sales.recent", (caller) => Effect.map(feeds.sales(caller, urlParams.product), salesFeedJson))
      )
      .handle("get", ({ path }) =>
        withCaller("sales.get", (caller) => answer(Effect.map(sales.get(caller, path.id), saleApiAnswer)))
      )
  })
)
