import { Effect, Schema } from "effect"
import { defineTool } from "../../tools/tool.js"
import { inToolNames, makeStoreOfCall, StoreHandleField } from "../tool-support.js"
import { REVIEW_IMPORT_MAX, REVIEW_TEXT_MAX } from "./review.js"
import { StoreReviews } from "./reviews.js"

const ReviewInput = Schema.Struct({
  text: Schema.String.pipe(Schema.maxLength(REVIEW_TEXT_MAX)).annotations({ description: "The words, as given." }),
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(200)).annotations({ description: "Who gave it." })),
  rating: Schema.optional(Schema.Int.pipe(Schema.between(1, 5)).annotations({ description: "Stars, 1 to 5." })),
  source: Schema.optional(
    Schema.String.pipe(Schema.maxLength(100)).annotations({ description: "Where it was given, e.g. Trustpilot." })
  ),
  email: Schema.optional(Schema.String.pipe(Schema.maxLength(254)).annotations({ description: "Their email." })),
  date: Schema.optional(
    Schema.String.pipe(Schema.maxLength(40)).annotations({ description: "When given (ISO or ms); omit: now." })
  )
}).annotations({ parseOptions: { onExcessProperty: "error" } })

const Rating = Schema.Struct({
  count: Schema.Int.annotations({ description: "Ratings counted: every buyer's, and shown imported ones'." }),
  average: Schema.NullOr(Schema.Number).annotations({ description: "Their average, one decimal; null: none." })
})

/** The Store group's svc_import_product_reviews. */
export const reviewTools = Effect.gen(function* () {
  const reviews = yield* StoreReviews
  const storeOf = yield* makeStoreOfCall
  return [
    defineTool({
      name: "svc_import_product_reviews",
      title: "Import product reviews",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Import up to ${REVIEW_IMPORT_MAX} testimonials given elsewhere onto a product's page (all or none; each marked imported, never a New Review or New Testimonial event). Repeats are left out. Answers the product's rating.`,
      input: {
        storeHandle: StoreHandleField,
        productId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
          description: "Product id (prod_…)."
        }),
        reviews: Schema.Array(ReviewInput)
          .pipe(Schema.minItems(1), Schema.maxItems(REVIEW_IMPORT_MAX))
          .annotations({ description: "The testimonials, each with its text." })
      },
      output: {
        imported: Schema.Int.annotations({ description: "Testimonials added to the product's page." }),
        alreadyThere: Schema.Int.annotations({ description: "Left out: the product already had them." }),
        rating: Rating.annotations({ description: "The product's rating now." })
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const done = yield* reviews.importReviews(caller, {
            productId: input.productId,
            reviews: input.reviews.map((r) => ({ ...r, givenAt: r.date }))
          })
          return { imported: done.imported, alreadyThere: done.alreadyThere, rating: done.rating }
        }).pipe(inToolNames({ product: "productId" }))
    })
  ]
})
