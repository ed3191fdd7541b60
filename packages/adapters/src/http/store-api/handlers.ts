import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  identityJson,
  productApiAnswer,
  productPageJson,
  productSummaryJson,
  readProductListQuery,
  sellableCustomAiJson,
  StoreCatalog,
  StoreCohorts,
  StoreCustomers,
  StoreFeeds,
  StoreSales
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect, Layer } from "effect"
import { withCaller } from "./caller.js"
import { EmailListHandlersLive } from "./email-list.js"
import { EmailSequencesHandlersLive } from "./email-sequences.js"
import { answer } from "./errors.js"
import { FormsHandlersLive } from "./forms.js"
import { InstantHooksHandlersLive } from "./hooks.js"
import { WebhooksHandlersLive } from "./webhooks.js"

const IdentityLive = HttpApiBuilder.group(StoreApi, "identity", (handlers) =>
  Effect.map(StoreCatalog, (catalog) =>
    handlers
      .handle("me", () =>
        withCaller("identity.me", (caller) =>
          Effect.map(catalog.me(caller), (identity) => ({ ok: true as const, ...identityJson(identity) }))
        )
      )
      .handle("customAis", () =>
        withCaller("identity.customAis", (caller) =>
          Effect.map(catalog.listCustomAis(caller), (all) => ({
            ok: true as const,
            custom_ais: all.map(sellableCustomAiJson)
          }))
        )
      )
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
        withCaller("products.list", (caller) =>
          Effect.if(hasPagingField(urlParams), {
            onTrue: () =>
              answer(
                Effect.flatMap(readProductListQuery(urlParams), (query) =>
                  Effect.map(catalog.listPage(caller, query), (page) => productPageJson(page, query.page))
                )
              ),
            onFalse: () =>
              Effect.map(catalog.listSummaries(caller), (products) => ({
                ok: true as const,
                products: products.map(productSummaryJson)
              }))
          })
        )
      )
      .handle("create", ({ payload }) =>
        withCaller("products.create", (caller) => {
          const { custom_ai_id, ...changes } = payload
          return answer(Effect.map(catalog.create(caller, custom_ai_id, changes), productApiAnswer))
        })
      )
      .handle("get", ({ path }) =>
        withCaller("products.get", (caller) => answer(Effect.map(catalog.get(caller, path.id), productApiAnswer)))
      )
      .handle("update", ({ path, payload }) =>
        withCaller("products.update", (caller) =>
          answer(Effect.map(catalog.patch(caller, path.id, payload), productApiAnswer))
        )
      )
      .handle("publish", ({ path }) =>
        withCaller("products.publish", (caller) =>
          answer(Effect.map(catalog.publish(caller, path.id), productApiAnswer))
        )
      )
      .handle("unpublish", ({ path }) =>
        withCaller("products.unpublish", (caller) =>
          answer(Effect.map(catalog.unpublish(caller, path.id), productApiAnswer))
        )
      )
      .handle("cohorts", ({ path }) =>
        withCaller("products.cohorts", (caller) => answer(cohorts.list(caller, path.id)))
      )
      .handle("createCohort", ({ path, payload }) =>
        withCaller("products.createCohort", (caller) =>
          answer(
            cohorts.createFor(caller, {
              productId: path.id,
              name: payload.name,
              capacity: payload.capacity,
              startsOn: payload.starts_on
            })
          )
        )
      )
  })
)

const SalesLive = HttpApiBuilder.group(StoreApi, "sales", (handlers) =>
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

const CustomersLive = HttpApiBuilder.group(StoreApi, "customers", (handlers) =>
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
        withCaller("customers.recent", (caller) => feeds.customers(caller, urlParams.product))
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

const FeedsLive = HttpApiBuilder.group(StoreApi, "feeds", (handlers) =>
  Effect.map(StoreFeeds, (feeds) =>
    handlers
      .handle("payments", ({ urlParams }) =>
        withCaller("feeds.payments", (caller) => feeds.payments(caller, urlParams.product))
      )
      .handle("changes", ({ urlParams }) =>
        withCaller("feeds.changes", (caller) => feeds.changes(caller, urlParams.product))
      )
      .handle("refunds", ({ urlParams }) =>
        withCaller("feeds.refunds", (caller) => feeds.refunds(caller, urlParams.product))
      )
      .handle("cohortSignups", ({ urlParams }) =>
        withCaller("feeds.cohortSignups", (caller) => feeds.cohortSignups(caller, urlParams.product))
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
  EmailListHandlersLive,
  EmailSequencesHandlersLive,
  FormsHandlersLive,
  WebhooksHandlersLive,
  InstantHooksHandlersLive
)
