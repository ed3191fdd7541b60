import { Clock, Effect, Either, Option, Schema } from "effect"
import { Email } from "../../accounts/schema.js"
import { requireApiKeyFor, type StoreCaller } from "../../auth/store-caller.js"
import { Conflict, FieldProblem, InvalidInput, NotFound } from "../../shared/errors.js"
import { parseInstant } from "../../shared/list-query.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { unstorableText } from "../../shared/storable-text.js"
import { ProductsRepo } from "../catalog/ports.js"
import type { Product } from "../catalog/product.js"
import { ReviewsRepo } from "./ports.js"
import type { ReviewListQuery } from "./review-query.js"
import { type ProductReview, REVIEW_IMPORT_MAX, REVIEW_NAME_MAX, REVIEW_TEXT_MAX, REVIEWS_SHOWN } from "./review.js"

/** One testimonial to import, as the seller gives it. */
export interface ImportedReview {
  readonly text: string
  readonly name?: string | undefined
  readonly rating?: number | undefined
  readonly source?: string | undefined
  readonly email?: string | undefined
  /** When it was given: an ISO date or time, or milliseconds; left out, the time of the import. */
  readonly givenAt?: string | undefined
}

const SOURCE_MAX = 100
const decodeEmail = Schema.decodeUnknownEither(Email)

/**
 * Product reviews: the testimonials a seller imports (shown on the product's page, marked imported, never an event
 * of the New Review or New Testimonial feeds), and what a product's page shows of them.
 */
export class StoreReviews extends Effect.Service<StoreReviews>()("svc/store/StoreReviews", {
  effect: Effect.gen(function* () {
    const repo = yield* ReviewsRepo
    const products = yield* ProductsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor

    /** The review `given` as kept, or what is wrong with it (each problem at `at.<field>`). */
    const readOne = (given: ImportedReview, at: string, now: Date) => {
      const problems: Array<FieldProblem> = []
      const problem = (field: string, message: string) =>
        problems.push(new FieldProblem({ path: `${at}.${field}`, message: `${at}.${field}: ${message}` }))
      const text = given.text.trim()
      if (text.length === 0) problem("text", "the review's words are needed")
      else if (text.length > REVIEW_TEXT_MAX) problem("text", `at most ${REVIEW_TEXT_MAX} characters`)
      else if (unstorableText(text) !== undefined) problem("text", unstorableText(text) ?? "")
      const name = given.name?.trim() || null
      if (name !== null && (name.length > REVIEW_NAME_MAX || unstorableText(name) !== undefined)) {
        problem("name", `at most ${REVIEW_NAME_MAX} characters of text`)
      }
      const rating = given.rating ?? null
      if (rating !== null && !(Number.isInteger(rating) && rating >= 1 && rating <= 5)) {
        problem("rating", "a whole number of stars from 1 to 5")
      }
      const source = given.source?.trim() || null
      if (source !== null && (source.length > SOURCE_MAX || unstorableText(source) !== undefined)) {
        problem("source", `at most ${SOURCE_MAX} characters of text`)
      }
      const email = given.email?.trim() ? decodeEmail(given.email.trim()) : undefined
      if (email !== undefined && Either.isLeft(email)) problem("email", "an email address like name@example.com")
      const givenAt = given.givenAt === undefined ? now : parseInstant(given.givenAt)
      if (givenAt === undefined) problem("date", "an ISO date or time, or milliseconds since 1970")
      else if (givenAt.getTime() > now.getTime()) problem("date", "when it was given: not in the future")
      return {
        problems,
        review: {
          text,
          name,
          rating,
          source,
          email: email === undefined || Either.isLeft(email) ? null : email.right.toLowerCase(),
          givenAt: givenAt ?? now
        }
      }
    }

    const findProduct = (caller: StoreCaller, productId: string) =>
      Effect.flatMap(products.find(caller.workspaceId, productId), (found) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(
              new NotFound({ message: `no product ${productId} in this store`, next: { _tag: "ListProducts" } })
            ),
          onSome: Effect.succeed
        })
      )

    /**
     * Imports testimonials given elsewhere onto a product's page, all or none: every broken rule is named at once
     * and nothing is kept. One the product already has (the same words by the same name) is left out, so an import
     * run twice adds nothing.
     */
    const importReviews = (
      caller: StoreCaller,
      input: { readonly productId: string; readonly reviews: ReadonlyArray<ImportedReview> }
    ) =>
      Effect.gen(function* () {
        yield* requireApiKeyFor(caller, "import reviews")
        const product = yield* findProduct(caller, input.productId)
        if (input.reviews.length === 0 || input.reviews.length > REVIEW_IMPORT_MAX) {
          return yield* new InvalidInput({
            message: `give 1 to ${REVIEW_IMPORT_MAX} reviews per import`,
            errors: [
              new FieldProblem({ path: "reviews", message: `give 1 to ${REVIEW_IMPORT_MAX} reviews per import` })
            ]
          })
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        const read = input.reviews.map((given, i) => readOne(given, `reviews.${i}`, now))
        const problems = read.flatMap((r) => r.problems)
        if (problems.length > 0) {
          return yield* new InvalidInput({ message: problems.map((p) => p.message).join("; "), errors: problems })
        }
        const reviews = yield* Effect.forEach(read, ({ review }) =>
          Effect.map(
            ids.make("rev_"),
            (id): ProductReview => ({
              id,
              workspaceId: product.workspaceId,
              productId: product.id,
              origin: "imported",
              quotable: true,
              approved: true,
              createdAt: now,
              ...review
            })
          )
        )
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const added = yield* repo.insertNew(reviews)
            return {
              product,
              imported: added.length,
              alreadyThere: reviews.length - added.length,
              rating: yield* repo.rating(product.workspaceId, product.id)
            }
          })
        )
      })

    /** What a product's page shows: its rating and its newest approved reviews. */
    const shownFor = (product: Product) =>
      Effect.zipWith(
        repo.rating(product.workspaceId, product.id),
        repo.shown(product.workspaceId, product.id, REVIEWS_SHOWN),
        (rating, reviews) => ({ rating, reviews })
      )

    const findReview = (caller: StoreCaller, id: string) =>
      Effect.flatMap(repo.find(caller.workspaceId, id.trim()), (found) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(new NotFound({ message: `no review ${id} in this store`, next: { _tag: "ListReviews" } })),
          onSome: Effect.succeed
        })
      )

    /** The store's reviews, newest recorded first, optionally of one product or origin. */
    const listPage = (caller: StoreCaller, query: ReviewListQuery) =>
      repo.listPage(
        caller.workspaceId,
        { productId: query.productId, origin: query.origin, ...query.created },
        query.page
      )

    /**
     * Shows a review's words on its product's page, or hides them. A buyer's review shows only with their leave to
     * quote it: showing one they did not allow is a Conflict. The rating of a hidden buyer's review still counts.
     */
    const setShown = (caller: StoreCaller, id: string, shown: boolean) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const review = yield* findReview(caller, id)
          if (shown && !review.quotable) {
            return yield* new Conflict({
              message: `review ${review.id} cannot be shown: its buyer did not let the seller quote it (only they can, and their link works once)`
            })
          }
          if (review.approved !== shown) yield* repo.setApproved(caller.workspaceId, review.id, shown)
          return { ...review, approved: shown } satisfies ProductReview
        })
      )

    return { importReviews, shownFor, listPage, get: findReview, setShown } as const
  })
}) {}
