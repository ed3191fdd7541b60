import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  pagedAnswer,
  paidQuestionJson,
  paidQuestionPageJson,
  paidQuestionsFeedJson,
  readPaidQuestionListQuery,
  StoreFeeds,
  StorePaidQuestions
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The store API's paid questions: the list, one question, answering it, and the New Paid Question feed. */
export const PaidQuestionsHandlersLive = HttpApiBuilder.group(StoreApi, "paidQuestions", (handlers) =>
  Effect.gen(function* () {
    const questions = yield* StorePaidQuestions
    const feeds = yield* StoreFeeds
    const one = (question: Parameters<typeof questions.answerUrl>[0]) => ({
      ok: true as const,
      question: paidQuestionJson(question, questions.answerUrl(question))
    })
    return handlers
      .handle("list", ({ urlParams }) =>
        withCaller("paidQuestions.list", (caller) =>
          answer(
            pagedAnswer(
              readPaidQuestionListQuery(urlParams),
              (query) => questions.listPage(caller, query),
              paidQuestionPageJson(questions.answerUrl)
            )
          )
        )
      )
      .handle("recent", ({ urlParams }) =>
        withCaller("paidQuestions.recent", (caller) =>
          Effect.map(feeds.paidQuestions(caller, urlParams.product), paidQuestionsFeedJson)
        )
      )
      .handle("get", ({ path }) =>
        withCaller("paidQuestions.get", (caller) => answer(Effect.map(questions.get(caller, path.id), one)))
      )
      .handle("answer", ({ path, payload }) =>
        withCaller("paidQuestions.answer", (caller) =>
          answer(Effect.map(questions.answer(caller, path.id, payload.answer), one))
        )
      )
  })
)
