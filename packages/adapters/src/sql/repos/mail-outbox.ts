import { randomUUID } from "node:crypto"
import { Mailer } from "@svc/core/mail"
import { Clock, Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"

/**
 * `Mailer` that records every message in `mail_outbox` (inside the sender's transaction, so a
 * rolled-back change sends nothing) and logs it. Delivery over SMTP drains the outbox later.
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
          yield* lean`INSERT INTO mail_outbox (id, workspace_id, kind, recipient, subject, body, created_at)
                     VALUES (${id}, ${message.workspaceId}, ${message.kind}, ${message.to}, ${message.subject},
                             ${message.text}, ${now})`.pipe(Effect.orDie)
          yield* Effect.logInfo(`mail ${id} (${message.kind}) to ${message.to}: ${message.subject}`)
        })
    }
  })
)
