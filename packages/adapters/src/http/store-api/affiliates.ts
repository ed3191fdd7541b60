import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  affiliateApplicationsFeedJson,
  affiliateJson,
  affiliatePageJson,
  affiliatePayoutJson,
  affiliateProgramJson,
  affiliateSalesFeedJson,
  affiliatesFeedJson,
  type DescribedAffiliate,
  pagedAnswer,
  readAffiliateListQuery,
  StoreAffiliates,
  StoreFeeds
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect, Option } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The store API's affiliates: programs, affiliates and decisions, payout reports, and the three feeds. */
export const AffiliatesHandlersLive = HttpApiBuilder.group(StoreApi, "affiliates", (handlers) =>
  Effect.gen(function* () {
    const affiliates = yield* StoreAffiliates
    const feeds = yield* StoreFeeds
    const one = (described: DescribedAffiliate) => ({ ok: true as const, affiliate: affiliateJson(described) })
    return handlers
      .handle("program", ({ path }) =>
        withCaller("affiliates.program", (caller) =>
          answer(
            Effect.flatMap(affiliates.program(caller, path.id), ({ program }) =>
              Effect.map(
                Option.match(program, {
                  onNone: () => Effect.succeed(null),
                  onSome: (found) => Effect.map(affiliates.describeProgram(found), affiliateProgramJson)
                }),
                (row) => ({ ok: true as const, program: row })
              )
            )
          )
        )
      )
      .handle("setProgram", ({ path, payload }) =>
        withCaller("affiliates.setProgram", (caller) =>
          answer(
            Effect.flatMap(
              affiliates.setProgram(caller, path.id, {
                commissionKind: payload.commission_kind,
                commissionValue: payload.commission_value,
                cookieDays: payload.cookie_days,
                approval: payload.approval,
                active: payload.active
              }),
              ({ program }) =>
                Effect.map(affiliates.describeProgram(program), (described) => ({
                  ok: true as const,
                  program: affiliateProgramJson(described)
                }))
            )
          )
        )
      )
      .handle("recent", ({ urlParams }) =>
        withCaller("affiliates.recent", (caller) =>
          Effect.map(feeds.affiliates(caller, urlParams.product), affiliatesFeedJson)
        )
      )
      .handle("applications", ({ urlParams }) =>
        withCaller("affiliates.applications", (caller) =>
          Effect.map(feeds.affiliateApplications(caller, urlParams.product), affiliateApplicationsFeedJson)
        )
      )
      .handle("sales", ({ urlParams }) =>
        withCaller("affiliates.sales", (caller) =>
          Effect.map(feeds.affiliateSales(caller, urlParams.product), affiliateSalesFeedJson)
        )
      )
      .handle("list", ({ urlParams }) =>
        withCaller("affiliates.list", (caller) =>
          answer(
            pagedAnswer(readAffiliateListQuery(urlParams), (query) => affiliates.list(caller, query), affiliatePageJson)
          )
        )
      )
      .handle("add", ({ payload }) =>
        withCaller("affiliates.add", (caller) =>
          answer(
            Effect.flatMap(
              affiliates.add(caller, payload.product, { email: payload.email, name: payload.name, code: payload.code }),
              ({ affiliate }) => Effect.map(affiliates.describe(affiliate), one)
            )
          )
        )
      )
      .handle("get", ({ path }) =>
        withCaller("affiliates.get", (caller) =>
          answer(Effect.map(Effect.flatMap(affiliates.get(caller, path.id), affiliates.describe), one))
        )
      )
      .handle("decide", ({ path, payload }) =>
        withCaller("affiliates.decide", (caller) =>
          answer(
            Effect.map(Effect.flatMap(affiliates.decide(caller, path.id, payload.decision), affiliates.describe), one)
          )
        )
      )
      .handle("payouts", ({ path, urlParams }) =>
        withCaller("affiliates.payouts", (caller) =>
          answer(Effect.map(affiliates.payouts(caller, path.id, urlParams), affiliatePayoutJson))
        )
      )
  })
)
