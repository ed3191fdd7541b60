import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import { type ApplicationStatus, type Form, type FormResponse, FormsRepo, type Question } from "@svc/core/store"
import { Effect, Layer, Option, Schema } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"

interface FormRow {
  readonly id: string
  readonly workspace_id: string
  readonly title: string
  readonly description: string
  readonly questions: unknown
  readonly review: boolean
  readonly accept_tag_ids: unknown
  readonly decline_tag_ids: unknown
  readonly accept_product_id: string | null
  readonly decision_emails: boolean
  readonly accept_note: string | null
  readonly decline_note: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

interface ResponseRow {
  readonly id: string
  readonly workspace_id: string
  readonly form_id: string
  readonly email: string
  readonly name: string | null
  readonly answers: unknown
  readonly status: ApplicationStatus | null
  readonly decided_at: Date | null
  readonly created_at: Date
}

// The stored shapes, checked on the way out: a column this version did not write fails loudly, not as a wrong field.
const decodeQuestions = Schema.decodeUnknownSync(
  Schema.Array(
    Schema.Struct({
      id: Schema.String,
      label: Schema.String,
      kind: Schema.Literal("text", "paragraph", "email", "choice"),
      required: Schema.Boolean,
      choices: Schema.Array(Schema.String)
    })
  )
)
const decodeIds = Schema.decodeUnknownSync(Schema.Array(Schema.String))
const decodeAnswers = Schema.decodeUnknownSync(
  Schema.Array(Schema.Struct({ question_id: Schema.String, question: Schema.String, answer: Schema.String }))
)

const toForm = (row: FormRow): Form => ({
  id: row.id,
  workspaceId: row.workspace_id,
  title: row.title,
  description: row.description,
  questions: decodeQuestions(jsonColumn(row.questions)),
  review: row.review,
  acceptTagIds: decodeIds(jsonColumn(row.accept_tag_ids)),
  declineTagIds: decodeIds(jsonColumn(row.decline_tag_ids)),
  acceptProductId: row.accept_product_id,
  decisionEmails: row.decision_emails,
  acceptNote: row.accept_note,
  declineNote: row.decline_note,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const toResponse = (row: ResponseRow): FormResponse => ({
  id: row.id,
  workspaceId: row.workspace_id,
  formId: row.form_id,
  email: row.email,
  name: row.name,
  answers: decodeAnswers(jsonColumn(row.answers)).map((a) => ({
    questionId: a.question_id,
    question: a.question,
    answer: a.answer
  })),
  status: row.status,
  decidedAt: row.decided_at,
  createdAt: row.created_at
})

const questionsJson = (questions: ReadonlyArray<Question>) => JSON.stringify(questions)
const first = <R, A>(rows: ReadonlyArray<R>, to: (row: R) => A) => Option.map(Option.fromNullable(rows[0]), to)

/** `FormsRepo` over SQL: `store_forms` and `store_form_responses`. */
export const FormsRepoSql = Layer.effect(
  FormsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      insert: (f) =>
        lean`INSERT INTO store_forms (id, workspace_id, title, description, questions, review, accept_tag_ids,
                                      decline_tag_ids, accept_product_id, decision_emails, accept_note, decline_note,
                                      created_at, updated_at)
            VALUES (${f.id}, ${f.workspaceId}, ${f.title}, ${f.description}, ${questionsJson(f.questions)}::jsonb,
                    ${f.review}, ${JSON.stringify(f.acceptTagIds)}::jsonb, ${JSON.stringify(f.declineTagIds)}::jsonb,
                    ${f.acceptProductId}, ${f.decisionEmails}, ${f.acceptNote}, ${f.declineNote}, ${f.createdAt},
                    ${f.updatedAt})`.pipe(Effect.asVoid, Effect.orDie),
      update: (f) =>
        lean`UPDATE store_forms SET title = ${f.title}, description = ${f.description},
              questions = ${questionsJson(f.questions)}::jsonb, review = ${f.review},
              accept_tag_ids = ${JSON.stringify(f.acceptTagIds)}::jsonb,
              decline_tag_ids = ${JSON.stringify(f.declineTagIds)}::jsonb, accept_product_id = ${f.acceptProductId},
              decision_emails = ${f.decisionEmails}, accept_note = ${f.acceptNote}, decline_note = ${f.declineNote},
              updated_at = ${f.updatedAt}
            WHERE workspace_id = ${f.workspaceId} AND id = ${f.id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (workspaceId, formId) =>
        lean<{ readonly id: string }>`DELETE FROM store_forms WHERE workspace_id = ${workspaceId} AND id = ${formId}
                                      RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      find: (workspaceId, formId) =>
        lean<FormRow>`SELECT * FROM store_forms WHERE workspace_id = ${workspaceId} AND id = ${formId}`.pipe(
          Effect.map((rows) => first(rows, toForm)),
          Effect.orDie
        ),
      count: (workspaceId) =>
        lean<{
          readonly n: number
        }>`SELECT count(*)::int AS n FROM store_forms WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      counts: (formId) =>
        lean<{ readonly responses: number; readonly pending: number }>`
          SELECT count(*)::int AS responses, (count(*) FILTER (WHERE status = 'pending'))::int AS pending
          FROM store_form_responses WHERE form_id = ${formId}`.pipe(
          Effect.map((rows) => rows[0] ?? { responses: 0, pending: 0 }),
          Effect.orDie
        ),
      listPage: (workspaceId, range, page) => {
        const createdAfter = range.after ? sql`AND f.created_at > ${range.after}` : sql``
        const createdBefore = range.before ? sql`AND f.created_at < ${range.before}` : sql``
        const after = page.after ? sql`AND (f.created_at, f.id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<FormRow & { readonly responses: number; readonly pending: number }>`
          SELECT f.*,
                 (SELECT count(*)::int FROM store_form_responses r WHERE r.form_id = f.id) AS responses,
                 (SELECT count(*)::int FROM store_form_responses r WHERE r.form_id = f.id AND r.status = 'pending')
                   AS pending
          FROM store_forms f WHERE f.workspace_id = ${workspaceId} ${createdAfter} ${createdBefore} ${after}
          ORDER BY f.created_at DESC, f.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) =>
            pageOf(
              rows.map((row) => ({ ...toForm(row), responses: row.responses, pending: row.pending })),
              page.limit
            )
          ),
          Effect.orDie
        )
      },
      insertResponse: (r) =>
        lean`INSERT INTO store_form_responses (id, workspace_id, form_id, email, name, answers, status, decided_at,
                                               created_at)
            VALUES (${r.id}, ${r.workspaceId}, ${r.formId}, ${r.email}, ${r.name},
                    ${JSON.stringify(
                      r.answers.map((a) => ({ question_id: a.questionId, question: a.question, answer: a.answer }))
                    )}::jsonb, ${r.status}, ${r.decidedAt}, ${r.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      lockResponse: (formId, responseId) =>
        lean<ResponseRow>`SELECT * FROM store_form_responses WHERE form_id = ${formId} AND id = ${responseId}
                          FOR UPDATE`.pipe(
          Effect.map((rows) => first(rows, toResponse)),
          Effect.orDie
        ),
      lockNewestByEmail: (formId, email) =>
        lean<ResponseRow>`SELECT * FROM store_form_responses WHERE form_id = ${formId} AND email = ${email}
                          ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`.pipe(
          Effect.map((rows) => first(rows, toResponse)),
          Effect.orDie
        ),
      decide: (responseId, status, at) =>
        lean`UPDATE store_form_responses SET status = ${status}, decided_at = ${at} WHERE id = ${responseId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      applications: (formId, status, range, page) => {
        const wanted = status === undefined ? sql`AND status IS NOT NULL` : sql`AND status = ${status}`
        const createdAfter = range.after ? sql`AND created_at > ${range.after}` : sql``
        const createdBefore = range.before ? sql`AND created_at < ${range.before}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<ResponseRow>`SELECT * FROM store_form_responses WHERE form_id = ${formId}
                                ${wanted} ${createdAfter} ${createdBefore} ${after}
                                ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toResponse), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
