import { Effect, Schema } from "effect"
import { nextCursorOf, readToolPaging } from "../../shared/list-query.js"
import { Cursor, Limit } from "../../shared/paging.js"
import { defineTool } from "../../tools/tool.js"
import { describeActions, need, onlyFieldsOf } from "../action-tools.js"
import { makeStoreOfCall, StoreHandleField } from "../tool-support.js"
import { StoreCourses } from "./courses.js"
import { LessonQuestionRow } from "./lesson-api.js"
import { lessonQuestionJson } from "./lesson-question-json.js"

const Action = Schema.Literal("list", "get", "answer", "hide", "show")
type Action = typeof Action.Type

/** The fields each action reads besides `storeHandle` and `action`; any other field given is refused. */
const fieldsOf: Record<Action, ReadonlyArray<string>> = {
  list: ["productId", "lessonId", "status", "limit", "cursor"],
  get: ["questionId"],
  answer: ["questionId", "answer"],
  hide: ["questionId"],
  show: ["questionId"]
}

// Lengths are the service's to check (with field errors): bounds here would only repeat them in every tools/list.
const text = (description: string) => Schema.optional(Schema.String.annotations({ description }))

/** The Store group's svc_manage_lesson_questions: learners' questions on a course's lessons. */
export const lessonQuestionTools = Effect.gen(function* () {
  const courses = yield* StoreCourses
  const storeOf = yield* makeStoreOfCall

  return [
    defineTool({
      name: "svc_manage_lesson_questions",
      title: "Manage lesson questions",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Learners' questions on a course's lessons: list, answer (emails the learner; replaces an earlier one), hide from the lesson's page, show.",
      input: {
        storeHandle: StoreHandleField,
        action: Action.annotations({ description: describeActions(fieldsOf) }),
        productId: text("Course (prod_…)."),
        lessonId: text("Lesson id (ks_…)."),
        status: Schema.optional(Schema.Literal("open", "answered").annotations({ description: "Only these." })),
        questionId: text("Question id (lq_…)."),
        answer: text("Plain text answer."),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        questions: Schema.optional(Schema.Array(LessonQuestionRow).annotations({ description: "Newest first." })),
        question: Schema.optional(LessonQuestionRow.annotations({ description: "The question now." })),
        nextCursor: Schema.optional(Schema.String.annotations({ description: "Next page; absent on the last." }))
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          yield* onlyFieldsOf(fieldsOf, input.action, input)
          const caller = yield* storeOf(context, input.storeHandle)
          const questionId = () => need(input.questionId, "questionId", input.action)
          switch (input.action) {
            case "list": {
              const { page, created } = yield* readToolPaging(input)
              const found = yield* courses.listQuestions(caller, {
                productId: input.productId?.trim() || undefined,
                lessonId: input.lessonId?.trim() || undefined,
                status: input.status,
                page,
                created
              })
              return { questions: found.rows.map(lessonQuestionJson), ...nextCursorOf(found) }
            }
            case "get":
              return { question: lessonQuestionJson(yield* courses.getQuestion(caller, yield* questionId())) }
            case "answer": {
              const id = yield* questionId()
              const answer = yield* need(input.answer, "answer", "answer")
              return { question: lessonQuestionJson(yield* courses.answerQuestion(caller, id, answer)) }
            }
            case "hide":
            case "show":
              return {
                question: lessonQuestionJson(
                  yield* courses.setHidden(caller, yield* questionId(), input.action === "hide")
                )
              }
          }
        })
    })
  ]
})
