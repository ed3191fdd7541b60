import { AskJobs, type AskMode, type ClaimedAskJob } from "@svc/core/custom-ai"
import { withSpan } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface JobRow {
  readonly message_id: string
  readonly chat_id: string
  readonly account_id: string
  readonly workspace_id: string
  readonly custom_ai_id: string
  readonly mode: AskMode
  readonly status: "pending" | "running"
  readonly attempts: number
  readonly claim_token: string | null
  readonly lease_until: Date | null
  readonly run_after: Date
}

const toClaimed = (row: JobRow): ClaimedAskJob => ({
  messageId: row.message_id,
  chatId: row.chat_id,
  accountId: row.account_id,
  workspaceId: row.workspace_id,
  customAiId: row.custom_ai_id,
  mode: row.mode,
  attempts: row.attempts,
  claimToken: row.claim_token ?? "",
  leaseUntil: row.lease_until ?? row.run_after
})

/**
 * `AskJobs` over SQL. A claim is one `UPDATE … RETURNING` over due rows locked with `SKIP LOCKED`, so workers of
 * several instances on one PostgreSQL take different jobs; each claim sets a lease (also the row's `run_after`, so
 * an expired lease makes it due again) and a fresh token, and only that token can end or reschedule the job.
 */
export const AskJobsSql = Layer.effect(
  AskJobs,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insertClaimed: (job, claim) =>
        lean<JobRow>`
          INSERT INTO custom_ai_ask_jobs (message_id, chat_id, account_id, workspace_id, custom_ai_id, mode, status,
                                          attempts, run_after, lease_until, claim_token, created_at)
          VALUES (${job.messageId}, ${job.chatId}, ${job.accountId}, ${job.workspaceId}, ${job.customAiId},
                  ${job.mode}, 'running', 1, ${claim.leaseUntil}, ${claim.leaseUntil}, ${claim.claimToken},
                  ${claim.now})
          RETURNING *`.pipe(
          Effect.flatMap((rows) =>
            rows[0] === undefined ? Effect.dieMessage("the ask job was not stored") : Effect.succeed(toClaimed(rows[0]))
          ),
          Effect.orDie
        ),
      claimDue: (claim, limit) =>
        lean<JobRow>`
          UPDATE custom_ai_ask_jobs AS j
          SET status = 'running', attempts = j.attempts + 1, lease_until = ${claim.leaseUntil},
              run_after = ${claim.leaseUntil}, claim_token = ${claim.claimToken}
          FROM (
            SELECT message_id FROM custom_ai_ask_jobs
            WHERE run_after <= ${claim.now}
            ORDER BY run_after
            LIMIT ${limit}::int
            FOR UPDATE SKIP LOCKED
          ) AS due
          WHERE j.message_id = due.message_id
          RETURNING j.*`.pipe(
          Effect.map((rows) => rows.map(toClaimed)),
          Effect.orDie,
          withSpan("AskJobs.claimDue", { captureStackTrace: false })
        ),
      complete: (messageId, claimToken) =>
        lean<{ readonly message_id: string }>`
          DELETE FROM custom_ai_ask_jobs WHERE message_id = ${messageId} AND claim_token = ${claimToken}
          RETURNING message_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      retryAt: (messageId, claimToken, runAfter) =>
        lean<{ readonly message_id: string }>`
          UPDATE custom_ai_ask_jobs
          SET status = 'pending', run_after = ${runAfter}, lease_until = NULL, claim_token = NULL
          WHERE message_id = ${messageId} AND claim_token = ${claimToken}
          RETURNING message_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      lockHeld: (messageId, claimToken) =>
        lean<{ readonly message_id: string }>`
          SELECT message_id FROM custom_ai_ask_jobs WHERE message_id = ${messageId} AND claim_token = ${claimToken}
          FOR UPDATE`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      lockForCustomAi: (workspaceId, customAiId) =>
        Effect.gen(function* () {
          // The Custom AI first: a question starting a chat with it waits; then its chats: one adding a question to
          // a chat waits (it updates the chat). Whichever committed first is in the jobs read last.
          yield* lean`SELECT id FROM custom_ais WHERE workspace_id = ${workspaceId} AND id = ${customAiId} FOR UPDATE`
          yield* lean`SELECT id FROM chats WHERE workspace_id = ${workspaceId} AND custom_ai_id = ${customAiId}
                      ORDER BY id FOR UPDATE`
          const rows = yield* lean<JobRow>`
            SELECT * FROM custom_ai_ask_jobs WHERE workspace_id = ${workspaceId} AND custom_ai_id = ${customAiId}
            ORDER BY message_id FOR UPDATE`
          return rows.map(toClaimed)
        }).pipe(Effect.orDie),
      find: (messageId) =>
        lean<JobRow>`SELECT * FROM custom_ai_ask_jobs WHERE message_id = ${messageId}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              status: row.status,
              attempts: row.attempts,
              runAfter: row.run_after
            }))
          ),
          Effect.orDie
        )
    }
  })
)
