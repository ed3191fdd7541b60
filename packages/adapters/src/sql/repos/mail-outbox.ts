import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Mailer } from "@svc/core"
import { Clock, Effect, Layer } from "effect"

/**
 * `Mailer` that records every message in `mail_outbox` (inside the sender's transaction, so a
 * rolled-back change sends nothing) and logs it. Delivery over SMTP drains the outbox later.
 */
export const MailerOutboxSql = Layer.effect(
  Mailer,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      send: (message) =>
        Effect.gen(function* () {
          const id = `mail_${randomUUID()}`
          const now = new Date(yield* Clock.currentTimeMillis)
          yield* sql`INSERT INTO mail_outbox (id, workspace_id, kind, recipient, subject, body, created_at)
                     VALUES (${id}, ${message.workspaceId}, ${message.kind}, ${message.to}, ${message.subject},
                             ${message.text}, ${now})`.pipe(Effect.orDie)
          yield* Effect.logInfo(`mail ${id} (${message.kind}) to ${message.to}: ${message.subject}`)
        })
    }
  })
)
