import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { StoreFeeds } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"

/** The store API's feeds of payments, changes, refunds and cohort sign-ups. */
export const FeedsHandlersLive = HttpApiBuilder.group(StoreApi, "feeds", (handlers) =>
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
