import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  discountCodeApiAnswer,
  discountCodeCreatedJson,
  type DiscountCodeContext,
  discountCodePageJson,
  newDiscountCodeOf,
  pagedAnswer,
  readDiscountCodeListQuery,
  StoreDiscountCodes
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Clock, Effect } from "effect"
import { PublicUrl } from "../config.js"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The store API's discount code routes: make, list, read and turn off the codes of the service's checkout. */
export const DiscountCodesHandlersLive = HttpApiBuilder.group(StoreApi, "discountCodes", (handlers) =>
  Effect.gen(function* () {
    const codes = yield* StoreDiscountCodes
    const url = yield* PublicUrl
    // Read after the use case, so `active` is said as of the answer, never before the change it answers.
    const context = Effect.map(
      Clock.currentTimeMillis,
      (now): DiscountCodeContext => ({ publicBase: url.base, now: new Date(now) })
    )
    return handlers
      .handle("create", ({ payload }) =>
        withCaller("discountCodes.create", (caller) =>
          answer(Effect.zipWith(codes.create(caller, newDiscountCodeOf(payload)), context, discountCodeCreatedJson))
        )
      )
      .handle("list", ({ urlParams }) =>
        withCaller("discountCodes.list", (caller) =>
          Effect.flatMap(context, (links) =>
            answer(
              pagedAnswer(
                readDiscountCodeListQuery(urlParams),
                (query) => codes.listPage(caller, query),
                discountCodePageJson(links)
              )
            )
          )
        )
      )
      .handle("get", ({ path }) =>
        withCaller("discountCodes.get", (caller) =>
          answer(Effect.zipWith(codes.get(caller, path.id), context, discountCodeApiAnswer))
        )
      )
      .handle("disable", ({ path }) =>
        withCaller("discountCodes.disable", (caller) =>
          answer(Effect.zipWith(codes.disable(caller, path.id), context, discountCodeApiAnswer))
        )
      )
  })
)
