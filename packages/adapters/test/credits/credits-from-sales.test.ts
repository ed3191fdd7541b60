import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Accounts } from "@svc/core/accounts"
import { Credits } from "@svc/core/credits"
import { Effect } from "effect"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"
import { StoreTest } from "../store/support.js"

const grantsOf = (h: StoreTest["Type"], accountId: string) =>
  h.setUp(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ key: string; tenths: number }>`SELECT key, tenths FROM credit_entries
                 WHERE account_id = ${accountId} AND kind = 'grant' ORDER BY created_at, id`
    ).pipe(Effect.orDie)
  )

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `credits included with a product (${engineName})`,
  (it) => {
    it.effect("a sale of a product with included_credits grants the buyer once, whatever repeats", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const product = yield* h.liveProduct(s, { fields: { included_credits: 100 } })
        const buyer = yield* h.setUp(signUp({ plan: "free" }))
        const sell = () =>
          Effect.promise(() =>
            h.call(s.token, "POST", "/sales", {
              event: "sale",
              product,
              email: buyer.account.email,
              order_id: "order-credits-1"
            })
          )
        expect((yield* sell()).body).toEqual({ ok: true, status: "granted" })
        expect((yield* sell()).body).toEqual({ ok: true, status: "duplicate" })
        const grants = yield* grantsOf(h, buyer.account.id)
        expect(grants.map((g) => g.tenths)).toEqual([1000])
        expect(grants[0]?.key).toMatch(/^sale:purchase:/)
        const balance = yield* h.setUp(Effect.flatMap(Credits, (c) => c.balance(buyer.account.id)))
        expect(balance).toMatchObject({ extraTenths: 1000, balanceTenths: 1500 })
      })
    )

    it.effect("a buyer with no account gets the credits when the account is made and first reads its balance", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const product = yield* h.liveProduct(s, { fields: { included_credits: 250 } })
        const email = `new-buyer-${Date.now()}@example.com`
        const sold = yield* Effect.promise(() =>
          h.call(s.token, "POST", "/sales", { event: "sale", product, email, order_id: "order-credits-2" })
        )
        expect(sold.body).toEqual({ ok: true, status: "granted" })
        const balance = yield* h.setUp(
          Effect.gen(function* () {
            const { account } = yield* (yield* Accounts).create({
              email,
              password: "correct horse battery",
              plan: "free"
            })
            return yield* (yield* Credits).balance(account.id)
          })
        )
        expect(balance).toMatchObject({ extraTenths: 2500, balanceTenths: 3000 })
      })
    )

    it.effect("a product without included credits grants nothing", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const product = yield* h.liveProduct(s)
        const buyer = yield* h.setUp(signUp({ plan: "free" }))
        yield* Effect.promise(() =>
          h.call(s.token, "POST", "/sales", { event: "sale", product, email: buyer.account.email })
        )
        expect(yield* grantsOf(h, buyer.account.id)).toEqual([])
      })
    )
  }
)
