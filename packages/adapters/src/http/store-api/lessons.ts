import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  type LessonQuestion,
  lessonQuestionJson,
  lessonQuestionPageJson,
  lessonQuestionsFeedJson,
  lessonsCompletedFeedJson,
  pagedAnswer,
  readLessonQuestionListQuery,
  StoreCourses,
  StoreFeeds
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The store API's courses: the lesson questions (list, read, answer, hide) and the two lesson feeds. */
export const LessonsHandlersLive = HttpApiBuilder.group(StoreApi, "lessons", (handlers) =>
  Effect.gen(function* () {
    const courses = yield* StoreCourses
    const feeds = yield* StoreFeeds
    const one = (question: LessonQuestion) => ({ ok: true as const, question: lessonQuestionJson(question) })
    return handlers
      .handle("completed", ({ urlParams }) =>
        withCaller("lessons.completed", (caller) =>
          Effect.map(feeds.lessonsCompleted(caller, urlParams.product), lessonsCompletedFeedJson)
        )
      )
      .handle("questionsRecent", ({ urlParams }) =>
        withCaller("lessons.questionsRecent", (caller) =>
          Effect.map(feeds.lessonQuestions(caller, urlParams.product), lessonQuestionsFeedJson)
        )
      )
      .handle("questions", ({ urlParams }) =>
        withCaller("lessons.questions", (caller) =>
          answer(
            pagedAnswer(
              readLessonQuestionListQuery(urlParams),
              (query) => courses.listQuestions(caller, query),
              lessonQuestionPageJson
            )
          )
        )
      )
      .handle("question", ({ path }) =>
        withCaller("lessons.question", (caller) => answer(Effect.map(courses.getQuestion(caller, path.id), one)))
      )
      .handle("answer", ({ path, payload }) =>
        withCaller("lessons.answer", (caller) =>
          answer(Effect.map(courses.answerQuestion(caller, path.id, payload.answer), one))
        )
      )
      .handle("update", ({ path, payload }) =>
        withCaller("lessons.update", (caller) =>
          answer(Effect.map(courses.setHidden(caller, path.id, payload.hidden), one))
        )
      )
  })
)
