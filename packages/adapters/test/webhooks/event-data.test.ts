/**
 * What the store really emits is what the webhook contract says: every event the store's flows write, as the very
 * envelope bytes a receiver gets, decodes exactly (no field more, none less) against its type's schema. A field added
 * to an event without its schema fails here, which keeps the server and the typed client together.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { StoreCohorts } from "@svc/core/store"
import { webhookEventSchema } from "@svc/core/store-api"
import { isWebhookEventType } from "@svc/core/webhooks"
import { Effect, Either, Schema } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "../store/support.js"

const storedEnvelopes = (workspaceId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly type: string; readonly body: string }>`
      SELECT type, body FROM events WHERE workspace_id = ${workspaceId} AND body IS NOT NULL ORDER BY created_at, id`.pipe(
      Effect.orDie
    )
  )

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `the events the store emits, against the webhook contract (${engineName})`,
  (it) => {
    it.effect("decodes every emitted envelope exactly against its event type's schema", () =>
      Effect.gen(function* () {
        const { call, seller, setUp } = yield* StoreTest
        const s = yield* seller({ cardProcessor: "connected" })
        const send = (method: string, path: string, body?: unknown) =>
          Effect.promise(() => call(s.token, method, path, body))
        const created = yield* send("POST", "/products", {
          custom_ai_id: s.customAiId,
          price_cents: 2900,
          billing: "monthly"
        })
        const product = (created.body.product as { id: string }).id
        yield* send("POST", `/products/${product}/publish`)
        const sale = (body: Record<string, unknown>) =>
          Effect.map(send("POST", "/sales", { product, email: "m@example.com", ...body }), (a) => a.body.status)
        expect(yield* sale({ event: "sale", order_id: "s-1", name: "Mo", subscription_id: "sub_1" })).toBe("granted")
        expect(yield* sale({ event: "renewal", order_id: "r-1", paid_until: "2030-01-01" })).toBe("renewed")
        expect(yield* sale({ event: "renewal", order_id: "r-2" })).toBe("renewed")
        expect(yield* sale({ event: "cancel" })).toBe("cancelled")
        expect(yield* sale({ event: "end" })).toBe("revoked")
        expect(yield* sale({ event: "sale", order_id: "s-2" })).toBe("restored")
        expect(yield* sale({ event: "cancel", ends_at: "2030-02-01" })).toBe("cancelled")
        expect(yield* sale({ event: "refund", order_id: "s-2" })).toBe("revoked")
        yield* send("POST", "/customers", { product, email: "gift@example.com", send_email: false })
        const cohorts = yield* setUp(
          Effect.all(
            ["May", "June"].map((name) =>
              Effect.flatMap(StoreCohorts, (c) => c.create(s.workspaceId, { productId: product, name }))
            )
          )
        )
        for (const cohort of cohorts) {
          yield* send("POST", "/customers/cohort", { product, email: "gift@example.com", cohort: cohort.id })
        }
        yield* send("POST", "/email-contacts", { email: "lead@example.com", name: "Lee", tags: ["Webinar"] })

        const envelopes = yield* setUp(storedEnvelopes(s.workspaceId))
        for (const { type, body } of envelopes) {
          if (!isWebhookEventType(type)) throw new Error(`${type} is stored with an envelope but is no event type`)
          const decoded = Schema.decodeUnknownEither(webhookEventSchema(type), { onExcessProperty: "error" })(
            JSON.parse(body)
          )
          expect(Either.isRight(decoded) ? "decoded" : `${type}: ${String(decoded.left)}`).toBe("decoded")
        }
        // Every flow above emitted, so none of the store's event types went unchecked.
        expect([...new Set(envelopes.map((e) => e.type))].sort()).toEqual([
          "cohort_signup.created",
          "contact.tagged",
          "customer.created",
          "membership.cancelled",
          "membership.renewed",
          "purchase.created",
          "purchase.membership_ended",
          "purchase.refunded"
        ])
      })
    )
  }
)
