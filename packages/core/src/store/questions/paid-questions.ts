import { Clock, Effect, Encoding, Option } from "effect"
import { constantTimeEqual } from "../../auth/oauth/crypto.js"
import { WorkspacesRepo } from "../../accounts/ports.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { makeEventRecorder } from "../../events/service.js"
import { Mailer } from "../../mail/ports.js"
import { newQuestionEmail, questionAnsweredEmail, questionReceivedEmail } from "../../mail/templates.js"
import { invalid, NotFound } from "../../shared/errors.js"
import { Ids, Secrets, Transactor } from "../../shared/ports.js"
import { unstorableText } from "../../shared/storable-text.js"
import { StoreSettingsRepo } from "../catalog/ports.js"
import type { Product } from "../catalog/product.js"
import { StorePages } from "../catalog/store-pages.js"
import type { Sale } from "../sales/sale.js"
import { ANSWER_MAX, answerUrlOf, type PaidQuestion, QUESTION_MAX } from "./paid-question.js"
import { PaidQuestionsRepo } from "./ports.js"
import { paidQuestionJson } from "./question-json.js"
import type { PaidQuestionListQuery } from "./question-query.js"

const DAY_MS = 86_400_000

/**
 * What is wrong with a question as the buyer typed it, in words for the checkout page; undefined when it is good.
 * The text is kept as typed but for the spaces around it.
 */
export const questionProblem = (text: string): string | undefined => {
  const trimmed = text.trim()
  if (trimmed.length === 0) return "Write the question you are paying to ask."
  if (trimmed.length > QUESTION_MAX) return `Keep your question under ${QUESTION_MAX.toLocaleString("en")} characters.`
  if (unstorableText(trimmed) !== undefined) return "Your question has characters we cannot keep."
  return undefined
}

/**
 * Paid questions: a buyer pays for a question product and asks at its checkout; the seller answers by its
 * `answer_due_at`, and the buyer reads the answer on their own page (`answer_url`). The question is written in the
 * sale's transaction, so a payment never goes without its question nor a question without its payment.
 */
export class StorePaidQuestions extends Effect.Service<StorePaidQuestions>()("svc/store/StorePaidQuestions", {
  effect: Effect.gen(function* () {
    const repo = yield* PaidQuestionsRepo
    const ids = yield* Ids
    const secrets = yield* Secrets
    const mailer = yield* Mailer
    const recordEvent = yield* makeEventRecorder
    const settings = yield* StoreSettingsRepo
    const workspaces = yield* WorkspacesRepo
    const transactor = yield* Transactor
    // Read once: a request's own context (a face's) need not carry the server's public address.
    const { publicBase } = yield* StorePages

    const answerUrl = (question: PaidQuestion) => answerUrlOf(publicBase, question)

    const storeNameOf = (workspaceId: string) =>
      Effect.map(
        workspaces.findStore(workspaceId),
        Option.match({ onNone: () => "The seller", onSome: (store) => store.name })
      )

    /**
     * The question `sale` paid for, in the sale's transaction: the row, one `paid_question.created`, and word to the
     * buyer and to the store's support email. A sale that already has its question (a resent payment event) asks
     * nothing more. The text must pass {@link questionProblem}; the checkout checked it before taking the payment.
     */
    const ask = (input: {
      readonly product: Product
      readonly sale: Sale
      readonly text: string
      readonly now: Date
    }) =>
      Effect.gen(function* () {
        const { product, sale, now } = input
        const text = input.text.trim()
        const days = product.fields.answer_within_days ?? 1
        const question: PaidQuestion = {
          id: yield* ids.make("pq_"),
          workspaceId: product.workspaceId,
          productId: product.id,
          productTitle: product.fields.title,
          saleId: sale.id,
          buyerEmail: sale.buyerEmail,
          buyerName: sale.buyerName,
          text,
          amountCents: sale.amountCents,
          currency: sale.currency,
          test: sale.test,
          key: Encoding.encodeBase64Url(yield* secrets.randomBytes(24)),
          answerDueAt: new Date(now.getTime() + days * DAY_MS),
          answer: null,
          answeredAt: null,
          createdAt: now
        }
        if (!(yield* repo.insert(question))) return
        // The event says what the question's row says, but for what changes later (its answer).
        const {
          id,
          status: _status,
          answer: _answer,
          answered_at: _answeredAt,
          ...said
        } = paidQuestionJson(question, answerUrl(question))
        yield* recordEvent(product.workspaceId, "paid_question.created", { question_id: id, ...said })
        yield* mailer.send({
          workspaceId: product.workspaceId,
          to: question.buyerEmail,
          ...questionReceivedEmail({
            storeName: yield* storeNameOf(product.workspaceId),
            text: question.text,
            answerDueAt: question.answerDueAt,
            answerUrl: answerUrl(question)
          })
        })
        const support = yield* settings.find(product.workspaceId)
        if (Option.isSome(support) && support.value.supportEmail !== null) {
          yield* mailer.send({
            workspaceId: product.workspaceId,
            to: support.value.supportEmail,
            ...newQuestionEmail({
              questionId: question.id,
              productTitle: question.productTitle,
              buyer: question.buyerName ?? question.buyerEmail,
              text: question.text,
              answerDueAt: question.answerDueAt,
              test: question.test
            })
          })
        }
      })

    const find = (caller: StoreCaller, id: string) =>
      Effect.flatMap(repo.find(caller.workspaceId, id.trim()), (found) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(
              new NotFound({ message: `no paid question ${id} in this store`, next: { _tag: "ListPaidQuestions" } })
            ),
          onSome: Effect.succeed
        })
      )

    /** The store's questions, newest first, optionally of one product or status. */
    const listPage = (caller: StoreCaller, query: PaidQuestionListQuery) =>
      repo.listPage(
        caller.workspaceId,
        { productId: query.productId, status: query.status, ...query.created },
        query.page
      )

    /**
     * Answers a question, or changes its answer: the buyer is emailed the answer and reads it on their page. An
     * answer after `answer_due_at` is still taken.
     */
    const answer = (caller: StoreCaller, id: string, text: string) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const question = yield* find(caller, id)
          const trimmed = text.trim()
          if (trimmed.length === 0) return yield* invalid("answer", "answer must not be empty")
          if (trimmed.length > ANSWER_MAX) {
            return yield* invalid("answer", `answer must be at most ${ANSWER_MAX} characters; ${trimmed.length} given`)
          }
          const unstorable = unstorableText(trimmed)
          if (unstorable !== undefined) return yield* invalid("answer", unstorable)
          const now = new Date(yield* Clock.currentTimeMillis)
          yield* repo.answer(caller.workspaceId, question.id, trimmed, now)
          yield* mailer.send({
            workspaceId: caller.workspaceId,
            to: question.buyerEmail,
            ...questionAnsweredEmail({
              storeName: yield* storeNameOf(caller.workspaceId),
              question: question.text,
              answer: trimmed,
              answerUrl: answerUrl(question),
              changed: question.answer !== null
            })
          })
          return { ...question, answer: trimmed, answeredAt: now } satisfies PaidQuestion
        })
      )

    /**
     * The question behind a buyer's answer page, when `key` is its page's secret; none otherwise, so a wrong key and
     * a missing question look the same.
     */
    const forBuyer = (id: string, key: string) =>
      Effect.map(repo.findById(id), (found) =>
        Option.filter(found, (question) => key.length > 0 && constantTimeEqual(question.key, key))
      )

    return { ask, listPage, get: find, answer, forBuyer, answerUrl } as const
  })
}) {}
