import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { customersFeedJson, StoreCohorts, StoreCustomers, StoreFeeds } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The store API's customer routes. */
export const CustomersHandlersLive = HttpApiBuilder.group(StoreApi, "customers", (handlers) =>
  Effect.gen(function* () {
    const customers = yield* StoreCustomers
    const feeds = yield* StoreFeeds
    const cohorts = yield* StoreCohorts
    return handlers
      .handle("add", ({ payload }) => withCaller("customers.add", (caller) => customers.add(caller, payload)))
      .handle("list", ({ urlParams }) =>
        withCaller("customers.list", (caller) => answer(customers.listPage(caller, urlParams)))
      )
      .handle("find", ({ urlParams }) =>
        withCaller("customers.find", (caller) => customers.find(caller, urlParams.email, urlParams.product))
      )
      .handle("recent", ({ urlParams }) =>
        withCaller("customers.recent", (caller) =>
          Effect.map(feeds.customers(caller, urlParams.product), customersFeedJson)
        )
      )
      .handle("get", ({ path }) => withCaller("customers.get", (caller) => answer(customers.get(caller, path.email))))
      .handle("removeAccess", ({ payload }) =>
        withCaller("customers.removeAccess", (caller) => answer(customers.removeAccess(caller, payload)))
      )
      .handle("accessEmail", ({ payload }) =>
        withCaller("customers.accessEmail", (caller) => answer(customers.resendAccessEmail(caller, payload)))
      )
      .handle("cohort", ({ payload }) =>
        withCaller("customers.cohort", (caller) => answer(cohorts.move(caller, payload)))
      )
  })
)
