import { withSpan } from "@svc/core/shared"
import { AskCallbackQueue, type AskCallbackStatus, type ClaimedAskCallback } from "@svc/core/webhooks"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface CallbackRow {
  readonly id: string
  readonly message_id: string
  readonly chat_id: string
  readonly account_id: string
  readonly workspace_id: string
  readonly custom_ai_id: string
  readonly callback_url: string
  readonly status: AskCallbackStatus
  readonly attempts: number
  readonly next_attempt_at: Date
  readonly last_error: string | null
  readonly claim_token: string | null
  readonly lease_until: Date | null
  readonly created_at: Date
}

const toClaimed = (row: CallbackRow): ClaimedAskCallback => ({
  id: row.id,
  messageId: row.message_id,
  chatId: row.chat_id,
  accountId: row.account_id,
  workspaceId: row.workspace_id,
  customAiId: row.custom_ai_id,
  callbackUrl: row.callback_url,
  createdAt: row.created_at,
  attempts: row.attempts,
  claimToken: row.claim_token ?? "",
  leaseUntil: row.lease_until ?? row.next_attempt_at
})

const held = (rows: ReadonlyArray<unknown>) => rows.length > 0

/**
 * `AskCallbackQueue` over SQL. A claim is one `UPDATE … RETURNING` over due rows locked with `SKIP LOCKED`, so the
 * workers of several instances on one PostgreSQL take different callbacks; each claim sets a lease (also the row's
 * `next_attempt_at`, so an expired lease makes it due again) and a fresh token, and only that token records an outcome.
 */
export const AskCallbackQueueSql = Layer.effect(
  AskCallbackQueue,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insert: (callback) =>
        lean`
          INSERT INTO ask_callbacks (id, message_id, chat_id, account_id, workspace_id, custom_ai_id, callback_url,
                                     status, next_attempt_at, created_at)
          VALUES (${callback.id}, ${callback.messageId}, ${callback.chatId}, ${callback.accountId},
                  ${callback.workspaceId}, ${callback.customAiId}, ${callback.callbackUrl}, 'pending',
                  ${callback.createdAt}, ${callback.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      claimDue: (claim, limit) =>
        lean<CallbackRow>`
          UPDATE ask_callbacks AS c
          SET status = 'sending', lease_until = ${claim.leaseUntil}, next_attempt_at = ${claim.leaseUntil},
              claim_token = ${claim.claimToken}
          FROM (
            SELECT id FROM ask_callbacks
            WHERE status IN ('pending', 'sending') AND next_attempt_at <= ${claim.now}
            ORDER BY next_attempt_at
            LIMIT ${limit}::int
            FOR UPDATE SKIP LOCKED
          ) AS due
          WHERE c.id = due.id
          RETURNING c.*`.pipe(
          Effect.map((rows) => rows.map(toClaimed)),
          Effect.orDie,
          withSpan("AskCallbackQueue.claimDue", { captureStackTrace: false })
        ),
      record: (id, claimToken, step) =>
        (step._tag === "later"
          ? lean<{ readonly id: string }>`
              UPDATE ask_callbacks
              SET status = 'pending', next_attempt_at = ${step.at}, attempts = ${step.attempts}::int,
                  last_error = ${step.lastError}, claim_token = NULL, lease_until = NULL
              WHERE id = ${id} AND claim_token = ${claimToken}
              RETURNING id`
          : lean<{ readonly id: string }>`
              UPDATE ask_callbacks
              SET status = ${step.status}, attempts = ${step.attempts}::int, last_error = ${step.lastError},
                  ended_at = ${step.at}, claim_token = NULL, lease_until = NULL
              WHERE id = ${id} AND claim_token = ${claimToken}
              RETURNING id`
        ).pipe(Effect.map(held), Effect.orDie),
      find: (id) =>
        lean<CallbackRow>`SELECT * FROM ask_callbacks WHERE id = ${id}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              status: row.status,
              attempts: row.attempts,
              nextAttemptAt: row.next_attempt_at,
              lastError: row.last_error
            }))
          ),
          Effect.orDie
        ),
      purgeEnded: (before) =>
        lean<{ readonly purged: number }>`
          WITH gone AS (DELETE FROM ask_callbacks WHERE ended_at < ${before} RETURNING id)
          SELECT count(*)::int AS purged FROM gone`.pipe(
          Effect.map((rows) => Number(rows[0]?.purged ?? 0)),
          Effect.orDie
        )
    }
  })
)
