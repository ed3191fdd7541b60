import { expect, layer } from "@effect/vitest"
import { WEBHOOK_EVENT_TYPES } from "@svc/core/webhooks"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import {
  createWebhook,
  expectedSignature,
  query,
  type Received,
  receiver,
  request,
  signaturesOf,
  WebhookTest,
  webhookOf
} from "./support.js"

const envelopeOf = (got: Received) =>
  JSON.parse(got.body) as {
    id: string
    type: string
    created_at: string
    store: { handle: string }
    data: Record<string, unknown>
  }

layer(WebhookTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `webhook test sends and secret rolls (${engineName})`,
  (it) => {
    it.scoped("a test sends a signed sample now and answers delivered, code and response; nothing is stored", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const target = yield* receiver(() => ({ status: 200, body: "thanks" }))
        const webhook = yield* createWebhook(t.call, s.token, { url: target.url, events: ["customer.created"] })
        // No body at all, as `curl -X POST` sends.
        const answer = yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`)
        expect(answer.status).toBe(200)
        expect(answer.body).toMatchObject({
          ok: true,
          delivered: true,
          outcome: "delivered",
          response_code: 200,
          response: "thanks"
        })
        expect(answer.body.error).toBeUndefined()
        expect(target.got).toHaveLength(1)
        const got = target.got[0] as Received
        const envelope = envelopeOf(got)
        expect(envelope.id).toBe(answer.body.event_id)
        expect(envelope.id).toMatch(/^evt_test_/)
        expect(envelope.type).toBe("purchase.created")
        expect(envelope.store).toEqual({ handle: s.handle })
        expect(envelope.data).toMatchObject({
          product_id: expect.any(String),
          amount_cents: expect.any(Number),
          currency: "usd"
        })
        expect(got.headers["content-type"]).toBe("application/json")
        expect(got.headers["x-svc-event"]).toBe("purchase.created")
        expect(got.headers["x-svc-event-id"]).toBe(envelope.id)
        expect(got.headers["user-agent"]).toBeTruthy()
        expect(Math.abs(Number(got.headers["x-svc-timestamp"]) - Date.now())).toBeLessThan(60_000)
        expect(signaturesOf(got)).toEqual([expectedSignature(webhook.secret, got)])

        const stored = yield* query(
          t,
          (sql) => sql`SELECT id FROM events WHERE id = ${envelope.id}
                                                   UNION ALL SELECT id FROM webhook_deliveries
                                                   WHERE workspace_id = ${s.workspaceId}`
        )
        expect(stored).toHaveLength(0)
        expect((yield* request(t.call, s.token, "GET", `/webhooks/${webhook.id}/deliveries`)).body.data).toEqual([])
      })
    )

    it.scoped("a test sends a sample of any event type; an unknown type is refused with 422", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const target = yield* receiver()
        const webhook = yield* createWebhook(t.call, s.token, { url: target.url, events: ["*"] })
        for (const type of WEBHOOK_EVENT_TYPES) {
          const answer = yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, { type })
          expect(answer.body, type).toMatchObject({ ok: true, delivered: true })
        }
        const types = target.got.map((got) => envelopeOf(got).type)
        expect(types).toEqual([...WEBHOOK_EVENT_TYPES])
        for (const got of target.got) {
          expect(Object.keys(envelopeOf(got).data).length).toBeGreaterThan(3)
          expect(got.headers["x-svc-event"]).toBe(envelopeOf(got).type)
        }
        const cohort = envelopeOf(target.got.find((g) => envelopeOf(g).type === "cohort_signup.created") as Received)
        expect(cohort.data).toMatchObject({ cohort_id: expect.any(String), email: expect.any(String) })
        const bad = yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, { type: "sale.made" })
        expect(bad.status).toBe(422)
        expect(bad.body.message).toContain('"sale.made"')
        const extra = yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, { kind: "x" })
        expect(extra.status).toBe(422)
        const broken = yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, "{")
        expect(broken.status).toBe(400)
        expect(target.got).toHaveLength(WEBHOOK_EVENT_TYPES.length)
      })
    )

    it.scoped("a failed test reports what happened and leaves the webhook as it was (even a 410)", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const gone = yield* receiver(() => ({ status: 410, body: "no such hook" }))
        const webhook = yield* createWebhook(t.call, s.token, { url: gone.url, events: ["*"] })
        const answer = yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, {})
        expect(answer.body).toMatchObject({
          ok: true,
          delivered: false,
          outcome: "gone",
          response_code: 410,
          response: "no such hook",
          error: "HTTP 410"
        })
        const failing = yield* receiver(() => ({ status: 500, body: "boom" }))
        yield* request(t.call, s.token, "PATCH", `/webhooks/${webhook.id}`, { url: failing.url })
        const five = yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, {})
        expect(five.body).toMatchObject({ delivered: false, response_code: 500, response: "boom" })
        // Nothing listens on port 9 (discard) on loopback: nothing is answered.
        yield* request(t.call, s.token, "PATCH", `/webhooks/${webhook.id}`, { url: "http://127.0.0.1:9/x" })
        const refused = yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, {})
        expect(refused.body).toMatchObject({ ok: true, delivered: false, response_code: null, response: null })
        expect(refused.body.error).toMatch(/^connect: /)
        const after = webhookOf(yield* request(t.call, s.token, "GET", `/webhooks/${webhook.id}`))
        expect(after).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null })
      })
    )

    it.scoped("roll-secret without a grace period: the new secret signs alone at once", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const target = yield* receiver()
        const webhook = yield* createWebhook(t.call, s.token, { url: target.url, events: ["*"] })
        const rolled = yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/roll-secret`)
        expect(rolled.status).toBe(200)
        expect(rolled.body.previous_secret_expires_at).toBeNull()
        const secret = webhookOf(rolled).secret as string
        expect(secret).toMatch(/^whsec_/)
        expect(secret).not.toBe(webhook.secret)
        expect(webhookOf(rolled)).toMatchObject({ id: webhook.id, url: target.url, enabled: true })
        expect(JSON.stringify((yield* request(t.call, s.token, "GET", `/webhooks/${webhook.id}`)).body)).not.toContain(
          "whsec_"
        )
        yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, {})
        const got = target.got[0] as Received
        expect(signaturesOf(got)).toEqual([expectedSignature(secret, got)])
        expect(signaturesOf(got)).not.toContain(expectedSignature(webhook.secret, got))
      })
    )

    it.scoped("roll-secret with grace_seconds: both secrets sign (new first) until the grace period ends", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const target = yield* receiver()
        const webhook = yield* createWebhook(t.call, s.token, { url: target.url, events: ["*"] })
        const path = `/webhooks/${webhook.id}/roll-secret`
        for (const grace_seconds of [-1, 86_401, 1.5, "60"]) {
          const bad = yield* request(t.call, s.token, "POST", path, { grace_seconds })
          expect(bad.status, String(grace_seconds)).toBe(422)
          expect(bad.body.error).toBe("invalid_field")
        }
        const before = Date.now()
        const rolled = yield* request(t.call, s.token, "POST", path, { grace_seconds: 3600 })
        expect(rolled.status).toBe(200)
        const until = Date.parse(rolled.body.previous_secret_expires_at as string)
        expect(until).toBeGreaterThanOrEqual(before + 3_600_000)
        expect(until).toBeLessThanOrEqual(Date.now() + 3_600_000)
        const second = webhookOf(rolled).secret as string

        yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, {})
        const during = target.got[0] as Received
        expect(during.headers["x-svc-signature"]).toMatch(/^sha256=[0-9a-f]{64}, sha256=[0-9a-f]{64}$/)
        expect(signaturesOf(during)).toEqual([
          expectedSignature(second, during),
          expectedSignature(webhook.secret, during)
        ])

        // Rolling again inside the grace period: the secret just replaced signs along, the oldest stops.
        const third = webhookOf(yield* request(t.call, s.token, "POST", path, { grace_seconds: 60 })).secret as string
        yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, {})
        const again = target.got[1] as Received
        expect(signaturesOf(again)).toEqual([expectedSignature(third, again), expectedSignature(second, again)])

        // Once the grace period is over, only the current secret signs.
        yield* query(
          t,
          (sql) => sql`UPDATE webhooks SET previous_secret_until = ${new Date(Date.now() - 1000)}
                                     WHERE id = ${webhook.id}`
        )
        yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, {})
        const after = target.got[2] as Received
        expect(signaturesOf(after)).toEqual([expectedSignature(third, after)])

        // A roll without grace drops the previous secret at once.
        const fourth = webhookOf(yield* request(t.call, s.token, "POST", path, { grace_seconds: 0 })).secret as string
        const [row] = yield* query(
          t,
          (sql) => sql<{ previous_secret_sealed: string | null }>`
          SELECT previous_secret_sealed FROM webhooks WHERE id = ${webhook.id}`
        )
        expect(row?.previous_secret_sealed).toBeNull()
        yield* request(t.call, s.token, "POST", `/webhooks/${webhook.id}/test`, {})
        const last = target.got[3] as Received
        expect(signaturesOf(last)).toEqual([expectedSignature(fourth, last)])
      })
    )
  }
)
