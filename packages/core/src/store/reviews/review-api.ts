import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { listQueryFields, PageOf, queryChoice, strict } from "../../shared/list-wire.js"

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })
const nullableString = Schema.NullOr(Schema.String)
const product = {
  product_id: Schema.String.annotations({ description: "The reviewed product's id." }),
  product_title: Schema.String
}
const rating = Schema.Int.annotations({ description: "Stars, 1 to 5." })

/** What `review.created` and a New Review feed row say of a buyer's review. */
export const reviewFields = {
  review_id: Schema.String.annotations({ description: "The review's id (rev_…): GET /reviews/<id>." }),
  ...product,
  reviewer_email: Schema.String.annotations({
    description: "The reviewer's email when they are a customer of the store; empty when they are not (any more)."
  }),
  reviewer_name: nullableString.annotations({ description: "The name they gave with the review; null: none." }),
  rating,
  text: Schema.String,
  quotable: Schema.Boolean.annotations({
    description: "They let the seller quote their words: the review shows on the product's page (a testimonial too)."
  }),
  created_at: iso
}

/** What `testimonial.created` and a New Testimonial feed row say: a buyer's review they let the seller quote. */
export const testimonialFields = {
  testimonial_id: Schema.String.annotations({ description: "The review it is (rev_…): GET /reviews/<id>." }),
  ...product,
  email: Schema.String.annotations({ description: "The buyer's email." }),
  name: nullableString.annotations({ description: "The name to quote them by; null when they gave none." }),
  rating,
  text: Schema.String.annotations({ description: "Their words, which may be quoted." }),
  created_at: iso
}

/** A row of `GET /reviews/recent`: the `review.created` event's data under the event's id. */
export const ReviewFeedRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…)." }),
  ...reviewFields
}).annotations({ identifier: "ReviewFeedRow", description: "A buyer's review (imported testimonials left out)." })

/** A row of `GET /testimonials/recent`: the `testimonial.created` event's data under the event's id. */
export const TestimonialFeedRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…)." }),
  ...testimonialFields
}).annotations({
  identifier: "TestimonialFeedRow",
  description: "A buyer's review they let the seller quote (imported testimonials left out)."
})

/** A review as the store API lists it: a buyer's or an imported testimonial. */
export const ReviewRow = Schema.Struct({
  id: Schema.String.annotations({ description: "rev_…" }),
  product_id: Schema.String,
  origin: Schema.Literal("buyer", "imported").annotations({
    description: "buyer: through the emailed review link; imported: by the seller."
  }),
  rating: Schema.NullOr(rating),
  text: Schema.String,
  name: nullableString,
  email: nullableString,
  source: nullableString.annotations({ description: "Where an imported one was given." }),
  shown: Schema.Boolean.annotations({
    description: "Its words are on the product's page (a buyer's only if they allowed quoting)."
  }),
  given_at: iso,
  created_at: iso
}).annotations({ identifier: "ReviewRow", description: "A product review." })

const reviewPath = Schema.Struct({ id: Schema.String.annotations({ description: "The review's id (rev_…)." }) })
const productFilter = Schema.optional(Schema.String).annotations({ description: "Only this product's." })

/** The answer of `GET /reviews/<id>` and `POST /reviews/<id>`. */
export const ReviewAnswer = Schema.Struct({ ok: Schema.Literal(true), review: ReviewRow })

/**
 * The reviews on the store API: the list, one review, showing or hiding one on its product's page, and the New Review
 * and New Testimonial feeds (buyers' reviews only: imported testimonials are never events).
 */
export const ReviewsApiGroup = HttpApiGroup.make("reviews")
  .add(
    HttpApiEndpoint.get("list", "/reviews")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          product: productFilter,
          origin: Schema.optional(queryChoice(["buyer", "imported"], "origin must be buyer or imported"))
        }).annotations(strict)
      )
      .addSuccess(PageOf(ReviewRow))
      .annotate(OpenApi.Summary, "List reviews")
      .annotate(
        OpenApi.Description,
        "The store's reviews, newest recorded first: buyers' and imported testimonials (origin says which). Pass next_cursor as starting_after while has_more is true."
      )
  )
  .add(
    HttpApiEndpoint.get("recent", "/reviews/recent")
      .setUrlParams(Schema.Struct({ product: productFilter }).annotations(strict))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), reviews: Schema.Array(ReviewFeedRow) }))
      .annotate(OpenApi.Summary, "New Review feed")
      .annotate(
        OpenApi.Description,
        "Buyers' reviews of the last 30 days, newest first, up to 50; imported testimonials left out. reviewer_email is empty when the reviewer is not a customer of the store."
      )
  )
  .add(
    HttpApiEndpoint.get("testimonials", "/testimonials/recent")
      .setUrlParams(Schema.Struct({ product: productFilter }).annotations(strict))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), testimonials: Schema.Array(TestimonialFeedRow) }))
      .annotate(OpenApi.Summary, "New Testimonial feed")
      .annotate(
        OpenApi.Description,
        "Buyers' reviews of the last 30 days they let the seller quote, newest first, up to 50; imported testimonials left out."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/reviews/:id")
      .setPath(reviewPath)
      .addSuccess(ReviewAnswer)
      .annotate(OpenApi.Summary, "Get a review")
      .annotate(OpenApi.Description, "One review. 404 when the store has no such review.")
  )
  .add(
    HttpApiEndpoint.post("update", "/reviews/:id")
      .setPath(reviewPath)
      .setPayload(
        Schema.Struct({
          shown: Schema.Boolean.annotations({ description: "true shows it on the product's page; false hides it." })
        }).annotations(strict)
      )
      .addSuccess(ReviewAnswer)
      .annotate(OpenApi.Summary, "Show or hide a review")
      .annotate(
        OpenApi.Description,
        "Hides a review's words from its product's page, or shows them again. A buyer's review shows only with their leave to quote it: 409 when asked to show one they did not allow. A hidden buyer's rating still counts in the product's rating."
      )
  )
