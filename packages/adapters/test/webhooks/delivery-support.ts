/**
 * The delivery engine on the real test database with a recording fake of the outside world (`HttpSender`):
 * webhooks are rows with a secret sealed by the real `WebhookSecrets`, events go through the real `EventLog`.
 */
import { SqlClient } from "@effect/sql"
import { EventLog } from "@svc/core/events"
import { Transactor } from "@svc/core/shared"
import { HttpSender, type OutgoingRequest, SendFailed, type SendOutcome, WebhookSecrets } from "@svc/core/webhooks"
import { Clock, Effect, Layer } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"

/** What the fake receiver answers: a status (with headers and body) or a send failure. */
export type FakeAnswer =
  | {
      readonly status: number
      readonly headers?: Record<string, string>
      readonly body?: string
      /** The answer comes only once this has completed: a send held in flight. */
      readonly after?: Effect.Effect<void>
    }
  | { readonly fail: SendFailed["reason"] }
  | { readonly die: string }

/** The fake outside world of one test file: every request it was sent, and what it answers now. */
export const receiver = {
  sent: [] as Array<OutgoingRequest & { readonly at: number }>,
  answer: ((): FakeAnswer => ({ status: 200 })) as (request: OutgoingRequest) => FakeAnswer
}

/** Requests sent to one address. */
export const sentTo = (url: string) => receiver.sent.filter((request) => request.url === url)

const FakeSenderLive = Layer.succeed(HttpSender, {
  send: (request) =>
    Effect.flatMap(Clock.currentTimeMillis, (at) => {
      receiver.sent.push({ ...request, at })
      const answer = receiver.answer(request)
      if ("die" in answer) return Effect.dieMessage(answer.die)
      if ("fail" in answer) {
        return Effect.fail(new SendFailed({ reason: answer.fail, message: "fake failure", durationMs: 1 }))
      }
      return Effect.as(answer.after ?? Effect.void, {
        status: answer.status,
        headers: answer.headers ?? {},
        body: answer.body ?? "",
        bodyTruncated: false,
        durationMs: 3,
        address: "203.0.113.7"
      } satisfies SendOutcome)
    })
})

/** The core on the test database; the fake sender, merged last, replaces the real one for the delivery engine. */
export const deliveryTestLayer = () => Layer.merge(testCoreLayer(), FakeSenderLive)

let webhookCounter = 0

/**
 * A new account with one webhook, by default the only enabled one in the database (so tests never see each
 * other's deliveries); `alongside` keeps the others on.
 */
export const setUpWebhook = (options: { readonly events?: ReadonlyArray<string>; readonly alongside?: boolean } = {}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const secrets = yield* WebhookSecrets
    const { account, workspace } = yield* signUp()
    if (options.alongside !== true)
      yield* sql`UPDATE webhooks SET enabled = false, disabled_reason = 'owner' WHERE enabled`
    webhookCounter += 1
    const id = `wh_test${webhookCounter}`
    const url = `https://hooks${webhookCounter}.example.com/in`
    const secret = yield* secrets.generate
    const now = new Date(yield* Clock.currentTimeMillis)
    yield* sql`INSERT INTO webhooks (id, workspace_id, url, events, enabled, secret_sealed, created_at, updated_at)
               VALUES (${id}, ${workspace.id}, ${url}, ${JSON.stringify(options.events ?? ["*"])}::jsonb, true,
                       ${yield* secrets.seal(secret)}, ${now}, ${now})`
    return { id, url, secret, workspaceId: workspace.id, email: account.email }
  })

let eventCounter = 0

/** Appends an event (now, by the clock) through the real event log; answers its id. */
export const emit = (workspaceId: string, type = "purchase.created") =>
  Effect.gen(function* () {
    eventCounter += 1
    const id = `evt_test${eventCounter}_${Date.now().toString(36)}`
    const createdAt = new Date(yield* Clock.currentTimeMillis)
    const log = yield* EventLog
    yield* (yield* Transactor).withTransaction(
      log.append({ id, workspaceId, type, createdAt, data: { n: eventCounter } })
    )
    return id
  })

/** The stored state of the delivery of an event to a webhook. */
export const deliveryOf = (webhookId: string, eventId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      readonly id: string
      readonly status: string
      readonly attempts: number
      readonly next_attempt_at: Date
      readonly claim_token: string | null
      readonly finished_at: Date | null
    }>`SELECT id, status, attempts, next_attempt_at, claim_token, finished_at FROM webhook_deliveries
       WHERE webhook_id = ${webhookId} AND event_id = ${eventId}`
    return rows[0]
  })

/** The attempts of a delivery, oldest first. */
export const attemptsOf = (deliveryId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{
      readonly attempt: number
      readonly outcome: string
      readonly response_code: number | null
      readonly location: string | null
      readonly error: string | null
      readonly trigger: string
      readonly attempted_at: Date
    }>`SELECT attempt, outcome, response_code, location, error, trigger, attempted_at FROM webhook_attempts
       WHERE delivery_id = ${deliveryId} ORDER BY attempted_at, attempt`
  )

/** The webhook row's delivery state. */
export const webhookState = (webhookId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly enabled: boolean; readonly disabled_reason: string | null; readonly failing_since: Date | null }>`
      SELECT enabled, disabled_reason, failing_since FROM webhooks WHERE id = ${webhookId}`.pipe(
      Effect.map((rows) => rows[0])
    )
  )

/** Emails the outbox holds of a kind for a workspace. */
export const mailsOf = (workspaceId: string, kind: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ readonly recipient: string; readonly subject: string; readonly body: string }>`
      SELECT recipient, subject, body FROM mail_outbox WHERE workspace_id = ${workspaceId} AND kind = ${kind}`
  )

/** Turns a webhook back on, as the owner's PATCH does (the failing clock starts over). */
export const reenable = (webhookId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`UPDATE webhooks SET enabled = true, disabled_reason = NULL, failing_since = NULL
                 WHERE id = ${webhookId}`
  )
