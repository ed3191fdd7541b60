import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { Page, PageRequest } from "../../shared/paging.js"
import { type PaidQuestion, questionStatus } from "./paid-question.js"
import type { PaidQuestionRow } from "./question-api.js"

/** A question as the store API answers it; `answerUrl` is its buyer page (`StorePaidQuestions.answerUrl`). */
export const paidQuestionJson = (question: PaidQuestion, answerUrl: string): typeof PaidQuestionRow.Type => ({
  id: question.id,
  product_id: question.productId,
  product_title: question.productTitle,
  buyer_email: question.buyerEmail,
  buyer_name: question.buyerName,
  sale_id: question.saleId,
  text: question.text,
  amount: question.amountCents / 100,
  amount_cents: question.amountCents,
  currency: question.currency,
  test: question.test,
  answer_due_at: question.answerDueAt.toISOString(),
  answer_url: answerUrl,
  status: questionStatus(question),
  answer: question.answer,
  answered_at: question.answeredAt === null ? null : question.answeredAt.toISOString(),
  created_at: question.createdAt.toISOString()
})

/** A page of questions, as `GET /paid-questions` answers it. */
export const paidQuestionPageJson =
  (answerUrl: (question: PaidQuestion) => string) => (page: Page<PaidQuestion>, request: PageRequest) =>
    pageAnswer(page, (question) => paidQuestionJson(question, answerUrl(question)), request, creationKey)
