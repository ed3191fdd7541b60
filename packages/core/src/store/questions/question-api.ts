import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { listQueryFields, PageOf, strict } from "../../shared/list-wire.js"
import { ANSWER_MAX } from "./paid-question.js"

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })
const nullableString = Schema.NullOr(Schema.String)

/** What a paid question says wherever it is sent: its row, its `paid_question.created` event, its feed row. */
export const paidQuestionFields = {
  product_id: Schema.String.annotations({ description: "The question product's id." }),
  product_title: Schema.String,
  buyer_email: Schema.String,
  buyer_name: nullableString.annotations({ description: "The buyer's name; null when they gave none." }),
  sale_id: Schema.String.annotations({ description: "The sale that paid for it (purchase:…)." }),
  text: Schema.String.annotations({ description: "The question as the buyer wrote it." }),
  amount: Schema.Number.annotations({ description: "What the buyer paid, in major currency units." }),
  amount_cents: Schema.Int,
  currency: Schema.String.annotations({ description: "ISO 4217 code, lower case." }),
  test: Schema.Boolean.annotations({
    description:
      "Paid through the built-in test processor: no money moved. The New Paid Question feed leaves these out."
  }),
  answer_due_at: iso.annotations({ description: "By when the seller should answer: paid + answer_within_days." }),
  answer_url: Schema.String.annotations({
    description: "The buyer's own page with the question and, once given, the answer; its link is their secret."
  })
}

/** A paid question as the store API answers it. */
export const PaidQuestionRow = Schema.Struct({
  id: Schema.String.annotations({ description: "pq_…" }),
  ...paidQuestionFields,
  status: Schema.Literal("open", "answered").annotations({ description: "open until the seller answers." }),
  answer: nullableString.annotations({ description: "The seller's answer; null while open." }),
  answered_at: Schema.NullOr(iso).annotations({ description: "When the answer was given (or last changed)." }),
  created_at: iso.annotations({ description: "When it was asked (paid)." })
}).annotations({ identifier: "PaidQuestionRow", description: "A question a buyer paid to ask." })

/** A row of `GET /paid-questions/recent`: the `paid_question.created` event's data under the event's id. */
export const PaidQuestionFeedRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…)." }),
  question_id: Schema.String.annotations({ description: "The question's id (pq_…): GET /paid-questions/<id>." }),
  ...paidQuestionFields,
  created_at: iso
}).annotations({ identifier: "PaidQuestionFeedRow", description: "A paid question asked." })

const questionPath = Schema.Struct({ id: Schema.String.annotations({ description: "The question's id (pq_…)." }) })

/** The answer of `GET /paid-questions/<id>` and `POST /paid-questions/<id>/answer`. */
export const PaidQuestionAnswer = Schema.Struct({ ok: Schema.Literal(true), question: PaidQuestionRow })

/**
 * The paid questions on the store API: listed, read, answered, and the New Paid Question feed. Any store key that
 * may write can answer (an automation connection too: answering is the store's daily work, not a product change).
 */
export const PaidQuestionsApiGroup = HttpApiGroup.make("paidQuestions")
  .add(
    HttpApiEndpoint.get("list", "/paid-questions")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          product: Schema.optional(Schema.String).annotations({ description: "Only this product's questions." }),
          status: Schema.optional(Schema.String).annotations({ description: "open or answered." })
        }).annotations(strict)
      )
      .addSuccess(PageOf(PaidQuestionRow))
      .annotate(OpenApi.Summary, "List paid questions")
      .annotate(
        OpenApi.Description,
        "The store's paid questions, newest first, test ones too (test says which). status=open lists those still to answer; each has answer_due_at. Pass next_cursor as starting_after while has_more is true."
      )
  )
  .add(
    HttpApiEndpoint.get("recent", "/paid-questions/recent")
      .setUrlParams(Schema.Struct({ product: Schema.optional(Schema.String) }).annotations(strict))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), questions: Schema.Array(PaidQuestionFeedRow) }))
      .annotate(OpenApi.Summary, "New Paid Question feed")
      .annotate(
        OpenApi.Description,
        "Questions paid for in the last 30 days, newest first, up to 50; test purchases left out. Each row's id is its event's; question_id reads the question."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/paid-questions/:id")
      .setPath(questionPath)
      .addSuccess(PaidQuestionAnswer)
      .annotate(OpenApi.Summary, "Get a paid question")
      .annotate(OpenApi.Description, "One question with its answer, if any. 404 when the store has no such question.")
  )
  .add(
    HttpApiEndpoint.post("answer", "/paid-questions/:id/answer")
      .setPath(questionPath)
      .setPayload(
        Schema.Struct({
          answer: Schema.String.annotations({ description: `The answer, 1 to ${ANSWER_MAX} characters, plain text.` })
        }).annotations(strict)
      )
      .addSuccess(PaidQuestionAnswer)
      .annotate(OpenApi.Summary, "Answer a paid question")
      .annotate(
        OpenApi.Description,
        "Answers the question, or replaces its answer: the buyer is emailed the answer and reads it at answer_url. An answer after answer_due_at is still taken. 422: an empty or too long answer."
      )
  )
