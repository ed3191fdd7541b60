import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  accessEmailSentJson,
  addCustomerJson,
  cohortMoveJson,
  customerJson,
  customerMatchJson,
  customerPageJson,
  customersFeedJson,
  readCustomerListQuery,
  removeAccessJson,
  StoreCohorts,
  StoreCustomers,
  StoreFeeds,
  pagedAnswer
} from "@svc/core/store"
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
      .handle("add", ({ payload }) =>
        withCaller("customers.add", (caller) =>
          Effect.map(
            customers.add(caller, {
              productId: payload.product,
              email: payload.email,
              name: payload.name,
              sendEmail: payload.send_email
            }),
            addCustomerJson
          )
        )
      )
      .handle("list", ({ urlParams }) =>
        withCaller("customers.list", (caller) =>
          answer(
            pagedAnswer(
              readCustomerListQuery(urlParams),
              (query) => customers.listPage(caller, query),
              customerPageJson
            )
          )
        )
      )
      .handle("find", ({ urlParams }) =>
        withCaller("customers.find", (caller) =>
          Effect.map(customers.find(caller, urlParams.email, urlParams.product), (found) => ({
            ok: true as const,
            customers: found.map(customerMatchJson)
          }))
        )
      )
      .handle("recent", ({ urlParams }) =>
        withCaller("customers.recent", (caller) =>
          Effect.map(feeds.customers(caller, urlParams.product), customersFeedJson)
        )
      )
      .handle("get", ({ path }) =>
        withCaller("customers.get", (caller) =>
          answer(
            Effect.map(customers.get(caller, path.email), (record) => ({
              ok: true as const,
              customer: customerJson(record)
            }))
          )
        )
      )
      .handle("removeAccess", ({ payload }) =>
        withCaller("customers.removeAccess", (caller) =>
          answer(
            Effect.map(
              customers.removeAccess(caller, { productId: payload.product, email: payload.email }),
              removeAccessJson
            )
          )
        )
      )
      .handle("accessEmail", ({ payload }) =>
        withCaller("customers.accessEmail", (caller) =>
          answer(
            Effect.as(
              customers.resendAccessEmail(caller, { productId: payload.product, email: payload.email }),
              accessEmailSentJson
            )
          )
        )
      )
      .handle("cohort", ({ payload }) =>
        withCaller("customers.cohort", (caller) =>
          answer(
            Effect.map(
              cohorts.move(caller, {
                productId: payload.product,
                email: payload.email,
                cohortId: payload.cohort,
                overCap: payload.over_cap
              }),
              cohortMoveJson
            )
          )
        )
      )
  })
)
