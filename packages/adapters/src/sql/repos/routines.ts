import { AnswerSource, type AskMode } from "@svc/core/custom-ai"
import {
  type ClaimedRoutineRun,
  type Routine,
  type RoutineDestination,
  type RoutineRun,
  type RoutineRunStatus,
  type RoutineSchedule,
  RoutinesRepo,
  type RoutineView
} from "@svc/core/routines"
import { pageOf, withSpan } from "@svc/core/shared"
import { Effect, Layer, Option, Schema } from "effect"
import { LeanSql } from "../lean.js"

interface RoutineRow {
  readonly id: string
  readonly workspace_id: string
  readonly account_id: string
  readonly custom_ai_id: string | null
  readonly name: string
  readonly message: string
  readonly mode: AskMode
  readonly cron: string | null
  readonly every_minutes: number | null
  readonly time_zone: string
  readonly destination_kind: RoutineDestination["kind"]
  readonly destination_id: string | null
  readonly chat_id: string | null
  readonly enabled: boolean
  readonly next_run_at: Date
  readonly created_at: Date
  readonly updated_at: Date
}

interface RunRow {
  readonly id: string
  readonly routine_id: string
  readonly workspace_id: string
  readonly due_at: Date
  readonly status: RoutineRunStatus
  readonly attempts: number
  readonly custom_ai_id: string | null
  readonly message_id: string | null
  readonly chat_id: string | null
  readonly answer: string | null
  readonly sources: unknown
  readonly charged_tenths: number
  readonly error: string | null
  readonly started_at: Date
  readonly finished_at: Date | null
  readonly claim_token: string | null
  readonly lease_until: Date | null
  readonly run_after: Date | null
}

/** A routine row with its latest run's columns, prefixed `run_` (all null when it has none). */
type ViewRow = RoutineRow & { readonly [K in keyof RunRow as `run_${K}`]: RunRow[K] | null }

const decodeSources = Schema.decodeUnknownSync(Schema.Array(AnswerSource))

const toSchedule = (row: RoutineRow): RoutineSchedule =>
  row.cron !== null
    ? { kind: "cron", cron: row.cron, timeZone: row.time_zone }
    : { kind: "interval", everyMinutes: row.every_minutes ?? 0, timeZone: row.time_zone }

const toDestination = (row: RoutineRow): RoutineDestination => {
  switch (row.destination_kind) {
    case "chat":
      return { kind: "chat" }
    case "board":
      return { kind: "board", boardId: row.destination_id ?? "" }
    case "note":
      return { kind: "note", noteId: row.destination_id }
  }
}

const toRoutine = (row: RoutineRow): Routine => ({
  id: row.id,
  workspaceId: row.workspace_id,
  accountId: row.account_id,
  customAiId: row.custom_ai_id,
  name: row.name,
  message: row.message,
  mode: row.mode,
  schedule: toSchedule(row),
  destination: toDestination(row),
  chatId: row.chat_id,
  enabled: row.enabled,
  nextRunAt: row.next_run_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const toRun = (row: RunRow): RoutineRun => ({
  id: row.id,
  routineId: row.routine_id,
  dueAt: row.due_at,
  status: row.status,
  attempts: row.attempts,
  customAiId: row.custom_ai_id,
  messageId: row.message_id,
  chatId: row.chat_id,
  answer: row.answer,
  sources: decodeSources(row.sources),
  chargedTenths: row.charged_tenths,
  error: row.error,
  startedAt: row.started_at,
  finishedAt: row.finished_at
})

const toClaimed = (row: RunRow): ClaimedRoutineRun => ({
  ...toRun(row),
  workspaceId: row.workspace_id,
  claimToken: row.claim_token ?? "",
  leaseUntil: row.lease_until ?? row.due_at
})

const toView = (row: ViewRow): RoutineView => ({
  ...toRoutine(row),
  latestRun:
    row.run_id === null
      ? null
      : toRun({
          id: row.run_id,
          routine_id: row.id,
          workspace_id: row.workspace_id,
          due_at: row.run_due_at ?? row.created_at,
          status: row.run_status ?? "running",
          attempts: row.run_attempts ?? 0,
          custom_ai_id: row.run_custom_ai_id,
          message_id: row.run_message_id,
          chat_id: row.run_chat_id,
          answer: row.run_answer,
          sources: row.run_sources ?? [],
          charged_tenths: row.run_charged_tenths ?? 0,
          error: row.run_error,
          started_at: row.run_started_at ?? row.created_at,
          finished_at: row.run_finished_at,
          claim_token: null,
          lease_until: null,
          run_after: null
        })
})

const destinationId = (destination: RoutineDestination): string | null =>
  destination.kind === "note" ? destination.noteId : destination.kind === "board" ? destination.boardId : null

/**
 * `RoutinesRepo` over SQL. Due routines are locked with `SKIP LOCKED` inside the transaction that starts their runs
 * and moves them on; a run's `(routine_id, due_at)` key refuses a second run of one due time whatever happens. Runs
 * are claimed like the ask jobs: one `UPDATE … RETURNING` over due rows locked with `SKIP LOCKED`, setting a lease
 * (also the row's `run_after`, so an ended lease makes it due again) and a fresh token that alone may record it.
 */
export const RoutinesRepoSql = Layer.effect(
  RoutinesRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql

    // A routine (or a page of them) with its latest run, in one statement: `id` null reads a page, else that one.
    const views = (
      workspaceId: string,
      id: string | null,
      page: { readonly limit: number; readonly after: { readonly createdAt: Date; readonly id: string } | undefined }
    ) =>
      lean<ViewRow>`
        SELECT r.*, x.id AS run_id, x.due_at AS run_due_at, x.status AS run_status, x.attempts AS run_attempts,
               x.custom_ai_id AS run_custom_ai_id, x.message_id AS run_message_id, x.chat_id AS run_chat_id,
               x.answer AS run_answer, x.sources AS run_sources, x.charged_tenths AS run_charged_tenths,
               x.error AS run_error, x.started_at AS run_started_at, x.finished_at AS run_finished_at
        FROM routines r
        LEFT JOIN LATERAL (
          SELECT * FROM routine_runs WHERE routine_id = r.id ORDER BY due_at DESC LIMIT 1
        ) x ON true
        WHERE r.workspace_id = ${workspaceId}
          AND (${id}::text IS NULL OR r.id = ${id}::text)
          AND (${page.after === undefined} OR (r.created_at, r.id) < (${page.after?.createdAt ?? null}::timestamptz, ${page.after?.id ?? null}::text))
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${page.limit + 1}`.pipe(Effect.map((rows) => rows.map(toView)))

    return {
      insert: (r) =>
        lean`INSERT INTO routines (id, workspace_id, account_id, custom_ai_id, name, message, mode, cron,
                                   every_minutes, time_zone, destination_kind, destination_id, chat_id, enabled,
                                   next_run_at, created_at, updated_at)
             VALUES (${r.id}, ${r.workspaceId}, ${r.accountId}, ${r.customAiId}, ${r.name}, ${r.message}, ${r.mode},
                     ${r.schedule.kind === "cron" ? r.schedule.cron : null},
                     ${r.schedule.kind === "interval" ? r.schedule.everyMinutes : null}, ${r.schedule.timeZone},
                     ${r.destination.kind}, ${destinationId(r.destination)}, ${r.chatId}, ${r.enabled},
                     ${r.nextRunAt}, ${r.createdAt}, ${r.updatedAt})`.pipe(Effect.asVoid, Effect.orDie),
      find: (workspaceId, id) =>
        views(workspaceId, id, { limit: 1, after: undefined }).pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      listPage: (workspaceId, page) =>
        views(workspaceId, null, page).pipe(
          Effect.map((rows) => pageOf(rows, page.limit)),
          Effect.orDie
        ),
      lock: (workspaceId, id) =>
        lean<RoutineRow>`SELECT * FROM routines WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRoutine)),
          Effect.orDie
        ),
      save: (r) =>
        lean`UPDATE routines SET
               name = ${r.name}, message = ${r.message}, custom_ai_id = ${r.customAiId}, mode = ${r.mode},
               cron = ${r.schedule.kind === "cron" ? r.schedule.cron : null},
               every_minutes = ${r.schedule.kind === "interval" ? r.schedule.everyMinutes : null},
               time_zone = ${r.schedule.timeZone}, destination_kind = ${r.destination.kind},
               destination_id = ${destinationId(r.destination)}, chat_id = ${r.chatId}, enabled = ${r.enabled},
               next_run_at = ${r.nextRunAt}, updated_at = ${r.updatedAt}
             WHERE id = ${r.id}`.pipe(Effect.asVoid, Effect.orDie),
      count: (workspaceId) =>
        lean<{ readonly n: number }>`SELECT count(*)::int AS n FROM routines WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      findForRun: (id) =>
        lean<RoutineRow>`SELECT * FROM routines WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRoutine)),
          Effect.orDie
        ),
      lockDue: (now, limit) =>
        lean<RoutineRow>`
          SELECT * FROM routines WHERE enabled AND next_run_at <= ${now}
          ORDER BY next_run_at LIMIT ${limit}::int
          FOR UPDATE SKIP LOCKED`.pipe(
          Effect.map((rows) => rows.map(toRoutine)),
          Effect.orDie,
          withSpan("RoutinesRepo.lockDue", { captureStackTrace: false })
        ),
      setNextRun: (id, nextRunAt) =>
        lean`UPDATE routines SET next_run_at = ${nextRunAt} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      pause: (id, at) =>
        lean`UPDATE routines SET enabled = false, updated_at = ${at} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      setChat: (id, chatId) =>
        lean`UPDATE routines SET chat_id = ${chatId} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      startRun: (run, claim) =>
        lean<RunRow>`
          INSERT INTO routine_runs (id, routine_id, workspace_id, due_at, status, attempts, started_at, run_after,
                                    claim_token, lease_until)
          VALUES (${run.id}, ${run.routineId}, ${run.workspaceId}, ${run.dueAt}, 'running', 0, ${run.startedAt},
                  ${claim.leaseUntil}, ${claim.claimToken}, ${claim.leaseUntil})
          ON CONFLICT (routine_id, due_at) DO NOTHING
          RETURNING *`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toClaimed)),
          Effect.orDie
        ),
      claimDueRuns: (claim, limit) =>
        lean<RunRow>`
          UPDATE routine_runs AS r
          SET claim_token = ${claim.claimToken}, lease_until = ${claim.leaseUntil}, run_after = ${claim.leaseUntil}
          FROM (
            SELECT id FROM routine_runs
            WHERE run_after <= ${claim.now}
            ORDER BY run_after
            LIMIT ${limit}::int
            FOR UPDATE SKIP LOCKED
          ) AS due
          WHERE r.id = due.id
          RETURNING r.*`.pipe(
          Effect.map((rows) => rows.map(toClaimed)),
          Effect.orDie,
          withSpan("RoutinesRepo.claimDueRuns", { captureStackTrace: false })
        ),
      recordRun: (runId, claimToken, s) =>
        lean<{ readonly id: string }>`
          UPDATE routine_runs SET
            status = ${s.status}, attempts = ${s.attempts}, custom_ai_id = ${s.customAiId},
            message_id = ${s.messageId}, chat_id = ${s.chatId}, answer = ${s.answer},
            sources = ${JSON.stringify(s.sources)}::jsonb, charged_tenths = ${s.chargedTenths}, error = ${s.error},
            finished_at = ${s.finishedAt}, run_after = ${s.runAfter}, claim_token = NULL, lease_until = NULL
          WHERE id = ${runId} AND claim_token = ${claimToken}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      markAsked: (runId, claimToken, asked) =>
        lean<{ readonly id: string }>`
          UPDATE routine_runs SET attempts = ${asked.attempts}, custom_ai_id = ${asked.customAiId},
            message_id = ${asked.messageId}, chat_id = ${asked.chatId}
          WHERE id = ${runId} AND claim_token = ${claimToken}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      releaseRun: (runId, claimToken, runAfter) =>
        lean<{ readonly id: string }>`
          UPDATE routine_runs SET run_after = ${runAfter}, claim_token = NULL, lease_until = NULL
          WHERE id = ${runId} AND claim_token = ${claimToken}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      latestFinished: (workspaceId, since) =>
        lean<RunRow & { readonly routine_name: string }>`
          SELECT * FROM (
            SELECT DISTINCT ON (x.routine_id) x.*, r.name AS routine_name
            FROM routine_runs x JOIN routines r ON r.id = x.routine_id
            WHERE x.workspace_id = ${workspaceId} AND x.finished_at >= ${since}
            ORDER BY x.routine_id, x.finished_at DESC, x.id DESC
          ) latest
          ORDER BY finished_at DESC, id DESC`.pipe(
          Effect.map((rows) => rows.map((row) => ({ ...toRun(row), routineName: row.routine_name }))),
          Effect.orDie
        )
    }
  })
)
