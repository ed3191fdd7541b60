import {
  type AutoDmSend,
  AutoDmWorkRepo,
  type ClaimedInbox,
  type ClaimedSend,
  type Engagement,
  type MessageChannel,
  type SendStatus
} from "@svc/core/auto-dm"
import { withSpan } from "@svc/core/shared"
import { Effect, Layer } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"

interface InboxRow {
  readonly account_id: string
  readonly cursor: string | null
  readonly next_poll_at: Date
  readonly claim_token: string
  readonly lease_until: Date
}

interface SendRow {
  readonly id: string
  readonly rule_id: string
  readonly workspace_id: string
  readonly account_id: string
  readonly person_id: string
  readonly person_handle: string
  readonly trigger: unknown
  readonly text: string
  readonly status: SendStatus
  readonly attempts: number
  readonly next_attempt_at: Date | null
  readonly claim_token: string | null
  readonly lease_until: Date | null
  readonly tried_channels: unknown
  readonly channel: MessageChannel | null
  readonly remote_id: string | null
  readonly error: string | null
  readonly sent_at: Date | null
  readonly created_at: Date
}

/** The trigger as stored: the engagement with its time as text. */
const toEngagement = (value: unknown): Engagement => {
  const stored = jsonColumn(value) as Omit<Engagement, "at"> & { readonly at: string }
  return { ...stored, at: new Date(stored.at) }
}

const toSend = (row: SendRow): AutoDmSend => ({
  id: row.id,
  ruleId: row.rule_id,
  workspaceId: row.workspace_id,
  accountId: row.account_id,
  personId: row.person_id,
  personHandle: row.person_handle,
  trigger: toEngagement(row.trigger),
  text: row.text,
  status: row.status,
  attempts: Number(row.attempts),
  nextAttemptAt: row.next_attempt_at,
  triedChannels: jsonColumn(row.tried_channels) as ReadonlyArray<MessageChannel>,
  channel: row.channel,
  remoteId: row.remote_id,
  error: row.error,
  sentAt: row.sent_at,
  createdAt: row.created_at
})

const toClaimed = (row: SendRow): ClaimedSend => ({
  ...toSend(row),
  claimToken: row.claim_token ?? "",
  leaseUntil: row.lease_until ?? new Date(0)
})

/**
 * `AutoDmWorkRepo` over SQL: inboxes and sends are claimed with `FOR UPDATE SKIP LOCKED`, a token and a lease, so
 * any number of instances sharing one database read each inbox and send each message once.
 */
export const AutoDmWorkRepoSql = Layer.effect(
  AutoDmWorkRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      claimInboxes: (claim, limit) =>
        lean<InboxRow>`
          UPDATE auto_dm_inboxes AS i
          SET claim_token = ${claim.claimToken}, lease_until = ${claim.leaseUntil}
          FROM (
            SELECT account_id FROM auto_dm_inboxes AS d
            WHERE d.next_poll_at <= ${claim.now}
              AND (d.lease_until IS NULL OR d.lease_until <= ${claim.now})
              AND EXISTS (SELECT 1 FROM auto_dm_rules r WHERE r.account_id = d.account_id AND r.enabled)
            ORDER BY d.next_poll_at
            LIMIT ${limit}::int
            FOR UPDATE SKIP LOCKED
          ) AS due
          WHERE i.account_id = due.account_id
          RETURNING i.account_id, i.cursor, i.next_poll_at, i.claim_token, i.lease_until`.pipe(
          Effect.map((rows) =>
            rows.map(
              (row): ClaimedInbox => ({
                accountId: row.account_id,
                cursor: row.cursor,
                nextPollAt: row.next_poll_at,
                claimToken: row.claim_token,
                leaseUntil: row.lease_until
              })
            )
          ),
          Effect.orDie,
          withSpan("AutoDmWorkRepo.claimInboxes", { captureStackTrace: false })
        ),
      recordInbox: (accountId, claimToken, state) =>
        lean<{ readonly account_id: string }>`
          UPDATE auto_dm_inboxes SET cursor = ${state.cursor}, next_poll_at = ${state.nextPollAt},
            error = ${state.error}, polled_at = now(), claim_token = NULL, lease_until = NULL
          WHERE account_id = ${accountId} AND claim_token = ${claimToken}
          RETURNING account_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      insertSends: (sends) =>
        Effect.reduce(sends, 0, (added, s) =>
          lean<{ readonly id: string }>`
            INSERT INTO auto_dm_sends (id, rule_id, workspace_id, account_id, person_id, person_handle, trigger, text,
                                       status, attempts, next_attempt_at, created_at)
            SELECT ${s.id}, ${s.ruleId}, ${s.workspaceId}, ${s.accountId}, ${s.personId}, ${s.personHandle},
                   ${JSON.stringify({ ...s.trigger, at: s.trigger.at.toISOString() })}::jsonb, ${s.text}, ${s.status},
                   ${s.attempts}, ${s.nextAttemptAt}, ${s.createdAt}
            WHERE EXISTS (SELECT 1 FROM auto_dm_rules WHERE id = ${s.ruleId})
            ON CONFLICT (rule_id, person_id) DO NOTHING
            RETURNING id`.pipe(Effect.map((rows) => added + rows.length))
        ).pipe(Effect.orDie, withSpan("AutoDmWorkRepo.insertSends")),
      claimSends: (claim, limit) =>
        lean<SendRow>`
          UPDATE auto_dm_sends AS s
          SET claim_token = ${claim.claimToken}, lease_until = ${claim.leaseUntil}, attempts = s.attempts + 1
          FROM (
            SELECT id FROM auto_dm_sends
            WHERE status = 'pending' AND next_attempt_at <= ${claim.now}
              AND (lease_until IS NULL OR lease_until <= ${claim.now})
            ORDER BY next_attempt_at
            LIMIT ${limit}::int
            FOR UPDATE SKIP LOCKED
          ) AS due
          WHERE s.id = due.id
          RETURNING s.*`.pipe(
          Effect.map((rows) => rows.map(toClaimed)),
          Effect.orDie,
          withSpan("AutoDmWorkRepo.claimSends", { captureStackTrace: false })
        ),
      markTried: (id, claimToken, channels) =>
        lean<{ readonly id: string }>`
          UPDATE auto_dm_sends SET tried_channels = ${JSON.stringify(channels)}::jsonb
          WHERE id = ${id} AND claim_token = ${claimToken}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      holdsSend: (id, claimToken, now) =>
        lean<{ readonly id: string }>`SELECT id FROM auto_dm_sends
                                      WHERE id = ${id} AND claim_token = ${claimToken} AND lease_until > ${now}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      recordSend: (id, claimToken, r) =>
        lean<{ readonly id: string }>`
          WITH recorded AS (
            UPDATE auto_dm_sends SET status = ${r.status}, attempts = ${r.attempts},
              next_attempt_at = ${r.nextAttemptAt}, channel = ${r.channel}, remote_id = ${r.remoteId},
              error = ${r.error}, sent_at = ${r.sentAt}, claim_token = NULL, lease_until = NULL
            WHERE id = ${id} AND claim_token = ${claimToken}
            RETURNING id, rule_id, status
          ), counted AS (
            UPDATE auto_dm_rules SET
              sent_count = sent_count + (SELECT count(*) FROM recorded WHERE status = 'sent'),
              failed_count = failed_count + (SELECT count(*) FROM recorded WHERE status = 'failed')
            WHERE id IN (SELECT rule_id FROM recorded WHERE status IN ('sent', 'failed'))
          )
          SELECT id FROM recorded`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      sendsOf: (ruleId) =>
        lean<SendRow>`SELECT * FROM auto_dm_sends WHERE rule_id = ${ruleId} ORDER BY created_at, id`.pipe(
          Effect.map((rows) => rows.map(toSend)),
          Effect.orDie
        )
    }
  })
)
