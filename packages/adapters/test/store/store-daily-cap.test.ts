import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

// A small daily cap, so the test reaches it well inside the per-minute limit.
layer(StoreTest.withSaleLimits({ perMinute: 60, perDay: 5 }), { timeout: "120 seconds", excludeTestServices: true })(
  `store API daily cap (${engineName})`,
  (it) => {
    it.effect("answers 429 naming the daily cap once a store has recorded that many sales today", () =>
      Effect.gen(function* () {
        const { call, seller } = yield* StoreTest
        const s = yield* seller()
        const created = yield* Effect.promise(() => call(s.token, "POST", "/products", { custom_ai_id: s.customAiId }))
        const product = (created.body.product as { id: string }).id
        yield* Effect.promise(() => call(s.token, "POST", `/products/${product}/publish`))
        const sell = (n: number) =>
          call(s.token, "POST", "/sales", { event: "sale", product, email: `b${n}@example.com`, order_id: `o${n}` })
        const allowed = yield* Effect.promise(() => Promise.all(Array.from({ length: 5 }, (_, n) => sell(n))))
        expect(allowed.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
        const capped = yield* Effect.promise(() => sell(99))
        expect(capped.status).toBe(429)
        expect(capped.body.message).toContain("daily cap of 5")
        expect(capped.body.message).toContain("SVC_STORE_DAILY_SALE_CAP")
      })
    )
  }
)
