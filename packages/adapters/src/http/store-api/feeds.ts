import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { changesFeedJson, cohortSignupsFeedJson, paymentsFeedJson, refundsFeedJson, StoreFeeds } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"

/** The store API's feeds of payments, changes, refunds and cohort sign-ups. */
export const FeedsHandlersLive = HttpApiBuilder.group(StoreApi, "feeds", (handlers) =>
  Effect.map(StoreFeeds, (feeds) =>
    handlers
      .handle("payments", ({ urlParams }) =>
        withCaller("feeds.payments", (caller) =>
          Effect.map(feeds.payments(caller, urlParams.product), paymentsFeedJson)
        )
      )
      .handle("changes", ({ urlParams }) =>
        withCaller("feeds.changes", (caller) => Effect.map(feeds.changes(caller, urlParams.product), changesFeedJson))
      )
      .handle("refunds", ({ urlParams }) =>
        withCaller("feeds.refunds", (caller) => Effect.map(feeds.refunds(caller, urlParams.product), refundsFeedJson))
      )
      .handle("cohortSignups", ({ urlParams }) =>
        withCaller("feeds.cohortSignups", (caller) =>
          Effect.map(feeds.cohortSignups(caller, urlParams.product), cohortSignupsFeedJson)
        )
      )
  )
)
