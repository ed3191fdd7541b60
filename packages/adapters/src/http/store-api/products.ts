import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  cohortAnswerJson,
  cohortListJson,
  productApiAnswer,
  productPageJson,
  productSummaryJson,
  readProductListQuery,
  StoreCatalog,
  StoreCohorts,
  pagedAnswer
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

const hasPagingField = (query: Readonly<Record<string, unknown>>) =>
  ["limit", "starting_after", "created_after", "created_before", "status"].some((key) => query[key] !== undefined)
/** The store API's product routes, with a product's cohorts. */
export const ProductsHandlersLive = HttpApiBuilder.group(StoreApi, "products", (handlers) =>
  Effect.gen(function* () {
    const catalog = yield* StoreCatalog
    const cohorts = yield* StoreCohorts
    return handlers
      .handle("list", ({ urlParams }) =>
        withCaller("products.list", (caller) =>
          Effect.if(hasPagingField(urlParams), {
            onTrue: () =>
              answer(
                pagedAnswer(
                  readProductListQuery(urlParams),
                  (query) => catalog.listPage(caller, query),
                  productPageJson
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
          const { custom_ai_id, kind, ...changes } = payload
          return answer(
            Effect.map(catalog.createOfKind(caller, { kind, customAiId: custom_ai_id }, changes), productApiAnswer)
          )
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
        withCaller("products.cohorts", (caller) => answer(Effect.map(cohorts.list(caller, path.id), cohortListJson)))
      )
      .handle("createCohort", ({ path, payload }) =>
        withCaller("products.createCohort", (caller) =>
          answer(
            Effect.map(
              cohorts.createFor(caller, {
                productId: path.id,
                name: payload.name,
                capacity: payload.capacity,
                startsOn: payload.starts_on
              }),
              cohortAnswerJson
            )
          )
        )
      )
  })
)
