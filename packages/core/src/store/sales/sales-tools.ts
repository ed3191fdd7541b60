import { Clock, Effect, Schema } from "effect"
import { SaleRow } from "../api-rows.js"
import { CohortRow } from "../overview/feed-rows.js"
import { FieldProblem, InvalidInput, invalid } from "../../shared/errors.js"
import { Cursor, Limit } from "../../shared/paging.js"
import { defineTool } from "../../tools/tool.js"
import { StorePages } from "../catalog/store-pages.js"
import { DISCOUNT_MAX_USES_LIMIT, StoreDiscountCodes } from "../checkout/discount-codes.js"
import { DISCOUNT_CODE_MAX, DISCOUNT_CODE_MIN, type DiscountCode } from "../checkout/discount-code.js"
import { discountCodeJson } from "../checkout/discount-code-json.js"
import { DiscountCodeRow } from "../checkout/discount-codes-api.js"
import { StoreCohorts } from "../cohorts/cohorts.js"
import { cohortJson } from "../cohorts/cohort-json.js"
import { StorePaidQuestions } from "../questions/paid-questions.js"
import { ANSWER_MAX } from "../questions/paid-question.js"
import { PaidQuestionRow } from "../questions/question-api.js"
import { paidQuestionJson } from "../questions/question-json.js"
import { ReviewRow } from "../reviews/review-api.js"
import { reviewJson } from "../reviews/review-json.js"
import { StoreReviews } from "../reviews/reviews.js"
import { SaleEvent } from "./sale.js"
import { saleJson } from "./sale-json.js"
import { isTurnedAway } from "./sale-outcome.js"
import { saleListQueryOf } from "./sale-query.js"
import { StoreSales } from "./sales.js"
import { nextCursorOf, readToolPaging } from "../../shared/list-query.js"
import { emailOf, inToolNames, makeStoreOfCall, rejectionFailure, StoreHandleField } from "../tool-support.js"

const text = (max: number, description: string) =>
  Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max)).annotations({ description }))

// A length cap only (every byte is in tools/list); the address is checked and normalised as the API does.
const EmailField = Schema.String.pipe(Schema.maxLength(254)).annotations({ description: "Buyer's email." })

const optionalEmail = (text: string | undefined) => (text === undefined ? Effect.succeed(undefined) : emailOf(text))

/** Fails with `invalid` on `field` when the chosen action needs it and it is missing. */
const need = <A>(value: A | undefined, field: string, action: string) =>
  value === undefined ? Effect.fail(invalid(field, `${field} is needed for action ${action}`)) : Effect.succeed(value)

const SALE_ROW = "The sale as GET /sales/<id> answers it."
const CODE_ROW = "The discount code as GET /discount-codes/<id> answers it, with checkout_url to share."
const COHORT_ROW = "The cohort as GET /products/<id>/cohorts lists it."

// The store services name fields as the store API does; these tools' failures name the tools' own fields.
const saleFieldNames = inToolNames({
  product: "productId",
  order_id: "orderId",
  subscription_id: "subscriptionId",
  paid_until: "paidUntil",
  ends_at: "endsAt"
})
// The discount code service says the store API's field names in its messages too (`max_uses must be …`), and an
// agent fixes the fields a message names: both the paths and the words are this tool's own.
const CODE_FIELD_WORDS: Readonly<Record<string, string>> = { max_uses: "maxUses", expires_at: "expiresAt" }
const codeFieldNames = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const say = (text: string) => text.replace(/\b(max_uses|expires_at)\b/g, (word) => CODE_FIELD_WORDS[word] ?? word)
  return Effect.mapError(inToolNames({ product: "productId", ...CODE_FIELD_WORDS })(effect), (error) =>
    error instanceof InvalidInput
      ? (new InvalidInput({
          message: say(error.message),
          errors: error.errors.map((problem) => new FieldProblem({ ...problem, message: say(problem.message) })),
          next: error.next
        }) as E)
      : error
  )
}
const cohortFieldNames = inToolNames({
  product: "productId",
  cohort: "cohortId",
  starts_on: "startsOn",
  over_cap: "overCap"
})

/** The Store group's svc_manage_sales and svc_manage_cohorts. */
export const salesTools = Effect.gen(function* () {
  const sales = yield* StoreSales
  const cohorts = yield* StoreCohorts
  const codes = yield* StoreDiscountCodes
  const questions = yield* StorePaidQuestions
  const reviews = yield* StoreReviews
  const questionJson = (question: Parameters<typeof questions.answerUrl>[0]) =>
    paidQuestionJson(question, questions.answerUrl(question))
  const storeOf = yield* makeStoreOfCall
  const { publicBase } = yield* StorePages
  // Read after the use case, so `active` is said as of the answer, never before the change it answers.
  const codeJsonNow = Effect.map(
    Clock.currentTimeMillis,
    (now) => (code: DiscountCode) => discountCodeJson(code, { publicBase, now: new Date(now) })
  )
  const codeAnswer = (code: DiscountCode) => Effect.map(codeJsonNow, (json) => ({ discountCode: json(code) }))
  return [
    defineTool({
      name: "svc_manage_sales",
      title: "Manage sales",
      group: "Store",
      write: true,
      // Not idempotent: a repeated create_code without code makes a second code.
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description:
        "Sales: list, get, record your own checkout's sale event (orderId counts a resend once), refund (access ends; at Stripe too). Discount codes: make, list, get, turn off. Paid questions: list, read, answer (emails the buyer). Reviews: list, hide, show.",
      input: {
        storeHandle: StoreHandleField,
        action: Schema.Literal(
          "list",
          "get",
          "record",
          "refund",
          "create_code",
          "list_codes",
          "get_code",
          "disable_code",
          "list_questions",
          "get_question",
          "answer_question",
          "list_reviews",
          "hide_review",
          "show_review"
        ).annotations({
          description:
            "record needs event, productId, email; get, refund saleId; create_code productId, kind, value; get_code, disable_code codeId; get_question questionId; answer_question questionId, answer; hide_review, show_review reviewId."
        }),
        saleId: text(200, "Sale id (purchase:…)."),
        event: Schema.optional(SaleEvent.annotations({ description: "Sale event to record." })),
        productId: text(100, "Product id (prod_…)."),
        email: Schema.optional(EmailField),
        name: text(200, "Buyer's name."),
        orderId: text(200, "Your order id; counts once."),
        subscriptionId: text(200, "Your subscription id."),
        paidUntil: text(40, "Paid until (ISO or ms)."),
        endsAt: text(40, "cancel: access ends (ISO or ms)."),
        status: Schema.optional(
          Schema.Literal("paid", "refunded", "free").annotations({ description: "list: only this status." })
        ),
        kind: Schema.optional(
          Schema.Literal("percent", "amount").annotations({ description: "create_code: percent or dollars off." })
        ),
        value: Schema.optional(
          Schema.Number.annotations({ description: "create_code: percent 1-100, or dollars (9.99)." })
        ),
        code: text(
          DISCOUNT_CODE_MAX,
          `create_code: ${DISCOUNT_CODE_MIN}-${DISCOUNT_CODE_MAX} letters, digits, dashes; omit: random.`
        ),
        maxUses: Schema.optional(
          Schema.Int.pipe(Schema.between(1, DISCOUNT_MAX_USES_LIMIT)).annotations({
            description: "create_code: most uses; omit: no cap."
          })
        ),
        expiresAt: text(40, "create_code: ends (ISO or ms); omit: never."),
        codeId: text(100, "Discount code id (dsc_…) or the code."),
        questionId: text(100, "Paid question id (pq_…)."),
        answer: text(ANSWER_MAX, "answer_question: the answer, plain text; replaces an earlier one."),
        questionStatus: Schema.optional(
          Schema.Literal("open", "answered").annotations({ description: "list_questions: only open or answered." })
        ),
        reviewId: text(100, "Review id (rev_…)."),
        reviewOrigin: Schema.optional(
          Schema.Literal("buyer", "imported").annotations({
            description: "list_reviews: only this origin."
          })
        ),
        createdAfter: text(40, "Any list action: created after (ISO)."),
        createdBefore: text(40, "Any list action: created before (ISO)."),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        sales: Schema.optional(Schema.Array(SaleRow).annotations({ description: "list: the sales, newest first." })),
        nextCursor: Schema.optional(
          Schema.String.annotations({
            description: "Any list action: pass as cursor for the next page; absent on the last."
          })
        ),
        sale: Schema.optional(SaleRow.annotations({ description: `get, refund: ${SALE_ROW}` })),
        status: Schema.optional(
          Schema.Literal("granted", "restored", "renewed", "cancelled", "revoked", "duplicate").annotations({
            description: "record, refund: what the event did, as POST /sales answers (duplicate: already counted)."
          })
        ),
        discountCodes: Schema.optional(
          Schema.Array(DiscountCodeRow).annotations({ description: "list_codes: the codes, newest first." })
        ),
        discountCode: Schema.optional(
          DiscountCodeRow.annotations({ description: `create_code, get_code, disable_code: ${CODE_ROW}` })
        ),
        questions: Schema.optional(
          Schema.Array(PaidQuestionRow).annotations({
            description: "list_questions: newest first; each with answer_due_at and status."
          })
        ),
        question: Schema.optional(
          PaidQuestionRow.annotations({ description: "get_question, answer_question: as GET /paid-questions/<id>." })
        ),
        reviews: Schema.optional(
          Schema.Array(ReviewRow).annotations({
            description: "list_reviews: newest first."
          })
        ),
        review: Schema.optional(
          ReviewRow.annotations({
            description: "hide_review, show_review: the review now."
          })
        )
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const email = yield* optionalEmail(input.email)
          switch (input.action) {
            case "list": {
              const query = yield* saleListQueryOf({ ...input, email })
              const page = yield* sales.listPage(caller, query)
              return {
                sales: page.rows.map(saleJson),
                ...nextCursorOf(page)
              }
            }
            case "get": {
              const saleId = yield* need(input.saleId, "saleId", "get")
              return { sale: saleJson(yield* sales.get(caller, saleId)) }
            }
            case "record": {
              const outcome = yield* sales.recordSale(caller, {
                event: yield* need(input.event, "event", "record"),
                productId: yield* need(input.productId, "productId", "record"),
                email: yield* need(email, "email", "record"),
                name: input.name,
                orderId: input.orderId,
                subscriptionId: input.subscriptionId,
                paidUntil: input.paidUntil,
                endsAt: input.endsAt
              })
              if (isTurnedAway(outcome)) return yield* rejectionFailure(outcome.reason, outcome.message, outcome.next)
              return { status: outcome.status }
            }
            case "refund": {
              const saleId = yield* need(input.saleId, "saleId", "refund")
              const refunded = yield* sales.refundSale(caller, saleId)
              return { status: refunded.status, sale: saleJson(yield* sales.get(caller, saleId)) }
            }
            case "create_code": {
              const created = yield* codes
                .create(caller, {
                  productId: yield* need(input.productId, "productId", "create_code"),
                  kind: yield* need(input.kind, "kind", "create_code"),
                  value: yield* need(input.value, "value", "create_code"),
                  code: input.code,
                  maxUses: input.maxUses,
                  expiresAt: input.expiresAt
                })
                .pipe(codeFieldNames)
              return yield* codeAnswer(created)
            }
            case "list_codes": {
              const { page, created } = yield* readToolPaging(input)
              const found = yield* codes.listPage(caller, { productId: input.productId, page, created })
              return { discountCodes: found.rows.map(yield* codeJsonNow), ...nextCursorOf(found) }
            }
            case "get_code":
              return yield* codeAnswer(yield* codes.get(caller, yield* need(input.codeId, "codeId", "get_code")))
            case "disable_code":
              return yield* codeAnswer(
                yield* codes.disable(caller, yield* need(input.codeId, "codeId", "disable_code"))
              )
            case "list_questions": {
              const { page, created } = yield* readToolPaging(input)
              const found = yield* questions.listPage(caller, {
                productId: input.productId,
                status: input.questionStatus,
                page,
                created
              })
              return { questions: found.rows.map(questionJson), ...nextCursorOf(found) }
            }
            case "get_question":
              return {
                question: questionJson(
                  yield* questions.get(caller, yield* need(input.questionId, "questionId", "get_question"))
                )
              }
            case "answer_question": {
              const questionId = yield* need(input.questionId, "questionId", "answer_question")
              const answer = yield* need(input.answer, "answer", "answer_question")
              return { question: questionJson(yield* questions.answer(caller, questionId, answer)) }
            }
            case "list_reviews": {
              const { page, created } = yield* readToolPaging(input)
              const found = yield* reviews.listPage(caller, {
                productId: input.productId,
                origin: input.reviewOrigin,
                page,
                created
              })
              return { reviews: found.rows.map(reviewJson), ...nextCursorOf(found) }
            }
            case "hide_review":
            case "show_review": {
              const reviewId = yield* need(input.reviewId, "reviewId", input.action)
              return { review: reviewJson(yield* reviews.setShown(caller, reviewId, input.action === "show_review")) }
            }
          }
        }).pipe(saleFieldNames)
    }),
    defineTool({
      name: "svc_manage_cohorts",
      title: "Manage cohorts",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "List a product's cohorts, create or update one (capacity null: no cap), or move a buyer with access into one (overCap: into a full one). Answers the cohort.",
      input: {
        storeHandle: StoreHandleField,
        action: Schema.Literal("list", "create", "update", "move").annotations({
          description: "list, create, update or move."
        }),
        productId: text(100, "Product id (prod_…)."),
        cohortId: text(100, "Cohort id (coh_…)."),
        name: text(200, "Cohort name."),
        capacity: Schema.optional(Schema.NullOr(Schema.Int).annotations({ description: "Most people; null: no cap." })),
        startsOn: Schema.optional(
          Schema.NullOr(Schema.String.pipe(Schema.maxLength(10))).annotations({
            description: "Start day, YYYY-MM-DD."
          })
        ),
        email: Schema.optional(EmailField),
        overCap: Schema.optional(Schema.Boolean.annotations({ description: "move: into a full cohort." }))
      },
      output: {
        cohorts: Schema.optional(Schema.Array(CohortRow).annotations({ description: "list: the cohorts." })),
        cohort: Schema.optional(CohortRow.annotations({ description: `create, update, move: ${COHORT_ROW}` })),
        status: Schema.optional(
          Schema.Literal("created", "updated", "moved", "already_in_cohort").annotations({
            description: "What the call did (already_in_cohort: nothing to do)."
          })
        )
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const email = yield* optionalEmail(input.email)
          switch (input.action) {
            case "list": {
              const productId = yield* need(input.productId, "productId", "list")
              return { cohorts: (yield* cohorts.list(caller, productId)).map(cohortJson) }
            }
            case "create": {
              const created = yield* cohorts.createFor(caller, {
                productId: yield* need(input.productId, "productId", "create"),
                name: yield* need(input.name, "name", "create"),
                capacity: input.capacity,
                startsOn: input.startsOn
              })
              return { status: "created" as const, cohort: cohortJson(created) }
            }
            case "update": {
              const updated = yield* cohorts.update(caller, yield* need(input.cohortId, "cohortId", "update"), {
                name: input.name,
                capacity: input.capacity,
                startsOn: input.startsOn
              })
              return { status: "updated" as const, cohort: cohortJson(updated) }
            }
            case "move": {
              const moved = yield* cohorts.move(caller, {
                productId: yield* need(input.productId, "productId", "move"),
                cohortId: yield* need(input.cohortId, "cohortId", "move"),
                email: yield* need(email, "email", "move"),
                overCap: input.overCap
              })
              return { status: moved.status, cohort: cohortJson(moved.cohort) }
            }
          }
        }).pipe(cohortFieldNames)
    })
  ]
})
