import { Clock, Effect, Encoding, Option } from "effect"
import { constantTimeEqual } from "../../auth/oauth/crypto.js"
import { WorkspacesRepo } from "../../accounts/ports.js"
import { makeEventRecorder } from "../../events/service.js"
import { Conflict, FieldProblem, InvalidInput, NotFound } from "../../shared/errors.js"
import { Ids, Secrets, Transactor } from "../../shared/ports.js"
import { unstorableText } from "../../shared/storable-text.js"
import { ProductsRepo } from "../catalog/ports.js"
import type { Product } from "../catalog/product.js"
import { StorePages } from "../catalog/store-pages.js"
import { AccessRepo } from "../sales/ports.js"
import { ReviewRequestsRepo, ReviewsRepo } from "./ports.js"
import { type ProductReview, REVIEW_NAME_MAX, REVIEW_TEXT_MAX } from "./review.js"
import { REVIEW_REQUEST_DELAY_DAYS, type ReviewRequest, reviewUrlOf } from "./review-request.js"

const DAY_MS = 86_400_000

/** A buyer's review as their review page posts it. */
export interface BuyerReviewInput {
  readonly rating: string
  readonly text: string
  readonly name: string
  /** Whether the buyer lets the seller quote their words (on the product's page, as a testimonial). */
  readonly quote: boolean
}

/** The review page's view of a request: what is reviewed, and by whom it was asked. */
export interface ReviewPageView {
  readonly request: ReviewRequest
  readonly productTitle: string
  readonly storeName: string
}

/** The fields of a buyer's review, checked; or a problem per field, in words for the review page. */
export const readBuyerReview = (input: BuyerReviewInput) => {
  const problems: Array<FieldProblem> = []
  const problem = (path: string, message: string) => problems.push(new FieldProblem({ path, message }))
  const rating = Number(input.rating.trim())
  if (!(input.rating.trim() !== "" && Number.isInteger(rating) && rating >= 1 && rating <= 5)) {
    problem("rating", "Choose 1 to 5 stars.")
  }
  const text = input.text.trim()
  if (text.length === 0) problem("text", "Write a few words about it.")
  else if (text.length > REVIEW_TEXT_MAX) {
    problem("text", `Keep your review under ${REVIEW_TEXT_MAX.toLocaleString("en")} characters.`)
  } else if (unstorableText(text) !== undefined) problem("text", "Your review has characters we cannot keep.")
  const name = input.name.trim()
  if (name.length > REVIEW_NAME_MAX || unstorableText(name) !== undefined) {
    problem("name", `Keep your name under ${REVIEW_NAME_MAX} characters of text.`)
  }
  return { problems, rating, text, name: name === "" ? null : name, quote: input.quote }
}

/**
 * Buyers' reviews: each buyer's first sale of a product asks them, `REVIEW_REQUEST_DELAY_DAYS` later, for a rating
 * and words through a link only they have (`review-worker.ts` sends it). Their review counts in the product's rating
 * at once; its words show on the product's page, and make a testimonial, only when they let the seller quote them.
 * A link answers once.
 */
export class StoreReviewRequests extends Effect.Service<StoreReviewRequests>()("svc/store/StoreReviewRequests", {
  effect: Effect.gen(function* () {
    const requests = yield* ReviewRequestsRepo
    const reviews = yield* ReviewsRepo
    const products = yield* ProductsRepo
    const access = yield* AccessRepo
    const workspaces = yield* WorkspacesRepo
    const ids = yield* Ids
    const secrets = yield* Secrets
    const transactor = yield* Transactor
    const recordEvent = yield* makeEventRecorder
    const { publicBase } = yield* StorePages

    const reviewUrl = (request: Pick<ReviewRequest, "id" | "key">) => reviewUrlOf(publicBase, request)

    /**
     * Asks `email` to review `product` later, in the sale's transaction: only their first sale of it asks, and a paid
     * question (answered, not used) asks nothing.
     */
    const requestFor = (input: {
      readonly product: Product
      readonly email: string
      readonly name: string | null
      readonly now: Date
    }) =>
      Effect.gen(function* () {
        if (input.product.kind === "question") return
        yield* requests.insertOnce({
          id: yield* ids.make("rrq_"),
          workspaceId: input.product.workspaceId,
          productId: input.product.id,
          email: input.email,
          name: input.name,
          key: Encoding.encodeBase64Url(yield* secrets.randomBytes(24)),
          state: "waiting",
          dueAt: new Date(input.now.getTime() + REVIEW_REQUEST_DELAY_DAYS * DAY_MS),
          dropReason: null,
          reviewId: null,
          createdAt: input.now
        })
      })

    const notFound = () =>
      new NotFound({ message: "There is no such review link. Open the link from your email as it is." })

    /** The request behind a review link, when `key` is its secret; a wrong key and no request look the same. */
    const opened = (id: string, key: string, lock: boolean) =>
      Effect.map(requests.findById(id, lock), (found) =>
        Option.filter(
          found,
          (request) => key.length > 0 && request.state !== "dropped" && constantTimeEqual(request.key, key)
        )
      )

    const viewOf = (request: ReviewRequest) =>
      Effect.gen(function* () {
        const product = yield* products.find(request.workspaceId, request.productId)
        if (Option.isNone(product)) return Option.none<ReviewPageView>()
        const store = yield* workspaces.findStore(request.workspaceId)
        return Option.some({
          request,
          productTitle: product.value.fields.title,
          storeName: Option.match(store, { onNone: () => "The seller", onSome: (s) => s.name })
        })
      })

    /** What the review page shows for a link: the request, its product and store; NotFound for a forged link. */
    const forBuyer = (id: string, key: string) =>
      Effect.flatMap(opened(id, key, false), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(notFound()),
          onSome: (request) =>
            Effect.flatMap(viewOf(request), (view) =>
              Option.match(view, { onNone: () => Effect.fail(notFound()), onSome: Effect.succeed })
            )
        })
      )

    /**
     * Takes the buyer's review, once per link, all in one transaction: the review, `review.created`, and with leave
     * to quote, `testimonial.created`. Conflict when the link was used already; InvalidInput names each bad field.
     */
    const submit = (id: string, key: string, input: BuyerReviewInput) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const found = yield* opened(id, key, true)
          if (Option.isNone(found)) return yield* notFound()
          const request = found.value
          const view = yield* viewOf(request)
          if (Option.isNone(view)) return yield* notFound()
          if (request.state === "answered") {
            return yield* new Conflict({ message: "This link was used already: your review is in. Thank you." })
          }
          const read = readBuyerReview(input)
          if (read.problems.length > 0) {
            return yield* new InvalidInput({
              message: read.problems.map((p) => `${p.path}: ${p.message}`).join("; "),
              errors: read.problems
            })
          }
          const now = new Date(yield* Clock.currentTimeMillis)
          const review: ProductReview = {
            id: yield* ids.make("rev_"),
            workspaceId: request.workspaceId,
            productId: request.productId,
            origin: "buyer",
            rating: read.rating,
            text: read.text,
            name: read.name,
            email: request.email,
            source: null,
            quotable: read.quote,
            approved: read.quote,
            givenAt: now,
            createdAt: now
          }
          yield* reviews.insertNew([review])
          yield* requests.markAnswered(request.id, review.id, now)
          // Matched to a customer of the store, or empty (the seller removed them since), as the feed's rule says.
          const customer = yield* access.findCustomer(request.workspaceId, request.email)
          const product = { product_id: request.productId, product_title: view.value.productTitle }
          yield* recordEvent(request.workspaceId, "review.created", {
            review_id: review.id,
            ...product,
            reviewer_email: Option.isSome(customer) ? request.email : "",
            reviewer_name: review.name,
            rating: read.rating,
            text: review.text,
            quotable: review.approved,
            created_at: now.toISOString()
          })
          if (review.approved) {
            yield* recordEvent(request.workspaceId, "testimonial.created", {
              testimonial_id: review.id,
              ...product,
              email: request.email,
              name: review.name,
              rating: read.rating,
              text: review.text,
              created_at: now.toISOString()
            })
          }
          return { review, view: view.value }
        })
      )

    return { requestFor, forBuyer, submit, reviewUrl } as const
  })
}) {}
