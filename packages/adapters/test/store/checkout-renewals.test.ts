/**
 * Memberships sold at the store's checkout with the test processor renew themselves: the renewal worker charges each
 * one when its period (or trial) ends, pays the access to the next period's end and writes `membership.renewed`;
 * a membership whose access was cancelled stops without a charge. Time is the test's clock.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { addMonths, NO_ATTRIBUTION, runDueRenewals, StoreCheckout } from "@svc/core/store"
import { Clock, Duration, Effect, TestClock } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

const DAY = 86_400_000

layer(StoreTest.layer, { timeout: "120 seconds" })(`the checkout's renewals (${engineName})`, (it) => {
  /** A seller with a live membership of `fields`, and a way to buy it at the checkout on the test's clock. */
  const membership = (fields: Record<string, unknown>) =>
    Effect.gen(function* () {
      const store = yield* StoreTest
      const s = yield* store.seller({ cardProcessor: "connected" })
      const product = yield* store.liveProduct(s, { fields })
      const buy = (email: string, choice: string, card = true) =>
        store.setUp(
          Effect.flatMap(StoreCheckout, (checkout) =>
            checkout.buy({
              productId: product,
              choice,
              email,
              name: "",
              code: "",
              question: "",
              card: card ? { number: "4242424242424242", expiry: "12/99", cvc: "123" } : null,
              authenticated: false,
              attempt: "",
              attribution: NO_ATTRIBUTION
            })
          )
        )
      const renewals = store.setUp(runDueRenewals())
      const rows = <A extends object>(query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
        store.setUp(Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.orDie(query(sql))))
      const renewed = Effect.map(
        rows(
          (sql) => sql<{ data: Record<string, unknown> }>`SELECT data FROM events
            WHERE workspace_id = ${s.workspaceId} AND type = 'membership.renewed' ORDER BY created_at, id`
        ),
        (events) => events.map((e) => e.data)
      )
      const paidUntil = (email: string) =>
        Effect.map(
          rows(
            (sql) => sql<{ paid_until: Date }>`SELECT paid_until FROM store_access
              WHERE workspace_id = ${s.workspaceId} AND email = ${email}`
          ),
          (found) => new Date(found[0]?.paid_until ?? 0).getTime()
        )
      const subscription = rows(
        (sql) => sql<{ state: string; stop_reason: string | null; renewals: number }>`
          SELECT state, stop_reason, renewals FROM store_subscriptions WHERE workspace_id = ${s.workspaceId}`
      )
      return { store, s, product, buy, renewals, renewed, paidUntil, subscription }
    })

  it.effect(
    "a monthly membership is charged again each month while its access is active, and stops once cancelled",
    () =>
      Effect.gen(function* () {
        const m = yield* membership({ price_cents: 1500, billing: "monthly" })
        // The layer's clock runs on across its tests: times are counted from the purchase.
        const start = new Date(yield* Clock.currentTimeMillis)
        const bought = yield* m.buy("ann@example.com", "monthly")
        expect(bought.status).toBe("sold")
        // Nothing is due yet.
        expect(yield* m.renewals).toBe(0)
        const firstEnd = yield* m.paidUntil("ann@example.com")
        expect(firstEnd).toBe(addMonths(start, 1).getTime())

        yield* TestClock.setTime(addMonths(start, 1).getTime())
        expect(yield* m.renewals).toBe(1)
        expect(yield* m.renewed).toMatchObject([
          { buyer_email: "ann@example.com", amount_cents: 1500, billing: "monthly", payment: "renewal" }
        ])
        expect(String((yield* m.renewed)[0]?.subscription_id)).toMatch(/^test_sub_/)
        expect(yield* m.paidUntil("ann@example.com")).toBe(addMonths(start, 2).getTime())
        // Run again at once: nothing more is due, and one period is charged once.
        expect(yield* m.renewals).toBe(0)
        expect(yield* m.renewed).toHaveLength(1)

        // The seller cancels it: at the next period's end nothing is charged, and the subscription stops.
        const cancelled = yield* Effect.promise(() =>
          m.store.call(m.s.token, "POST", "/sales", { event: "cancel", product: m.product, email: "ann@example.com" })
        )
        expect(cancelled.body).toEqual({ ok: true, status: "cancelled" })
        yield* TestClock.setTime(addMonths(start, 2).getTime())
        expect(yield* m.renewals).toBe(1)
        expect(yield* m.renewed).toHaveLength(1)
        expect(yield* m.subscription).toEqual([{ state: "stopped", stop_reason: "cancelled", renewals: 1 }])
      })
  )

  it.effect("a membership whose access the seller removed stops without a charge", () =>
    Effect.gen(function* () {
      const m = yield* membership({ price_cents: 2000, billing: "monthly" })
      const start = new Date(yield* Clock.currentTimeMillis)
      expect((yield* m.buy("cy@example.com", "monthly")).status).toBe("sold")
      const removed = yield* Effect.promise(() =>
        m.store.call(m.s.token, "POST", "/customers/remove-access", { product: m.product, email: "cy@example.com" })
      )
      expect(removed.status).toBe(200)
      yield* TestClock.setTime(addMonths(start, 1).getTime())
      expect(yield* m.renewals).toBe(1)
      expect(yield* m.renewed).toEqual([])
      expect(yield* m.subscription).toEqual([{ state: "stopped", stop_reason: "removed", renewals: 0 }])
    })
  )

  it.effect(
    "a trial charges nothing at the checkout and the full price when it ends; a yearly price renews yearly",
    () =>
      Effect.gen(function* () {
        const m = yield* membership({ price_cents: 900, billing: "monthly", yearly_price_cents: 9000, trial_days: 14 })
        const start = yield* Clock.currentTimeMillis
        // Nothing is due during a trial, so no card is needed.
        const bought = yield* m.buy("bo@example.com", "yearly", false)
        expect(bought).toMatchObject({ status: "sold", sale: { amountCents: 0, billing: "yearly", status: "free" } })
        expect(yield* m.paidUntil("bo@example.com")).toBe(start + 14 * DAY)

        yield* TestClock.adjust(Duration.days(13))
        expect(yield* m.renewals).toBe(0)
        yield* TestClock.adjust(Duration.days(1))
        expect(yield* m.renewals).toBe(1)
        expect(yield* m.renewed).toMatchObject([{ amount_cents: 9000, billing: "yearly" }])
        expect(yield* m.paidUntil("bo@example.com")).toBe(addMonths(new Date(start + 14 * DAY), 12).getTime())
        expect(yield* m.subscription).toEqual([{ state: "active", stop_reason: null, renewals: 1 }])
      })
  )
})
