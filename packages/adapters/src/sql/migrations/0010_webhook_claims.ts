import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  // The open deliveries of each webhook, in due order. A claim visits webhooks one by one and takes a few due
  // deliveries of each (the per-webhook cap keeps one backlog from starving the others); without this index
  // each visit would walk the webhook's whole 30-day history of finished deliveries.
  "CREATE INDEX webhook_deliveries_open ON webhook_deliveries (webhook_id, next_attempt_at) WHERE status IN ('pending', 'sending')",
  // What each webhook has in flight, counted against its cap on every claim, even behind a large backlog.
  "CREATE INDEX webhook_deliveries_sending ON webhook_deliveries (webhook_id) WHERE status = 'sending'"
]

/** Indexes for claiming webhook deliveries fairly across webhooks. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
