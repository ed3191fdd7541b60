import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { Page, PageRequest } from "../../shared/paging.js"
import { type LessonQuestion, lessonQuestionStatus } from "./course.js"
import type { LessonQuestionRow } from "./lesson-api.js"

/** A lesson question as the store API answers it. */
export const lessonQuestionJson = (question: LessonQuestion): typeof LessonQuestionRow.Type => ({
  id: question.id,
  product_id: question.productId,
  product_title: question.productTitle,
  lesson_id: question.lessonId,
  lesson_title: question.lessonTitle,
  email: question.email,
  name: question.name,
  text: question.text,
  status: lessonQuestionStatus(question),
  answer: question.answer,
  answered_at: question.answeredAt === null ? null : question.answeredAt.toISOString(),
  hidden: question.hidden,
  created_at: question.createdAt.toISOString()
})

/** A page of lesson questions, as `GET /lesson-questions` answers it. */
export const lessonQuestionPageJson = (page: Page<LessonQuestion>, request: PageRequest) =>
  pageAnswer(page, lessonQuestionJson, request, creationKey)
