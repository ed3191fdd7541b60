import { expect, layer } from "@effect/vitest"
import { DEFAULT_DELIVERY_WORKER, deliverDue } from "@svc/core/webhooks"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { createWebhook, query, type Received, receiver, request, WebhookTest } from "./support.js"

const url = "https://hooks.example.com/log"

interface DeliveryRow {
  readonly id: string
  readonly event_id: string
  readonly event_type: string
  readonly status: string
  readonly attempts: number
  readonly trigger: string
  readonly next_attempt_at: Date
  readonly claim_token: string | null
  readonly lease_until: Date | null
  readonly finished_at: Date | null
}

const deliveriesOf = (t: WebhookTest["Type"], webhookId: string) =>
  query(
    t,
    (sql) => sql<DeliveryRow>`SELECT id, event_id, event_type, status, attempts, trigger, next_attempt_at,
                                            claim_token, lease_until, finished_at
                                     FROM webhook_deliveries WHERE webhook_id = ${webhookId} ORDER BY event_type`
  )

/** Records a sale through the store API: its `purchase.created` (and `customer.created` for a new buyer). */
const sale = (t: WebhookTest["Type"], token: string, product: string, email: string) =>
  Effect.flatMap(request(t.call, token, "POST", "/sales", { event: "sale", product, email }), (answer) =>
    answer.body.ok === true ? Effect.void : Effect.dieMessage(JSON.stringify(answer.body))
  )

layer(WebhookTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `webhook delivery log, resend and events (${engineName})`,
  (it) => {
    it.effect("lists every attempt newest first with its delivery's state, paged like the other lists", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const webhook = yield* createWebhook(t.call, s.token, { url, events: ["purchase.created"] })
        yield* sale(t, s.token, yield* s.productId(), "log@example.com")
        const [delivery] = yield* deliveriesOf(t, webhook.id)
        expect(delivery).toBeDefined()
        const id = delivery?.id ?? ""
        // Three tries as the delivery worker records them: two failures, then a success.
        const base = Date.now() - 3_600_000
        const tries = [
          { n: 1, outcome: "http_error", code: 500, response: "boom", location: null, error: "HTTP 500" },
          {
            n: 2,
            outcome: "redirect",
            code: 302,
            response: "",
            location: "https://elsewhere.example.com",
            error: "redirect"
          },
          { n: 3, outcome: "delivered", code: 200, response: "ok", location: null, error: null }
        ]
        for (const a of tries) {
          yield* query(
            t,
            (sql) => sql`INSERT INTO webhook_attempts (id, delivery_id, webhook_id, attempt, trigger, outcome,
                                         response_code, latency_ms, response, location, error, attempted_at)
                                       VALUES (${`att_${a.n}_${id}`}, ${id}, ${webhook.id}, ${a.n}, 'scheduled', ${a.outcome},
                                         ${a.code}, ${40 + a.n}, ${a.response}, ${a.location}, ${a.error},
                                         ${new Date(base + a.n * 60_000)})`
          )
        }
        yield* query(t, (sql) => sql`UPDATE webhook_deliveries SET status = 'done', attempts = 3 WHERE id = ${id}`)

        const path = `/webhooks/${webhook.id}/deliveries`
        const first = yield* request(t.call, s.token, "GET", `${path}?limit=2`)
        expect(first.status).toBe(200)
        expect(first.body.has_more).toBe(true)
        const rows = first.body.data as ReadonlyArray<Record<string, unknown>>
        expect(rows.map((r) => r.attempt)).toEqual([3, 2])
        expect(rows[0]).toEqual({
          id: `att_3_${id}`,
          delivery_id: id,
          event_id: delivery?.event_id,
          event_type: "purchase.created",
          attempt: 3,
          trigger: "scheduled",
          outcome: "delivered",
          response_code: 200,
          latency_ms: 43,
          response: "ok",
          location: null,
          error: null,
          attempted_at: new Date(base + 180_000).toISOString(),
          status: "done",
          next_attempt_at: null
        })
        expect(rows[1]).toMatchObject({
          outcome: "redirect",
          response_code: 302,
          location: "https://elsewhere.example.com"
        })
        const second = yield* request(
          t.call,
          s.token,
          "GET",
          `${path}?limit=2&starting_after=${first.body.next_cursor}`
        )
        expect((second.body.data as ReadonlyArray<{ attempt: number }>).map((r) => r.attempt)).toEqual([1])
        // The last page still points after its last row, so a poller can keep the cursor and continue later.
        expect(second.body).toMatchObject({ has_more: false, next_cursor: expect.any(String) })
        const later = yield* request(t.call, s.token, "GET", `${path}?starting_after=${second.body.next_cursor}`)
        expect(later.body).toEqual({ ok: true, data: [], has_more: false, next_cursor: second.body.next_cursor })
        const ranged = yield* request(t.call, s.token, "GET", `${path}?created_after=${base + 90_000}`)
        expect((ranged.body.data as ReadonlyArray<{ attempt: number }>).map((r) => r.attempt)).toEqual([3, 2])

        for (const bad of ["limit=0", "limit=101", "starting_after=nope", "created_after=soon", "status=done"]) {
          const answer = yield* request(t.call, s.token, "GET", `${path}?${bad}`)
          expect(answer.status, bad).toBe(400)
          expect(answer.body.error).toBe("bad_request")
        }
        expect((yield* request(t.call, s.token, "GET", "/webhooks/wh_nope/deliveries")).status).toBe(404)
      })
    )

    it.scoped("resend puts a delivery back in the queue now, and the worker sends it again as a resend", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const target = yield* receiver(() => ({ status: 204 }))
        const webhook = yield* createWebhook(t.call, s.token, { url: target.url, events: ["purchase.created"] })
        yield* sale(t, s.token, yield* s.productId(), "again@example.com")
        const [delivery] = yield* deliveriesOf(t, webhook.id)
        const id = delivery?.id ?? ""
        // As the worker leaves a delivery that has given up.
        yield* query(
          t,
          (sql) => sql`UPDATE webhook_deliveries SET status = 'failed', attempts = 8,
                                       finished_at = ${new Date()}, next_attempt_at = ${new Date(Date.now() - 86_400_000)}
                                     WHERE id = ${id}`
        )
        const before = Date.now()
        const resent = yield* request(t.call, s.token, "POST", `/deliveries/${id}/resend`)
        expect(resent.status).toBe(200)
        expect(resent.body).toMatchObject({
          ok: true,
          delivery: { id, webhook_id: webhook.id, event_id: delivery?.event_id, status: "pending" }
        })
        const [queued] = yield* deliveriesOf(t, webhook.id)
        expect(queued).toMatchObject({
          status: "pending",
          attempts: 0,
          trigger: "resend",
          claim_token: null,
          finished_at: null
        })
        expect(queued?.next_attempt_at.getTime()).toBeGreaterThanOrEqual(before - 5)
        expect(queued?.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now())

        // The delivery worker picks it up: the stored body goes out again, logged as a resend.
        const claimed = yield* t.run(deliverDue({ ...DEFAULT_DELIVERY_WORKER, concurrency: 4 }))
        expect(claimed).toBe(1)
        expect(target.got).toHaveLength(1)
        const [stored] = yield* query(
          t,
          (sql) => sql<{ body: string }>`SELECT body FROM events
                                                                   WHERE id = ${delivery?.event_id ?? ""}`
        )
        expect((target.got[0] as Received).body).toBe(stored?.body)
        const log = yield* request(t.call, s.token, "GET", `/webhooks/${webhook.id}/deliveries`)
        expect(log.body.data).toEqual([
          expect.objectContaining({
            delivery_id: id,
            attempt: 1,
            trigger: "resend",
            outcome: "delivered",
            response_code: 204,
            status: "done"
          })
        ])
      })
    )

    it.effect("resends by the id a delivery log row shows, on every row of the log", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const webhook = yield* createWebhook(t.call, s.token, { url, events: ["purchase.created"] })
        yield* sale(t, s.token, yield* s.productId(), "shown@example.com")
        const [delivery] = yield* deliveriesOf(t, webhook.id)
        const id = delivery?.id ?? ""
        const base = Date.now() - 3_600_000
        for (const n of [1, 2]) {
          yield* query(
            t,
            (sql) => sql`INSERT INTO webhook_attempts (id, delivery_id, webhook_id, attempt, trigger, outcome,
                                         response_code, latency_ms, response, location, error, attempted_at)
                         VALUES (${`att_shown${n}_${id}`}, ${id}, ${webhook.id}, ${n}, 'scheduled', 'http_error',
                                 500, 40, 'boom', NULL, 'HTTP 500', ${new Date(base + n * 60_000)})`
          )
        }
        yield* query(t, (sql) => sql`UPDATE webhook_deliveries SET status = 'failed', attempts = 8 WHERE id = ${id}`)
        const log = yield* request(t.call, s.token, "GET", `/webhooks/${webhook.id}/deliveries`)
        const rows = log.body.data as ReadonlyArray<{ id: string; delivery_id: string }>
        expect(rows).toHaveLength(2)
        for (const row of rows) {
          const resent = yield* request(t.call, s.token, "POST", `/deliveries/${row.id}/resend`)
          expect(resent.status, row.id).toBe(200)
          expect(resent.body).toMatchObject({ ok: true, delivery: { id, webhook_id: webhook.id, status: "pending" } })
        }
        expect((yield* deliveriesOf(t, webhook.id))[0]).toMatchObject({ status: "pending", trigger: "resend" })
        // Another workspace cannot resend it by either id.
        const other = yield* t.seller()
        for (const shown of [id, rows[0]?.id ?? ""]) {
          expect((yield* request(t.call, other.token, "POST", `/deliveries/${shown}/resend`)).status).toBe(404)
        }
      })
    )

    it.effect("resend answers 409 while a delivery is being sent or its webhook is off, 404 when unknown", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const webhook = yield* createWebhook(t.call, s.token, { url, events: ["purchase.created"] })
        yield* sale(t, s.token, yield* s.productId(), "busy@example.com")
        const [delivery] = yield* deliveriesOf(t, webhook.id)
        const id = delivery?.id ?? ""
        yield* query(
          t,
          (sql) => sql`UPDATE webhook_deliveries SET status = 'sending', claim_token = 'clm_w1',
                                       lease_until = ${new Date(Date.now() + 60_000)} WHERE id = ${id}`
        )
        const busy = yield* request(t.call, s.token, "POST", `/deliveries/${id}/resend`)
        expect(busy.status).toBe(409)
        expect(busy.body).toMatchObject({ ok: false, error: "conflict" })
        expect(busy.body.message).toContain("being sent")
        const [untouched] = yield* deliveriesOf(t, webhook.id)
        expect(untouched).toMatchObject({ status: "sending", claim_token: "clm_w1" })

        // A claim whose lease ran out (its worker died) may be resent; the old claim token stops counting.
        yield* query(
          t,
          (sql) => sql`UPDATE webhook_deliveries SET lease_until = ${new Date(Date.now() - 1000)}
                                     WHERE id = ${id}`
        )
        expect((yield* request(t.call, s.token, "POST", `/deliveries/${id}/resend`)).status).toBe(200)
        const [taken] = yield* deliveriesOf(t, webhook.id)
        expect(taken).toMatchObject({ status: "pending", claim_token: null, lease_until: null, trigger: "resend" })

        yield* request(t.call, s.token, "PATCH", `/webhooks/${webhook.id}`, { enabled: false })
        const off = yield* request(t.call, s.token, "POST", `/deliveries/${id}/resend`)
        expect(off.status).toBe(409)
        expect(off.body.message).toContain("turned off")
        expect((yield* request(t.call, s.token, "POST", "/deliveries/dlv_nope/resend")).status).toBe(404)
      })
    )

    it.effect("lists the events of the last 30 days as their envelopes, newest first, filtered by type", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const product = yield* s.productId()
        yield* sale(t, s.token, product, "first@example.com")
        yield* sale(t, s.token, product, "second@example.com")
        const listed = yield* request(t.call, s.token, "GET", "/events")
        expect(listed.status).toBe(200)
        const events = listed.body.data as ReadonlyArray<{
          id: string
          type: string
          created_at: string
          store: unknown
          data: Record<string, unknown>
        }>
        expect(events.map((e) => e.type).sort()).toEqual([
          "customer.created",
          "customer.created",
          "purchase.created",
          "purchase.created"
        ])
        expect([...events].sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map((e) => e.created_at)).toEqual(
          events.map((e) => e.created_at)
        )
        // Each is exactly the envelope stored (and sent) for it.
        for (const event of events) {
          const [row] = yield* query(t, (sql) => sql<{ body: string }>`SELECT body FROM events WHERE id = ${event.id}`)
          expect(event).toEqual(JSON.parse(row?.body ?? "null"))
          expect(event.store).toEqual({ handle: s.handle })
        }
        const sales = yield* request(t.call, s.token, "GET", "/events?type=purchase.created&limit=1")
        expect(sales.body.data).toHaveLength(1)
        expect(sales.body).toMatchObject({
          has_more: true,
          data: [{ type: "purchase.created", data: { buyer_email: "second@example.com" } }]
        })
        const next = yield* request(
          t.call,
          s.token,
          "GET",
          `/events?type=purchase.created&limit=1&starting_after=${sales.body.next_cursor}`
        )
        expect(next.body).toMatchObject({ has_more: false, data: [{ data: { buyer_email: "first@example.com" } }] })
        expect((yield* request(t.call, s.token, "GET", "/events?type=sale.made")).status).toBe(400)

        const one = yield* request(t.call, s.token, "GET", `/events/${events[0]?.id}`)
        expect(one.body).toEqual({ ok: true, event: events[0] })

        // Older than 30 days, and internal library events, are not webhook events to list.
        const old = new Date(Date.now() - 31 * 86_400_000)
        yield* query(
          t,
          (sql) => sql`INSERT INTO events (id, workspace_id, type, created_at, data, body)
                                     VALUES ('evt_old_one', ${s.workspaceId}, 'purchase.created', ${old}, '{}'::jsonb, '{}')`
        )
        yield* query(
          t,
          (sql) => sql`INSERT INTO events (id, workspace_id, type, created_at, data, body)
                                     VALUES ('evt_library_one', ${s.workspaceId}, 'item.created', ${new Date()},
                                             '{"item_id":"x"}'::jsonb, NULL)`
        )
        expect((yield* request(t.call, s.token, "GET", "/events/evt_old_one")).status).toBe(404)
        expect((yield* request(t.call, s.token, "GET", "/events/evt_library_one")).status).toBe(404)
        const again = yield* request(t.call, s.token, "GET", "/events?limit=100")
        expect((again.body.data as ReadonlyArray<{ id: string }>).map((e) => e.id).sort()).toEqual(
          events.map((e) => e.id).sort()
        )
      })
    )
  }
)
