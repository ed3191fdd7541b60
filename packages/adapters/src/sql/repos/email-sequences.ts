import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf, withSpan } from "@svc/core/shared"
import {
  type ClaimedEnrolment,
  type EmailSequence,
  EmailSequencesRepo,
  type EnrolmentState,
  type SequenceState,
  type SequenceStep,
  type SequenceView
} from "@svc/core/store"
import { Effect, Layer, Option, Schema } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"

interface SequenceRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly state: SequenceState
  readonly steps: unknown
  readonly created_at: Date
  readonly updated_at: Date
}

/** A sequence row with its start triggers (json arrays) and enrolment counts. */
interface ViewRow extends SequenceRow {
  readonly tags: unknown
  readonly products: unknown
  readonly active: number
  readonly completed: number
  readonly stopped: number
}

interface EnrolmentRow {
  readonly id: string
  readonly workspace_id: string
  readonly sequence_id: string
  readonly email: string
  readonly state: EnrolmentState
  readonly next_step: number
  readonly next_due_at: Date | null
  readonly started_at: Date
  readonly claim_token: string | null
  readonly lease_until: Date | null
}

const decodeSteps = Schema.decodeUnknownSync(
  Schema.Array(Schema.Struct({ delay_minutes: Schema.Int, subject: Schema.String, body: Schema.String }))
)
const decodeTags = Schema.decodeUnknownSync(Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String })))
const decodeIds = Schema.decodeUnknownSync(Schema.Array(Schema.String))

const stepsJson = (steps: ReadonlyArray<SequenceStep>) =>
  JSON.stringify(steps.map((s) => ({ delay_minutes: s.delayMinutes, subject: s.subject, body: s.body })))

const toSteps = (value: unknown): ReadonlyArray<SequenceStep> =>
  decodeSteps(jsonColumn(value)).map((s) => ({ delayMinutes: s.delay_minutes, subject: s.subject, body: s.body }))

const toView = (row: ViewRow): SequenceView => {
  const tags = decodeTags(jsonColumn(row.tags))
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    state: row.state,
    steps: toSteps(row.steps),
    startTags: tags.map((t) => t.id),
    startProducts: decodeIds(jsonColumn(row.products)),
    tags,
    enrolments: { active: row.active, completed: row.completed, stopped: row.stopped },
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
}

const toClaimed = (row: EnrolmentRow): ClaimedEnrolment => ({
  id: row.id,
  workspaceId: row.workspace_id,
  sequenceId: row.sequence_id,
  email: row.email,
  state: row.state,
  nextStep: row.next_step,
  nextDueAt: row.next_due_at,
  startedAt: row.started_at,
  claimToken: row.claim_token ?? "",
  leaseUntil: row.lease_until ?? row.started_at
})

/**
 * `EmailSequencesRepo` over SQL. Enrolments are claimed like the other queues: one `UPDATE … RETURNING` over due
 * rows locked with `SKIP LOCKED`, setting a lease (also the row's `run_after`, so an ended lease makes it due again)
 * and a fresh token that alone may move it on. `(enrolment_id, step)` of `store_email_sequence_sends` refuses a
 * second send of one step.
 */
export const EmailSequencesRepoSql = Layer.effect(
  EmailSequencesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql

    // A sequence (or a page of them) with its starts and counts in one statement: `id` null reads a page.
    const views = (
      workspaceId: string,
      id: string | null,
      range: { readonly after?: Date | undefined; readonly before?: Date | undefined },
      page: { readonly limit: number; readonly after: { readonly createdAt: Date; readonly id: string } | undefined }
    ) =>
      lean<ViewRow>`
        SELECT s.*,
          COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY st.position)
                    FROM store_email_sequence_starts st JOIN store_tags t ON t.id = st.ref
                    WHERE st.sequence_id = s.id AND st.kind = 'tag'), '[]'::json) AS tags,
          COALESCE((SELECT json_agg(st.ref ORDER BY st.position) FROM store_email_sequence_starts st
                    WHERE st.sequence_id = s.id AND st.kind = 'product'), '[]'::json) AS products,
          c.active, c.completed, c.stopped
        FROM store_email_sequences s
        CROSS JOIN LATERAL (
          SELECT count(*) FILTER (WHERE e.state = 'active')::int AS active,
                 count(*) FILTER (WHERE e.state = 'completed')::int AS completed,
                 count(*) FILTER (WHERE e.state = 'stopped')::int AS stopped
          FROM store_email_sequence_enrolments e WHERE e.sequence_id = s.id
        ) c
        WHERE s.workspace_id = ${workspaceId}
          AND (${id}::text IS NULL OR s.id = ${id}::text)
          AND (${range.after ?? null}::timestamptz IS NULL OR s.created_at > ${range.after ?? null}::timestamptz)
          AND (${range.before ?? null}::timestamptz IS NULL OR s.created_at < ${range.before ?? null}::timestamptz)
          AND (${page.after === undefined} OR (s.created_at, s.id) < (${page.after?.createdAt ?? null}::timestamptz, ${page.after?.id ?? null}::text))
        ORDER BY s.created_at DESC, s.id DESC
        LIMIT ${page.limit + 1}`.pipe(Effect.map((rows) => rows.map(toView)))

    const writeStarts = (s: EmailSequence) =>
      Effect.gen(function* () {
        yield* lean`DELETE FROM store_email_sequence_starts WHERE sequence_id = ${s.id}`
        const rows = [
          ...s.startTags.map((ref, position) => ({ kind: "tag", ref, position })),
          ...s.startProducts.map((ref, position) => ({ kind: "product", ref, position }))
        ].map((r) => ({ sequence_id: s.id, workspace_id: s.workspaceId, ...r }))
        if (rows.length > 0) yield* sql`INSERT INTO store_email_sequence_starts ${sql.insert(rows)}`
      })

    const toSequence = (row: SequenceRow, starts: ReadonlyArray<{ kind: string; ref: string }>): EmailSequence => ({
      id: row.id,
      workspaceId: row.workspace_id,
      name: row.name,
      state: row.state,
      steps: toSteps(row.steps),
      startTags: starts.filter((s) => s.kind === "tag").map((s) => s.ref),
      startProducts: starts.filter((s) => s.kind === "product").map((s) => s.ref),
      createdAt: row.created_at,
      updatedAt: row.updated_at
    })

    const withStarts = (rows: ReadonlyArray<SequenceRow>) =>
      Effect.gen(function* () {
        const row = rows[0]
        if (row === undefined) return Option.none<EmailSequence>()
        const starts = yield* lean<{ kind: string; ref: string }>`
          SELECT kind, ref FROM store_email_sequence_starts WHERE sequence_id = ${row.id} ORDER BY kind, position`
        return Option.some(toSequence(row, starts))
      })

    return {
      insert: (s) =>
        Effect.gen(function* () {
          yield* lean`INSERT INTO store_email_sequences (id, workspace_id, name, state, steps, created_at, updated_at)
                      VALUES (${s.id}, ${s.workspaceId}, ${s.name}, ${s.state}, ${stepsJson(s.steps)}::jsonb,
                              ${s.createdAt}, ${s.updatedAt})`
          yield* writeStarts(s)
        }).pipe(Effect.orDie),
      save: (s) =>
        Effect.gen(function* () {
          yield* lean`UPDATE store_email_sequences SET name = ${s.name}, state = ${s.state},
                        steps = ${stepsJson(s.steps)}::jsonb, updated_at = ${s.updatedAt}
                      WHERE id = ${s.id}`
          yield* writeStarts(s)
        }).pipe(Effect.orDie),
      lock: (workspaceId, id) =>
        lean<SequenceRow>`SELECT * FROM store_email_sequences WHERE workspace_id = ${workspaceId} AND id = ${id}
                          FOR UPDATE`.pipe(Effect.flatMap(withStarts), Effect.orDie),
      find: (workspaceId, id) =>
        views(workspaceId, id, {}, { limit: 1, after: undefined }).pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      remove: (workspaceId, id) =>
        lean<{ id: string }>`DELETE FROM store_email_sequences WHERE workspace_id = ${workspaceId} AND id = ${id}
                             RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      count: (workspaceId) =>
        lean<{ n: number }>`SELECT count(*)::int AS n FROM store_email_sequences
                            WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      listPage: (workspaceId, range, page) =>
        views(workspaceId, null, range, page).pipe(
          Effect.map((rows) => pageOf(rows, page.limit)),
          Effect.orDie
        ),
      startedBy: (workspaceId, starts) => {
        const byTag =
          starts.tagIds.length === 0 ? sql`false` : sql`(st.kind = 'tag' AND st.ref IN ${sql.in(starts.tagIds)})`
        const byProduct =
          starts.productIds.length === 0
            ? sql`false`
            : sql`(st.kind = 'product' AND st.ref IN ${sql.in(starts.productIds)})`
        return sql<{ sequence_id: string; first_delay: number }>`
          SELECT DISTINCT s.id AS sequence_id, (s.steps -> 0 ->> 'delay_minutes')::int AS first_delay
          FROM store_email_sequence_starts st JOIN store_email_sequences s ON s.id = st.sequence_id
          WHERE st.workspace_id = ${workspaceId} AND s.state = 'active' AND (${byTag} OR ${byProduct})
          ORDER BY s.id`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({ sequenceId: row.sequence_id, firstDelayMinutes: row.first_delay }))
          ),
          Effect.orDie
        )
      },
      enrol: (e) =>
        lean<{ id: string }>`
          INSERT INTO store_email_sequence_enrolments (id, workspace_id, sequence_id, email, state, next_step,
                                                       next_due_at, run_after, started_at, updated_at)
          VALUES (${e.id}, ${e.workspaceId}, ${e.sequenceId}, ${e.email}, 'active', 0, ${e.nextDueAt},
                  ${e.nextDueAt}, ${e.startedAt}, ${e.startedAt})
          ON CONFLICT (sequence_id, email) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      stopFor: (workspaceId, email, reason, at) =>
        lean<{ id: string }>`
          UPDATE store_email_sequence_enrolments
          SET state = 'stopped', stop_reason = ${reason}, next_due_at = NULL, run_after = NULL, claim_token = NULL,
              lease_until = NULL, updated_at = ${at}, ended_at = ${at}
          WHERE workspace_id = ${workspaceId} AND email = ${email} AND state = 'active'
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      claimDue: (claim, limit) =>
        lean<EnrolmentRow>`
          UPDATE store_email_sequence_enrolments AS e
          SET claim_token = ${claim.claimToken}, lease_until = ${claim.leaseUntil}, run_after = ${claim.leaseUntil}
          FROM (
            SELECT x.id FROM store_email_sequence_enrolments x
            JOIN store_email_sequences s ON s.id = x.sequence_id
            WHERE x.state = 'active' AND x.run_after <= ${claim.now} AND s.state = 'active'
            ORDER BY x.run_after
            LIMIT ${limit}::int
            FOR UPDATE OF x SKIP LOCKED
          ) AS due
          WHERE e.id = due.id
          RETURNING e.*`.pipe(
          Effect.map((rows) => rows.map(toClaimed)),
          Effect.orDie,
          withSpan("EmailSequencesRepo.claimDue", { captureStackTrace: false })
        ),
      lockClaimed: (id, claimToken) =>
        lean<EnrolmentRow>`SELECT * FROM store_email_sequence_enrolments
                           WHERE id = ${id} AND claim_token = ${claimToken} AND state = 'active' FOR UPDATE`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toClaimed)),
          Effect.orDie
        ),
      findForRun: (id) =>
        lean<SequenceRow>`SELECT * FROM store_email_sequences WHERE id = ${id}`.pipe(
          Effect.flatMap(withStarts),
          Effect.orDie
        ),
      recordSend: (enrolmentId, step, at) =>
        lean<{ step: number }>`INSERT INTO store_email_sequence_sends (enrolment_id, step, sent_at)
                               VALUES (${enrolmentId}, ${step}, ${at})
                               ON CONFLICT (enrolment_id, step) DO NOTHING RETURNING step`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      move: (id, claimToken, m) =>
        lean<{ id: string }>`
          UPDATE store_email_sequence_enrolments
          SET state = ${m.state}, next_step = ${m.nextStep}, next_due_at = ${m.nextDueAt}, run_after = ${m.nextDueAt},
              stop_reason = ${m.stopReason}, claim_token = NULL, lease_until = NULL, updated_at = ${m.at},
              ended_at = ${m.state === "active" ? null : m.at}
          WHERE id = ${id} AND claim_token = ${claimToken}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      release: (id, claimToken) =>
        lean<{ id: string }>`
          UPDATE store_email_sequence_enrolments SET run_after = next_due_at, claim_token = NULL, lease_until = NULL
          WHERE id = ${id} AND claim_token = ${claimToken}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    }
  })
)
