import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import { type PaidQuestion, PaidQuestionsRepo } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface PaidQuestionRow {
  readonly id: string
  readonly workspace_id: string
  readonly product_id: string
  readonly product_title: string
  readonly sale_id: string
  readonly buyer_email: string
  readonly buyer_name: string | null
  readonly text: string
  readonly amount_cents: number
  readonly currency: string
  readonly test: boolean
  readonly key: string
  readonly answer_due_at: Date
  readonly answer: string | null
  readonly answered_at: Date | null
  readonly created_at: Date
}

const toQuestion = (row: PaidQuestionRow): PaidQuestion => ({
  id: row.id,
  workspaceId: row.workspace_id,
  productId: row.product_id,
  productTitle: row.product_title,
  saleId: row.sale_id,
  buyerEmail: row.buyer_email,
  buyerName: row.buyer_name,
  text: row.text,
  amountCents: row.amount_cents,
  currency: row.currency,
  test: row.test,
  key: row.key,
  answerDueAt: row.answer_due_at,
  answer: row.answer,
  answeredAt: row.answered_at,
  createdAt: row.created_at
})

const one = (rows: ReadonlyArray<PaidQuestionRow>) => Option.map(Option.fromNullable(rows[0]), toQuestion)

/** `PaidQuestionsRepo` over SQL: one question per sale, kept unique by the sale's id. */
export const PaidQuestionsRepoSql = Layer.effect(
  PaidQuestionsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      insert: (q) =>
        lean`INSERT INTO store_paid_questions (id, workspace_id, product_id, product_title, sale_id, buyer_email,
              buyer_name, text, amount_cents, currency, test, key, answer_due_at, answer, answered_at, created_at)
            VALUES (${q.id}, ${q.workspaceId}, ${q.productId}, ${q.productTitle}, ${q.saleId}, ${q.buyerEmail},
              ${q.buyerName}, ${q.text}, ${q.amountCents}, ${q.currency}, ${q.test}, ${q.key}, ${q.answerDueAt},
              ${q.answer}, ${q.answeredAt}, ${q.createdAt})
            ON CONFLICT (workspace_id, sale_id) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      find: (workspaceId, id) =>
        lean<PaidQuestionRow>`SELECT * FROM store_paid_questions WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      findById: (id) =>
        lean<PaidQuestionRow>`SELECT * FROM store_paid_questions WHERE id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      answer: (workspaceId, id, answer, at) =>
        lean`UPDATE store_paid_questions SET answer = ${answer}, answered_at = ${at}
             WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      listPage: (workspaceId, filter, page) => {
        const product = filter.productId ? sql`AND product_id = ${filter.productId}` : sql``
        const status =
          filter.status === undefined
            ? sql``
            : filter.status === "open"
              ? sql`AND answer IS NULL`
              : sql`AND answer IS NOT NULL`
        const createdAfter = filter.after ? sql`AND created_at > ${filter.after}` : sql``
        const createdBefore = filter.before ? sql`AND created_at < ${filter.before}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<PaidQuestionRow>`SELECT * FROM store_paid_questions WHERE workspace_id = ${workspaceId}
                                    ${product} ${status} ${createdAfter} ${createdBefore} ${after}
                                    ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toQuestion), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
