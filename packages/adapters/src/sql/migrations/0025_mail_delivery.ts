import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // Delivery state of each message, held as the ask callbacks' is: `next_attempt_at` is when it may be claimed (its
  // next try while waiting, its lease's end while held), so one index finds every due message. A held message stays
  // `pending`; `claim_token` says who holds it, and only that token records the outcome.
  "ALTER TABLE mail_outbox ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed'))",
  "ALTER TABLE mail_outbox ADD COLUMN to_list boolean NOT NULL DEFAULT false",
  "ALTER TABLE mail_outbox ADD COLUMN attempts integer NOT NULL DEFAULT 0",
  "ALTER TABLE mail_outbox ADD COLUMN next_attempt_at timestamptz",
  "ALTER TABLE mail_outbox ADD COLUMN claim_token text",
  "ALTER TABLE mail_outbox ADD COLUMN lease_until timestamptz",
  "ALTER TABLE mail_outbox ADD COLUMN last_error text",
  // Messages queued before delivery existed were only ever written to the log; that was their delivery. Sending them
  // now, possibly months late (access emails, notices about webhooks since turned back on), would mislead, so they
  // count as sent when they were queued.
  "UPDATE mail_outbox SET status = 'sent', sent_at = created_at, next_attempt_at = created_at",
  "ALTER TABLE mail_outbox ALTER COLUMN next_attempt_at SET NOT NULL",
  "CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending'"
]

/** Delivery of the mail outbox: status, tries, leases and the list-mail flag. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
