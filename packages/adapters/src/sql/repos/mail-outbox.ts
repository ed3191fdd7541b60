import { randomUUID } from "node:crypto"
import { Mailer, MailOutbox, type OutboxMessage, type OutboxStatus } from "@svc/core/mail"
import { pageOf, withSpan } from "@svc/core/shared"
import { Clock, Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

/**
 * `Mailer` that records every message in `mail_outbox` (inside the sender's transaction, so a rolled-back change
 * sends nothing) and logs it. The mail worker delivers it from there when SMTP is configured; without it the owner
 * reads it at `/settings/outbox`.
 */
export const MailerOutboxSql = Layer.effect(
  Mailer,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      send: (message) =>
        Effect.gen(function* () {
          const id = `mail_${randomUUID()}`
          const now = new Date(yield* Clock.currentTimeMillis)
          yield* lean`INSERT INTO mail_outbox (id, workspace_id, kind, recipient, subject, body, to_list, status,
                                               next_attempt_at, created_at)
                     VALUES (${id}, ${message.workspaceId}, ${message.kind}, ${message.to}, ${message.subject},
                             ${message.text}, ${message.toList === true}, 'pending', ${now}, ${now})`.pipe(Effect.orDie)
          yield* Effect.logInfo(`mail ${id} (${message.kind}) queued`)
        })
    }
  })
)

interface OutboxRow {
  readonly id: string
  readonly workspace_id: string
  readonly kind: string
  readonly recipient: string
  readonly subject: string
  readonly body: string
  readonly to_list: boolean
  readonly status: OutboxStatus
  readonly attempts: number
  readonly last_error: string | null
  readonly claim_token: string | null
  readonly lease_until: Date | null
  readonly next_attempt_at: Date
  readonly created_at: Date
  readonly sent_at: Date | null
}

const toMessage = (row: OutboxRow): OutboxMessage => ({
  id: row.id,
  workspaceId: row.workspace_id,
  kind: row.kind,
  to: row.recipient,
  subject: row.subject,
  text: row.body,
  toList: row.to_list,
  status: row.status,
  attempts: Number(row.attempts),
  lastError: row.last_error,
  createdAt: row.created_at,
  sentAt: row.sent_at
})

const held = (rows: ReadonlyArray<unknown>) => rows.length > 0

/**
 * `MailOutbox` over SQL. A claim is one `UPDATE … RETURNING` over due rows locked with `SKIP LOCKED`, so the workers
 * of several instances on one PostgreSQL take different messages; each claim sets a lease (also the row's
 * `next_attempt_at`, so an expired lease makes it due again) and a fresh token, and only that token records an
 * outcome.
 */
export const MailOutboxSql = Layer.effect(
  MailOutbox,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      claimDue: (claim, limit) =>
        lean<OutboxRow>`
          UPDATE mail_outbox AS m
          SET lease_until = ${claim.leaseUntil}, next_attempt_at = ${claim.leaseUntil}, claim_token = ${claim.claimToken}
          FROM (
            SELECT id FROM mail_outbox
            WHERE status = 'pending' AND next_attempt_at <= ${claim.now}
            ORDER BY next_attempt_at
            LIMIT ${limit}::int
            FOR UPDATE SKIP LOCKED
          ) AS due
          WHERE m.id = due.id
          RETURNING m.*`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              ...toMessage(row),
              claimToken: row.claim_token ?? "",
              leaseUntil: row.lease_until ?? row.next_attempt_at
            }))
          ),
          Effect.orDie,
          withSpan("MailOutbox.claimDue", { captureStackTrace: false })
        ),
      record: (id, claimToken, step) =>
        (step._tag === "later"
          ? lean<{ readonly id: string }>`
              UPDATE mail_outbox
              SET next_attempt_at = ${step.at}, attempts = ${step.attempts}::int, last_error = ${step.lastError},
                  claim_token = NULL, lease_until = NULL
              WHERE id = ${id} AND claim_token = ${claimToken} AND status = 'pending'
              RETURNING id`
          : lean<{ readonly id: string }>`
              UPDATE mail_outbox
              SET status = ${step._tag}, attempts = ${step.attempts}::int,
                  last_error = ${step._tag === "failed" ? step.lastError : null},
                  sent_at = ${step._tag === "sent" ? step.at : null}, claim_token = NULL, lease_until = NULL
              WHERE id = ${id} AND claim_token = ${claimToken} AND status = 'pending'
              RETURNING id`
        ).pipe(Effect.map(held), Effect.orDie),
      find: (id) =>
        lean<OutboxRow>`SELECT * FROM mail_outbox WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toMessage)),
          Effect.orDie
        ),
      purgeBefore: (cutoff, limit) =>
        lean<{ readonly id: string }>`
          DELETE FROM mail_outbox WHERE id IN (
            SELECT id FROM mail_outbox WHERE created_at < ${cutoff} AND claim_token IS NULL
            ORDER BY created_at LIMIT ${limit}::int
          ) RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      listForOwner: (accountId, page) =>
        (page.after === undefined
          ? lean<OutboxRow>`
              SELECT m.* FROM mail_outbox m JOIN workspaces w ON w.id = m.workspace_id
              WHERE w.owner_id = ${accountId}
              ORDER BY m.created_at DESC, m.id DESC
              LIMIT ${page.limit + 1}::int`
          : lean<OutboxRow>`
              SELECT m.* FROM mail_outbox m JOIN workspaces w ON w.id = m.workspace_id
              WHERE w.owner_id = ${accountId} AND (m.created_at, m.id) < (${page.after.createdAt}::timestamptz, ${page.after.id}::text)
              ORDER BY m.created_at DESC, m.id DESC
              LIMIT ${page.limit + 1}::int`
        ).pipe(
          Effect.map((rows) => pageOf(rows.map(toMessage), page.limit)),
          Effect.orDie,
          withSpan("MailOutbox.listForOwner")
        )
    }
  })
)
