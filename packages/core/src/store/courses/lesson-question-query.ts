import { Effect } from "effect"
import { BadListRequest } from "../../shared/errors.js"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"
import type { LessonQuestionStatus } from "./course.js"

/** What `StoreCourses.listQuestions` reads: the page, the window of asking times, and optional filters. */
export interface LessonQuestionListQuery {
  readonly productId: string | undefined
  readonly lessonId: string | undefined
  readonly status: LessonQuestionStatus | undefined
  readonly page: PageRequest
  readonly created: CreatedRange
}

const given = (text: string | undefined) => {
  const trimmed = text?.trim()
  return trimmed === "" ? undefined : trimmed
}

/** `GET /lesson-questions`'s query text as the typed query; 400 on any wrong parameter. */
export const readLessonQuestionListQuery = (
  query: StoreListQuery & {
    readonly product?: string | undefined
    readonly lesson?: string | undefined
    readonly status?: string | undefined
  }
) =>
  Effect.gen(function* () {
    const { page, range } = yield* readListQuery(query)
    const status = given(query.status)
    if (status !== undefined && status !== "open" && status !== "answered") {
      return yield* new BadListRequest({ message: "status must be open or answered" })
    }
    return {
      productId: given(query.product),
      lessonId: given(query.lesson),
      status,
      page,
      created: range
    } satisfies LessonQuestionListQuery
  })
