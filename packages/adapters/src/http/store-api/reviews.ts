import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  pagedAnswer,
  readReviewListQuery,
  reviewJson,
  reviewPageJson,
  reviewsFeedJson,
  StoreFeeds,
  StoreReviews,
  testimonialsFeedJson
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The store API's reviews: the list, one review, showing or hiding one, and the New Review and Testimonial feeds. */
export const ReviewsHandlersLive = HttpApiBuilder.group(StoreApi, "reviews", (handlers) =>
  Effect.gen(function* () {
    const reviews = yield* StoreReviews
    const feeds = yield* StoreFeeds
    const one = (review: Parameters<typeof reviewJson>[0]) => ({ ok: true as const, review: reviewJson(review) })
    return handlers
      .handle("list", ({ urlParams }) =>
        withCaller("reviews.list", (caller) =>
          answer(
            pagedAnswer(readReviewListQuery(urlParams), (query) => reviews.listPage(caller, query), reviewPageJson)
          )
        )
      )
      .handle("recent", ({ urlParams }) =>
        withCaller("reviews.recent", (caller) => Effect.map(feeds.reviews(caller, urlParams.product), reviewsFeedJson))
      )
      .handle("testimonials", ({ urlParams }) =>
        withCaller("reviews.testimonials", (caller) =>
          Effect.map(feeds.testimonials(caller, urlParams.product), testimonialsFeedJson)
        )
      )
      .handle("get", ({ path }) =>
        withCaller("reviews.get", (caller) => answer(Effect.map(reviews.get(caller, path.id), one)))
      )
      .handle("update", ({ path, payload }) =>
        withCaller("reviews.update", (caller) =>
          answer(Effect.map(reviews.setShown(caller, path.id, payload.shown), one))
        )
      )
  })
)
