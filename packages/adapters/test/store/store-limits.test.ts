import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

// The default of 60 sales per minute applies (the daily cap has its own file: it needs another setting).
layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store API limits (${engineName})`,
  (it) => {
    it.effect(
      "answers 429 past 60 sales a minute per store, counting each store on its own",
      () =>
        Effect.gen(function* () {
          const { call, raw, seller } = yield* StoreTest
          const s = yield* seller()
          const created = yield* Effect.promise(() =>
            call(s.token, "POST", "/products", { custom_ai_id: s.customAiId })
          )
          const product = (created.body.product as { id: string }).id
          yield* Effect.promise(() => call(s.token, "POST", `/products/${product}/publish`))
          const sell = (n: number) =>
            call(s.token, "POST", "/sales", { event: "sale", product, email: `b${n}@example.com`, order_id: `o${n}` })
          const first = yield* Effect.promise(() => Promise.all(Array.from({ length: 60 }, (_, n) => sell(n))))
          expect(first.every((a) => a.status === 200)).toBe(true)
          const over = yield* Effect.promise(() =>
            raw(
              new Request("http://store.test/store-app/v1/sales", {
                method: "POST",
                headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
                body: JSON.stringify({ event: "sale", product, email: "late@example.com" })
              })
            )
          )
          expect(over.status).toBe(429)
          expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0)
          expect(yield* Effect.promise(() => over.json())).toMatchObject({
            ok: false,
            error: "rate_limited",
            message: expect.stringContaining("per minute")
          })
          // Another store has its own count.
          const other = yield* seller()
          const otherProduct = yield* Effect.promise(() =>
            call(other.token, "POST", "/products", { custom_ai_id: other.customAiId })
          )
          const otherId = (otherProduct.body.product as { id: string }).id
          yield* Effect.promise(() => call(other.token, "POST", `/products/${otherId}/publish`))
          const fresh = yield* Effect.promise(() =>
            call(other.token, "POST", "/sales", { event: "sale", product: otherId, email: "x@example.com" })
          )
          expect(fresh.body).toEqual({ ok: true, status: "granted" })
        }),
      { timeout: 180_000 }
    )

    it.effect("sends at most one access email per person per minute", () =>
      Effect.gen(function* () {
        const { call, seller } = yield* StoreTest
        const s = yield* seller()
        const created = yield* Effect.promise(() => call(s.token, "POST", "/products", { custom_ai_id: s.customAiId }))
        const product = (created.body.product as { id: string }).id
        yield* Effect.promise(() => call(s.token, "POST", `/products/${product}/publish`))
        yield* Effect.promise(() =>
          call(s.token, "POST", "/customers", { product, email: "again@example.com", send_email: false })
        )
        const resend = () =>
          Effect.promise(() =>
            call(s.token, "POST", "/customers/access-email", { product, email: "again@example.com" })
          )
        expect((yield* resend()).body).toEqual({ ok: true, sent: true })
        const second = yield* resend()
        expect(second.status).toBe(429)
        expect(second.body).toMatchObject({ ok: false, error: "rate_limited" })
        const stranger = yield* Effect.promise(() =>
          call(s.token, "POST", "/customers/access-email", { product, email: "stranger@example.com" })
        )
        expect(stranger.status).toBe(404)
      })
    )
  }
)
