import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { listQueryFields, PageOf, strict } from "../../shared/list-wire.js"
import { LESSON_ANSWER_MAX } from "./course.js"

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })
const nullableString = Schema.NullOr(Schema.String)
const product = {
  product_id: Schema.String.annotations({ description: "The course product's id." }),
  product_title: Schema.String
}
const person = {
  email: Schema.String.annotations({ description: "The learner's email." }),
  name: nullableString.annotations({ description: "The learner's name; null when they gave none." })
}
const lessonId = Schema.String.annotations({
  description: "The lesson's id (ks_…): a knowledge source of the course's Custom AI."
})

/** What `lesson.completed` and a Lesson Completed feed row say. */
export const lessonCompletedFields = {
  ...product,
  ...person,
  lesson_id: lessonId,
  lesson_title: Schema.String,
  finished_course: Schema.Boolean.annotations({
    description: "It was the course's last open lesson: the learner has now finished every lesson."
  }),
  created_at: iso.annotations({ description: "When it was marked finished." })
}

/** What `lesson_question.created` and a New Lesson Question feed row say. */
export const lessonQuestionCreatedFields = {
  ...product,
  ...person,
  question_id: Schema.String.annotations({ description: "The question's id (lq_…): GET /lesson-questions/<id>." }),
  lesson_id: lessonId,
  lesson_title: Schema.String,
  text: Schema.String.annotations({ description: "The question as the learner wrote it." }),
  created_at: iso.annotations({ description: "When it was asked." })
}

/** A row of `GET /lessons/completed`: the `lesson.completed` event's data under the event's id. */
export const LessonCompletedFeedRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…)." }),
  ...lessonCompletedFields
}).annotations({ identifier: "LessonCompletedFeedRow", description: "A lesson a learner finished." })

/** A row of `GET /lesson-questions/recent`: the `lesson_question.created` event's data under the event's id. */
export const LessonQuestionFeedRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…)." }),
  ...lessonQuestionCreatedFields
}).annotations({ identifier: "LessonQuestionFeedRow", description: "A question asked on a lesson." })

/** A lesson question as the store API answers it. */
export const LessonQuestionRow = Schema.Struct({
  id: Schema.String.annotations({ description: "lq_…" }),
  ...product,
  lesson_id: lessonId,
  lesson_title: Schema.String.annotations({ description: "The lesson's title when the question was asked." }),
  ...person,
  text: Schema.String,
  status: Schema.Literal("open", "answered").annotations({ description: "open until the seller answers." }),
  answer: nullableString.annotations({ description: "The seller's answer; null while open." }),
  answered_at: Schema.NullOr(iso).annotations({ description: "When the answer was given (or last changed)." }),
  hidden: Schema.Boolean.annotations({
    description: "Kept off the lesson's page, where the course's other learners read questions and answers."
  }),
  created_at: iso.annotations({ description: "When it was asked." })
}).annotations({ identifier: "LessonQuestionRow", description: "A question a learner asked on a lesson." })

const questionPath = Schema.Struct({ id: Schema.String.annotations({ description: "The question's id (lq_…)." }) })
const productFilter = Schema.optional(Schema.String).annotations({ description: "Only this course product's." })

/** The answer of `GET /lesson-questions/<id>`, its answer and its update. */
export const LessonQuestionAnswer = Schema.Struct({ ok: Schema.Literal(true), question: LessonQuestionRow })

/**
 * Courses on the store API: the learners' lesson questions (listed, read, answered, hidden or shown) and the Lesson
 * Completed and New Lesson Question feeds.
 */
export const LessonsApiGroup = HttpApiGroup.make("lessons")
  .add(
    HttpApiEndpoint.get("completed", "/lessons/completed")
      .setUrlParams(Schema.Struct({ product: productFilter }).annotations(strict))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), completions: Schema.Array(LessonCompletedFeedRow) }))
      .annotate(OpenApi.Summary, "Lesson Completed feed")
      .annotate(
        OpenApi.Description,
        "Lessons learners marked finished in the last 30 days, newest first, up to 50: one row per lesson and learner. finished_course is true on the row that finished the course's last open lesson."
      )
  )
  .add(
    HttpApiEndpoint.get("questionsRecent", "/lesson-questions/recent")
      .setUrlParams(Schema.Struct({ product: productFilter }).annotations(strict))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), questions: Schema.Array(LessonQuestionFeedRow) }))
      .annotate(OpenApi.Summary, "New Lesson Question feed")
      .annotate(
        OpenApi.Description,
        "Questions learners asked on lessons in the last 30 days, newest first, up to 50. question_id reads the question."
      )
  )
  .add(
    HttpApiEndpoint.get("questions", "/lesson-questions")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          product: productFilter,
          lesson: Schema.optional(Schema.String).annotations({ description: "Only this lesson's (ks_…)." }),
          status: Schema.optional(Schema.String).annotations({ description: "open or answered." })
        }).annotations(strict)
      )
      .addSuccess(PageOf(LessonQuestionRow))
      .annotate(OpenApi.Summary, "List lesson questions")
      .annotate(
        OpenApi.Description,
        "The questions learners asked on the store's lessons, newest first. status=open lists those still to answer. Pass next_cursor as starting_after while has_more is true."
      )
  )
  .add(
    HttpApiEndpoint.get("question", "/lesson-questions/:id")
      .setPath(questionPath)
      .addSuccess(LessonQuestionAnswer)
      .annotate(OpenApi.Summary, "Get a lesson question")
      .annotate(OpenApi.Description, "One question with its answer, if any. 404 when the store has no such question.")
  )
  .add(
    HttpApiEndpoint.post("answer", "/lesson-questions/:id/answer")
      .setPath(questionPath)
      .setPayload(
        Schema.Struct({
          answer: Schema.String.annotations({
            description: `The answer, 1 to ${LESSON_ANSWER_MAX} characters, plain text.`
          })
        }).annotations(strict)
      )
      .addSuccess(LessonQuestionAnswer)
      .annotate(OpenApi.Summary, "Answer a lesson question")
      .annotate(
        OpenApi.Description,
        "Answers the question, or replaces its answer: the learner is emailed it with their lesson's link, and it shows under the question on the lesson's page unless the question is hidden. 422: an empty or too long answer."
      )
  )
  .add(
    HttpApiEndpoint.post("update", "/lesson-questions/:id")
      .setPath(questionPath)
      .setPayload(
        Schema.Struct({
          hidden: Schema.Boolean.annotations({
            description: "true keeps it (and its answer) off the lesson's page; false shows it again."
          })
        }).annotations(strict)
      )
      .addSuccess(LessonQuestionAnswer)
      .annotate(OpenApi.Summary, "Hide or show a lesson question")
      .annotate(
        OpenApi.Description,
        "Hides a question from the lesson's page, where the course's other learners read them, or shows it again. The learner who asked still sees their own."
      )
  )
