import { Clock, Effect, Option, Schema } from "effect"
import { WorkspacesRepo } from "../../accounts/ports.js"
import { constantTimeEqual } from "../../auth/oauth/crypto.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { KnowledgeRepo } from "../../custom-ai/knowledge-ports.js"
import { SOURCE_TEXT_MAX } from "../../custom-ai/knowledge-schema.js"
import { makeEventRecorder } from "../../events/service.js"
import { Mailer } from "../../mail/ports.js"
import { lessonAnsweredEmail, newLessonQuestionEmail } from "../../mail/templates.js"
import { Conflict, FieldProblem, Forbidden, InvalidInput, invalid, NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { unstorableText } from "../../shared/storable-text.js"
import { ProductsRepo, StoreSettingsRepo } from "../catalog/ports.js"
import type { Product } from "../catalog/product.js"
import { StorePages } from "../catalog/store-pages.js"
import { hasAccess } from "../sales/access.js"
import { AccessRepo } from "../sales/ports.js"
import {
  type CourseLearner,
  type CourseModule,
  LESSON_ANSWER_MAX,
  LESSON_QUESTION_MAX,
  LESSON_QUESTION_NAME_MAX,
  type Lesson,
  type LessonQuestion,
  lessonsOf,
  lessonUrlOf
} from "./course.js"
import { isCourse, makeCourseLinks } from "./course-links.js"
import type { LessonQuestionListQuery } from "./lesson-question-query.js"
import { CoursesRepo } from "./ports.js"

const DAY_MS = 86_400_000

/** The lesson asked for is not one of the course's (another course's, or removed). */
export class NoSuchLesson extends Schema.TaggedError<NoSuchLesson>()("NoSuchLesson", {
  lessonId: Schema.String,
  message: Schema.String
}) {}
/** The most questions one learner may ask in a day, across the course's lessons. */
export const LESSON_QUESTIONS_PER_DAY = 20
/** The most questions a lesson's page shows. */
const QUESTIONS_SHOWN = 50

/** What a learner's course page shows: the course, its outline, what they finished, and whether they still may. */
export interface CourseView {
  readonly learner: CourseLearner
  readonly product: Product & { readonly customAiId: string }
  readonly storeName: string
  readonly outline: ReadonlyArray<CourseModule>
  readonly completed: ReadonlySet<string>
  /** They hold the course now; a refunded or removed learner sees that their access ended. */
  readonly hasAccess: boolean
}

/** One lesson's page: the lesson, its text (Markdown), the questions on it, and its neighbours. */
export interface LessonView {
  readonly course: CourseView
  readonly lesson: Lesson
  readonly text: string
  readonly previous: Lesson | undefined
  readonly next: Lesson | undefined
  /** The questions others may read, and the learner's own (hidden ones too), oldest first. */
  readonly questions: ReadonlyArray<LessonQuestion>
}

/** A lesson question as the lesson page posts it. */
export interface LessonQuestionInput {
  readonly name: string
  readonly text: string
}

/** The fields of a learner's question, checked; or a problem per field, in words for the lesson page. */
export const readLessonQuestion = (input: LessonQuestionInput) => {
  const problems: Array<FieldProblem> = []
  const problem = (path: string, message: string) => problems.push(new FieldProblem({ path, message }))
  const text = input.text.trim()
  if (text.length === 0) problem("text", "Write your question.")
  else if (text.length > LESSON_QUESTION_MAX) {
    problem("text", `Keep your question under ${LESSON_QUESTION_MAX.toLocaleString("en")} characters.`)
  } else if (unstorableText(text) !== undefined) problem("text", "Your question has characters we cannot keep.")
  const name = input.name.trim()
  if (name.length > LESSON_QUESTION_NAME_MAX || unstorableText(name) !== undefined) {
    problem("name", `Keep your name under ${LESSON_QUESTION_NAME_MAX} characters of text.`)
  }
  return { problems, text, name: name === "" ? null : name }
}

/**
 * Courses: a course product's lessons are its Custom AI's knowledge sources (a folder is a module), read by the
 * people who hold it on their own course page, whose link (with a secret key) their access email carries. Learners
 * mark lessons finished (`lesson.completed`, `finished_course` on the last open one) and ask questions on a lesson
 * (`lesson_question.created`), which the seller answers or hides from the lesson's page.
 */
export class StoreCourses extends Effect.Service<StoreCourses>()("svc/store/StoreCourses", {
  effect: Effect.gen(function* () {
    const repo = yield* CoursesRepo
    const knowledge = yield* KnowledgeRepo
    const products = yield* ProductsRepo
    const access = yield* AccessRepo
    const workspaces = yield* WorkspacesRepo
    const settings = yield* StoreSettingsRepo
    const ids = yield* Ids
    const mailer = yield* Mailer
    const transactor = yield* Transactor
    const recordEvent = yield* makeEventRecorder
    const { publicBase } = yield* StorePages

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    const storeNameOf = (workspaceId: string) =>
      Effect.map(
        workspaces.findStore(workspaceId),
        Option.match({ onNone: () => "The seller", onSome: (store) => store.name })
      )
    const { linkFor, outlineOf } = yield* makeCourseLinks

    const notFound = () =>
      new NotFound({ message: "There is no such course link. Open the link from your email as it is." })

    /** The course behind a learner's link, when `key` is its secret; NotFound for a forged link or a gone course. */
    const open = (id: string, key: string) =>
      Effect.gen(function* () {
        const found = Option.filter(
          yield* repo.findLearner(id),
          (learner) => key.length > 0 && constantTimeEqual(learner.key, key)
        )
        if (Option.isNone(found)) return yield* notFound()
        const learner = found.value
        const product = yield* products.find(learner.workspaceId, learner.productId)
        if (Option.isNone(product) || !isCourse(product.value)) return yield* notFound()
        const at = (yield* now).getTime()
        const rows = yield* access.accessOf(learner.workspaceId, learner.email, learner.productId)
        return {
          learner,
          product: product.value,
          storeName: yield* storeNameOf(learner.workspaceId),
          outline: yield* outlineOf(product.value),
          completed: yield* repo.completed(learner.id),
          hasAccess: rows.some((row) => hasAccess(row, at))
        } satisfies CourseView
      })

    const accessEnded = () =>
      new Forbidden({
        message: "Your access to this course has ended. Ask the seller if you think it should not have.",
        reason: "access"
      })

    /** A lesson of the course; a lesson of another course (or none) is refused. */
    const lessonIn = (course: CourseView, lessonId: string) => {
      const lessons = lessonsOf(course.outline)
      const index = lessons.findIndex((lesson) => lesson.id === lessonId)
      return index < 0
        ? Effect.fail(
            new NoSuchLesson({
              lessonId,
              message: `lesson: ${lessonId} is not a lesson of ${course.product.fields.title}`
            })
          )
        : Effect.succeed({ lesson: lessons[index] as Lesson, previous: lessons[index - 1], next: lessons[index + 1] })
    }

    /** One lesson's page for the learner: the lesson's text, its questions, the lessons before and after it. */
    const lesson = (id: string, key: string, lessonId: string) =>
      Effect.gen(function* () {
        const course = yield* open(id, key)
        if (!course.hasAccess) return yield* accessEnded()
        const { lesson, previous, next } = yield* lessonIn(course, lessonId)
        const { workspaceId, productId } = course.learner
        const [text, shown, own] = yield* Effect.all([
          knowledge.readText(workspaceId, lesson.id, 0, SOURCE_TEXT_MAX),
          repo.shownQuestions(workspaceId, productId, lesson.id, QUESTIONS_SHOWN),
          repo.questionsOf(course.learner.id, lesson.id)
        ])
        const questions = [...new Map([...shown, ...own].map((q) => [q.id, q])).values()].sort(
          (a, b) => a.createdAt.getTime() - b.createdAt.getTime()
        )
        return { course, lesson, text, previous, next, questions } satisfies LessonView
      })

    /** A lesson the learner may open now, without its text or questions: what its media's route checks. */
    const lessonOf = (id: string, key: string, lessonId: string) =>
      Effect.gen(function* () {
        const course = yield* open(id, key)
        if (!course.hasAccess) return yield* accessEnded()
        return { course, lesson: (yield* lessonIn(course, lessonId)).lesson }
      })

    /**
     * Marks a lesson finished, once: one `lesson.completed`, with `finished_course` when no lesson of the course is
     * left open. Finishing it again changes nothing (`already`).
     */
    const complete = (id: string, key: string, lessonId: string) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const course = yield* open(id, key)
          if (!course.hasAccess) return yield* accessEnded()
          const { lesson } = yield* lessonIn(course, lessonId)
          const { learner } = course
          yield* repo.lockLearner(learner.id)
          const at = yield* now
          if (!(yield* repo.complete(learner.workspaceId, learner.id, lesson.id, at))) {
            return { course, lesson, already: true, finishedCourse: false }
          }
          const done = yield* repo.completed(learner.id)
          const finishedCourse = lessonsOf(course.outline).every((l) => done.has(l.id))
          yield* recordEvent(learner.workspaceId, "lesson.completed", {
            product_id: course.product.id,
            product_title: course.product.fields.title,
            email: learner.email,
            name: learner.name,
            lesson_id: lesson.id,
            lesson_title: lesson.title,
            finished_course: finishedCourse,
            created_at: at.toISOString()
          })
          return { course: { ...course, completed: done }, lesson, already: false, finishedCourse }
        })
      )

    /**
     * A learner's question on a lesson: the row, one `lesson_question.created`, and word to the store's support email.
     * InvalidInput names each bad field; at most `LESSON_QUESTIONS_PER_DAY` a day per learner.
     */
    const ask = (id: string, key: string, lessonId: string, input: LessonQuestionInput) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const course = yield* open(id, key)
          if (!course.hasAccess) return yield* accessEnded()
          const { lesson } = yield* lessonIn(course, lessonId)
          const read = readLessonQuestion(input)
          if (read.problems.length > 0) {
            return yield* new InvalidInput({
              message: read.problems.map((p) => `${p.path}: ${p.message}`).join("; "),
              errors: read.problems
            })
          }
          const { learner, product } = course
          yield* repo.lockLearner(learner.id)
          const at = yield* now
          if ((yield* repo.askedSince(learner.id, new Date(at.getTime() - DAY_MS))) >= LESSON_QUESTIONS_PER_DAY) {
            return yield* new Conflict({
              message: `You asked ${LESSON_QUESTIONS_PER_DAY} questions today; ask again tomorrow, or write to the seller.`
            })
          }
          const question: LessonQuestion = {
            id: yield* ids.make("lq_"),
            workspaceId: learner.workspaceId,
            productId: product.id,
            productTitle: product.fields.title,
            learnerId: learner.id,
            lessonId: lesson.id,
            lessonTitle: lesson.title,
            email: learner.email,
            name: read.name ?? learner.name,
            text: read.text,
            answer: null,
            answeredAt: null,
            hidden: false,
            createdAt: at
          }
          yield* repo.insertQuestion(question)
          yield* recordEvent(learner.workspaceId, "lesson_question.created", {
            product_id: product.id,
            product_title: product.fields.title,
            email: question.email,
            name: question.name,
            question_id: question.id,
            lesson_id: lesson.id,
            lesson_title: lesson.title,
            text: question.text,
            created_at: at.toISOString()
          })
          const support = yield* settings.find(learner.workspaceId)
          if (Option.isSome(support) && support.value.supportEmail !== null) {
            yield* mailer.send({
              workspaceId: learner.workspaceId,
              to: support.value.supportEmail,
              ...newLessonQuestionEmail({
                questionId: question.id,
                productTitle: product.fields.title,
                lessonTitle: lesson.title,
                asker: question.name ?? question.email,
                text: question.text
              })
            })
          }
          return question
        })
      )

    const findQuestion = (caller: StoreCaller, id: string) =>
      Effect.flatMap(repo.findQuestion(caller.workspaceId, id.trim()), (found) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(
              new NotFound({
                message: `no lesson question ${id} in this store`,
                next: { _tag: "ListLessonQuestions" }
              })
            ),
          onSome: Effect.succeed
        })
      )

    /** The store's lesson questions, newest first, optionally of one product, lesson or status. */
    const listQuestions = (caller: StoreCaller, query: LessonQuestionListQuery) =>
      repo.listQuestions(
        caller.workspaceId,
        { productId: query.productId, lessonId: query.lessonId, status: query.status, ...query.created },
        query.page
      )

    /**
     * Answers a lesson question, or changes its answer: the asker is emailed it with the lesson's link, and it shows
     * under the question on the lesson's page (unless the question is hidden).
     */
    const answerQuestion = (caller: StoreCaller, id: string, text: string) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const question = yield* findQuestion(caller, id)
          const trimmed = text.trim()
          if (trimmed.length === 0) return yield* invalid("answer", "answer must not be empty")
          if (trimmed.length > LESSON_ANSWER_MAX) {
            return yield* invalid(
              "answer",
              `answer must be at most ${LESSON_ANSWER_MAX} characters; ${trimmed.length} given`
            )
          }
          const unstorable = unstorableText(trimmed)
          if (unstorable !== undefined) return yield* invalid("answer", unstorable)
          const at = yield* now
          yield* repo.answer(caller.workspaceId, question.id, trimmed, at)
          const learner = yield* repo.findLearner(question.learnerId)
          yield* mailer.send({
            workspaceId: caller.workspaceId,
            to: question.email,
            ...lessonAnsweredEmail({
              storeName: yield* storeNameOf(caller.workspaceId),
              lessonTitle: question.lessonTitle,
              question: question.text,
              answer: trimmed,
              lessonUrl: Option.match(learner, {
                onNone: () => null,
                onSome: (l) => lessonUrlOf(publicBase, l, question.lessonId)
              }),
              changed: question.answer !== null
            })
          })
          return { ...question, answer: trimmed, answeredAt: at } satisfies LessonQuestion
        })
      )

    /** Hides a question (and its answer) from the lesson's page, or shows it again; the asker still sees their own. */
    const setHidden = (caller: StoreCaller, id: string, hidden: boolean) =>
      Effect.gen(function* () {
        const question = yield* findQuestion(caller, id)
        yield* repo.setHidden(caller.workspaceId, question.id, hidden)
        return { ...question, hidden } satisfies LessonQuestion
      })

    return {
      linkFor,
      open,
      lesson,
      lessonOf,
      complete,
      ask,
      listQuestions,
      getQuestion: findQuestion,
      answerQuestion,
      setHidden
    } as const
  })
}) {}
