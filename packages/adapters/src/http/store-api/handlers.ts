import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  CurrentStoreCaller,
  type StoreCaller,
  StoreApi,
  StoreCatalog,
  StoreCohorts,
  StoreCustomers,
  StoreFeeds,
  StoreSales
} from "@svc/core"
import { Effect, Layer } from "effect"
import { answer } from "./errors.js"
import { WebhooksHandlersLive } from "./webhooks.js"

const withCaller = <A, E, R>(use: (caller: StoreCaller) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(CurrentStoreCaller, use)

const IdentityLive = HttpApiBuilder.group(StoreApi, "identity", (handlers) =>
  Effect.map(StoreCatalog, (catalog) =>
    handlers.handle("me", () => withCaller(catalog.me)).handle("customAis", () => withCaller(catalog.listCustomAis))
  )
)

const hasPagingField = (query: Readonly<Record<string, string | undefined>>) =>
  ["limit", "starting_after", "created_after", "created_before", "status"].some((key) => query[key] !== undefined)

const ProductsLive = HttpApiBuilder.group(StoreApi, "products", (handlers) =>
  Effect.gen(function* () {
    const catalog = yield* StoreCatalog
    const cohorts = yield* StoreCohorts
    return handlers
      .handle("list", ({ urlParams }) =>
        withCaller((caller) =>
          Effect.if(hasPagingField(urlParams), {
            onTrue: () => answer(catalog.listPage(caller, urlParams)),
            onFalse: () => catalog.listSummaries(caller)
          })
        )
      )
      .handle("create", ({ payload }) =>
        withCaller((caller) => {
          const { custom_ai_id, ...changes } = payload
          return answer(catalog.create(caller, custom_ai_id, changes))
        })
      )
      .handle("get", ({ path }) => withCaller((caller) => answer(catalog.get(caller, path.id))))
      .handle("update", ({ path, payload }) => withCaller((caller) => answer(catalog.patch(caller, path.id, payload))))
      .handle("publish", ({ path }) => withCaller((caller) => answer(catalog.publish(caller, path.id))))
      .handle("unpublish", ({ path }) => withCaller((caller) => answer(catalog.unpublish(caller, path.id))))
      .handle("cohorts", ({ path }) => withCaller((caller) => answer(cohorts.list(caller, path.id))))
  })
)

const SalesLive = HttpApiBuilder.group(StoreApi, "sales", (handlers) =>
  Effect.gen(function* () {
    const sales = yield* StoreSales
    const feeds = yield* StoreFeeds
    return handlers
      .handle("record", ({ payload }) => withCaller((caller) => answer(sales.recordSale(caller, payload))))
      .handle("list", ({ urlParams }) => withCaller((caller) => answer(sales.listPage(caller, urlParams))))
      .handle("recent", ({ urlParams }) => withCaller((caller) => feeds.sales(caller, urlParams.product)))
      .handle("get", ({ path }) => withCaller((caller) => answer(sales.get(caller, path.id))))
  })
)

const CustomersLive = HttpApiBuilder.group(StoreApi, "customers", (handlers) =>
  Effect.gen(function* () {
    const customers = yield* StoreCustomers
    const feeds = yield* StoreFeeds
    const cohorts = yield* StoreCohorts
    return handlers
      .handle("add", ({ payload }) => withCaller((caller) => customers.add(caller, payload)))
      .handle("list", ({ urlParams }) => withCaller((caller) => answer(customers.listPage(caller, urlParams))))
      .handle("find", ({ urlParams }) =>
        withCaller((caller) => customers.find(caller, urlParams.email, urlParams.product))
      )
      .handle("recent", ({ urlParams }) => withCaller((caller) => feeds.customers(caller, urlParams.product)))
      .handle("get", ({ path }) => withCaller((caller) => answer(customers.get(caller, path.email))))
      .handle("removeAccess", ({ payload }) => withCaller((caller) => answer(customers.removeAccess(caller, payload))))
      .handle("accessEmail", ({ payload }) =>
        withCaller((caller) => answer(customers.resendAccessEmail(caller, payload)))
      )
      .handle("cohort", ({ payload }) => withCaller((caller) => answer(cohorts.move(caller, payload))))
  })
)

const FeedsLive = HttpApiBuilder.group(StoreApi, "feeds", (handlers) =>
  Effect.map(StoreFeeds, (feeds) =>
    handlers
      .handle("payments", ({ urlParams }) => withCaller((caller) => feeds.payments(caller, urlParams.product)))
      .handle("changes", ({ urlParams }) => withCaller((caller) => feeds.changes(caller, urlParams.product)))
      .handle("refunds", ({ urlParams }) => withCaller((caller) => feeds.refunds(caller, urlParams.product)))
      .handle("cohortSignups", ({ urlParams }) =>
        withCaller((caller) => feeds.cohortSignups(caller, urlParams.product))
      )
  )
)

/** Every handler group of the store API. */
export const StoreHandlersLive = Layer.mergeAll(
  IdentityLive,
  ProductsLive,
  SalesLive,
  CustomersLive,
  FeedsLive,
  WebhooksHandlersLive
)
