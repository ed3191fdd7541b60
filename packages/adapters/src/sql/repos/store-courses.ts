import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import { type CourseLearner, CoursesRepo, type LessonQuestion } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface LearnerRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly email: string
  readonly name: string | null
  readonly key: string
  readonly created_at: Date
}

const toLearner = (row: LearnerRow): CourseLearner => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  email: row.email,
  name: row.name,
  key: row.key,
  createdAt: row.created_at
})

interface QuestionRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly product_title: string
  readonly learner_id: string
  readonly lesson_id: string
  readonly lesson_title: string
  readonly email: string
  readonly name: string | null
  readonly text: string
  readonly answer: string | null
  readonly answered_at: Date | null
  readonly hidden: boolean
  readonly created_at: Date
}

const toQuestion = (row: QuestionRow): LessonQuestion => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  productTitle: row.product_title,
  learnerId: row.learner_id,
  lessonId: row.lesson_id,
  lessonTitle: row.lesson_title,
  email: row.email,
  name: row.name,
  text: row.text,
  answer: row.answer,
  answeredAt: row.answered_at,
  hidden: row.hidden,
  createdAt: row.created_at
})

/** `CoursesRepo` over SQL: one learner per person and course, each lesson finished once. */
export const CoursesRepoSql = Layer.effect(
  CoursesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      ensureLearner: (learner) =>
        // The no-op update makes RETURNING answer the row that was there, so a second call keeps the first key.
        lean<LearnerRow>`INSERT INTO store_course_learners (id, workspace_id, product_id, email, name, key, created_at)
             VALUES (${learner.id}, ${learner.workspaceId}, ${learner.productId}, ${learner.email}, ${learner.name},
                     ${learner.key}, ${learner.createdAt})
             ON CONFLICT (workspace_id, product_id, email)
               DO UPDATE SET name = coalesce(store_course_learners.name, excluded.name)
             RETURNING *`.pipe(
          Effect.map((rows) => toLearner(rows[0] as LearnerRow)),
          Effect.orDie
        ),
      findLearner: (id) =>
        lean<LearnerRow>`SELECT * FROM store_course_learners WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toLearner)),
          Effect.orDie
        ),
      lockLearner: (id) =>
        lean`SELECT id FROM store_course_learners WHERE id = ${id} FOR UPDATE`.pipe(Effect.asVoid, Effect.orDie),
      completed: (learnerId) =>
        lean<{ readonly lesson_id: string }>`SELECT lesson_id FROM store_lesson_completions
                                             WHERE learner_id = ${learnerId}`.pipe(
          Effect.map((rows): ReadonlySet<string> => new Set(rows.map((r) => r.lesson_id))),
          Effect.orDie
        ),
      complete: (workspaceId, learnerId, lessonId, at) =>
        lean`INSERT INTO store_lesson_completions (learner_id, lesson_id, workspace_id, completed_at)
             VALUES (${learnerId}, ${lessonId}, ${workspaceId}, ${at})
             ON CONFLICT (learner_id, lesson_id) DO NOTHING RETURNING lesson_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      insertQuestion: (q) =>
        lean`INSERT INTO store_lesson_questions (id, workspace_id, product_id, product_title, learner_id, lesson_id,
               lesson_title, email, name, text, answer, answered_at, hidden, created_at)
             VALUES (${q.id}, ${q.workspaceId}, ${q.productId}, ${q.productTitle}, ${q.learnerId}, ${q.lessonId},
               ${q.lessonTitle}, ${q.email}, ${q.name}, ${q.text}, ${q.answer}, ${q.answeredAt}, ${q.hidden},
               ${q.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      findQuestion: (workspaceId, id) =>
        lean<QuestionRow>`SELECT * FROM store_lesson_questions WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toQuestion)),
          Effect.orDie
        ),
      shownQuestions: (workspaceId, productId, lessonId, limit) =>
        lean<QuestionRow>`SELECT * FROM store_lesson_questions
                          WHERE workspace_id = ${workspaceId} AND lesson_id = ${lessonId}
                            AND product_id = ${productId} AND NOT hidden
                          ORDER BY created_at, id LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toQuestion)),
          Effect.orDie
        ),
      questionsOf: (learnerId, lessonId) =>
        lean<QuestionRow>`SELECT * FROM store_lesson_questions
                          WHERE learner_id = ${learnerId} AND lesson_id = ${lessonId}
                          ORDER BY created_at, id`.pipe(
          Effect.map((rows) => rows.map(toQuestion)),
          Effect.orDie
        ),
      askedSince: (learnerId, since) =>
        lean<{ readonly n: number }>`SELECT count(*)::int AS n FROM store_lesson_questions
                                     WHERE learner_id = ${learnerId} AND created_at > ${since}`.pipe(
          Effect.map((rows) => Number(rows[0]?.n ?? 0)),
          Effect.orDie
        ),
      answer: (workspaceId, id, answer, at) =>
        lean`UPDATE store_lesson_questions SET answer = ${answer}, answered_at = ${at}
             WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      setHidden: (workspaceId, id, hidden) =>
        lean`UPDATE store_lesson_questions SET hidden = ${hidden}
             WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      listQuestions: (workspaceId, filter, page) => {
        const product = filter.productId ? sql`AND product_id = ${filter.productId}` : sql``
        const lesson = filter.lessonId ? sql`AND lesson_id = ${filter.lessonId}` : sql``
        const status =
          filter.status === undefined
            ? sql``
            : filter.status === "open"
              ? sql`AND answer IS NULL`
              : sql`AND answer IS NOT NULL`
        const createdAfter = filter.after ? sql`AND created_at > ${filter.after}` : sql``
        const createdBefore = filter.before ? sql`AND created_at < ${filter.before}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<QuestionRow>`SELECT * FROM store_lesson_questions WHERE workspace_id = ${workspaceId}
                                ${product} ${lesson} ${status} ${createdAfter} ${createdBefore} ${after}
                                ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toQuestion), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
