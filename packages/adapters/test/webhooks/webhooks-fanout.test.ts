import { expect, layer } from "@effect/vitest"
import { ApiKeys } from "@svc/core/auth"
import { EventLog } from "@svc/core/events"
import { Transactor } from "@svc/core/shared"
import { resolveStoreCaller, StoreSales } from "@svc/core/store"
import { Effect, Exit } from "effect"
import { engineName } from "../support/database.js"
import { createWebhook, query, request, WebhookTest } from "./support.js"

const url = "https://hooks.example.com/fanout"

layer(WebhookTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `event fan-out to webhooks (${engineName})`,
  (it) => {
    it.effect("a recorded sale queues one delivery per matching enabled webhook, with the envelope stored once", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const all = yield* createWebhook(t.call, s.token, { url: `${url}/all`, events: ["*"] })
        const sales = yield* createWebhook(t.call, s.token, { url: `${url}/sales`, events: ["purchase.created"] })
        const renewals = yield* createWebhook(t.call, s.token, {
          url: `${url}/renewals`,
          events: ["membership.renewed"]
        })
        const off = yield* createWebhook(t.call, s.token, { url: `${url}/off`, events: ["purchase.created"] })
        yield* request(t.call, s.token, "PATCH", `/webhooks/${off.id}`, { enabled: false })
        // Another workspace's webhook never sees this store's events.
        const other = yield* t.seller()
        const stranger = yield* createWebhook(t.call, other.token, { url: `${url}/other`, events: ["*"] })

        const product = yield* s.productId()
        const answer = yield* request(t.call, s.token, "POST", "/sales", {
          event: "sale",
          product,
          email: "fan@example.com",
          order_id: "order-fan-1"
        })
        expect(answer.body).toEqual({ ok: true, status: "granted" })

        const deliveries = yield* query(
          t,
          (sql) => sql<{
            id: string
            webhook_id: string
            event_id: string
            event_type: string
            status: string
            attempts: number
            trigger: string
          }>`SELECT id, webhook_id, event_id, event_type, status, attempts, trigger FROM webhook_deliveries
           WHERE webhook_id IN (${all.id}, ${sales.id}, ${renewals.id}, ${off.id}, ${stranger.id})
           ORDER BY webhook_id, event_type`
        )
        const byWebhook = (id: string) => deliveries.filter((d) => d.webhook_id === id).map((d) => d.event_type)
        expect(byWebhook(all.id)).toEqual(["customer.created", "purchase.created"])
        expect(byWebhook(sales.id)).toEqual(["purchase.created"])
        expect(byWebhook(renewals.id)).toEqual([])
        expect(byWebhook(off.id)).toEqual([])
        expect(byWebhook(stranger.id)).toEqual([])
        for (const d of deliveries) {
          expect(d).toMatchObject({ status: "pending", attempts: 0, trigger: "scheduled" })
          expect(d.id).toMatch(/^dlv_[0-9a-f]{24}$/)
        }
        // Both webhooks subscribed to the sale share its one event.
        const saleEvents = new Set(deliveries.filter((d) => d.event_type === "purchase.created").map((d) => d.event_id))
        expect(saleEvents.size).toBe(1)

        // The stored body is the envelope, byte for byte what GET /events answers and receivers get.
        const [event] = yield* query(
          t,
          (sql) => sql<{ id: string; body: string }>`
          SELECT id, body FROM events WHERE id = ${[...saleEvents][0] ?? ""}`
        )
        const envelope = JSON.parse(event?.body ?? "null") as Record<string, unknown>
        expect(Object.keys(envelope)).toEqual(["id", "type", "created_at", "store", "data"])
        expect(envelope).toMatchObject({
          id: event?.id,
          type: "purchase.created",
          store: { handle: s.handle },
          data: { product_id: product, buyer_email: "fan@example.com", order_id: "order-fan-1", source: "own_checkout" }
        })
        const listed = yield* request(t.call, s.token, "GET", `/events/${event?.id}`)
        expect(listed.body.event).toEqual(envelope)

        // The same order again counts once: no new event, no new delivery.
        yield* request(t.call, s.token, "POST", "/sales", {
          event: "sale",
          product,
          email: "fan@example.com",
          order_id: "order-fan-1"
        })
        const after = yield* query(
          t,
          (sql) => sql`SELECT id FROM webhook_deliveries WHERE webhook_id IN (${all.id}, ${sales.id})`
        )
        expect(after).toHaveLength(3)

        // Turned back on, it gets the next events (not the ones it missed while off).
        yield* request(t.call, s.token, "PATCH", `/webhooks/${off.id}`, { enabled: true })
        yield* request(t.call, s.token, "POST", "/sales", { event: "sale", product, email: "fan2@example.com" })
        const resumed = yield* query(t, (sql) => sql`SELECT id FROM webhook_deliveries WHERE webhook_id = ${off.id}`)
        expect(resumed).toHaveLength(1)
      })
    )

    it.effect("a rolled-back change logs no event and queues no delivery", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const all = yield* createWebhook(t.call, s.token, { url, events: ["*"] })
        const product = yield* s.productId()
        const counts = query(
          t,
          (sql) => sql<{ events: number; deliveries: number; sales: number }>`
          SELECT (SELECT count(*)::int FROM events WHERE workspace_id = ${s.workspaceId}
                    AND type IN ('purchase.created', 'customer.created')) AS events,
                 (SELECT count(*)::int FROM webhook_deliveries WHERE webhook_id = ${all.id}) AS deliveries,
                 (SELECT count(*)::int FROM store_sales WHERE workspace_id = ${s.workspaceId}) AS sales`
        )
        const before = (yield* counts)[0]

        // The real sale use case, inside a transaction that then fails: the sale, its events and their
        // deliveries all go.
        const rolledBack = yield* t.run(
          Effect.gen(function* () {
            const principal = yield* (yield* ApiKeys).authenticate(s.token)
            const caller = yield* resolveStoreCaller(principal, true)
            const tx = yield* Transactor
            const recorder = yield* StoreSales
            return yield* Effect.exit(
              tx.withTransaction(
                Effect.gen(function* () {
                  const answer = yield* recorder.recordSale(caller, {
                    event: "sale",
                    productId: product,
                    email: "gone@example.com"
                  })
                  expect(answer).toEqual({ status: "granted" })
                  return yield* Effect.fail("the rest of the change failed" as const)
                })
              )
            )
          }).pipe(Effect.orDie)
        )
        expect(Exit.isFailure(rolledBack)).toBe(true)
        expect((yield* counts)[0]).toEqual(before)
        expect(before).toEqual({ events: 0, deliveries: 0, sales: 0 })

        // The same sale committed does log and queue.
        yield* request(t.call, s.token, "POST", "/sales", { event: "sale", product, email: "gone@example.com" })
        expect((yield* counts)[0]).toEqual({ events: 2, deliveries: 2, sales: 1 })

        // Internal events of the log (library changes) are not published, not even to `["*"]`.
        yield* t.run(
          Effect.flatMap(EventLog, (log) =>
            log.append({
              id: `evt_internal_${all.id}`,
              workspaceId: s.workspaceId,
              type: "item.created",
              createdAt: new Date(),
              data: { id: "note_1" }
            })
          )
        )
        const internal = yield* query(
          t,
          (sql) => sql<{ body: string | null; queued: number }>`
          SELECT body, (SELECT count(*)::int FROM webhook_deliveries WHERE event_id = ${`evt_internal_${all.id}`}) AS queued
          FROM events WHERE id = ${`evt_internal_${all.id}`}`
        )
        expect(internal).toEqual([{ body: null, queued: 0 }])
      })
    )
  }
)
