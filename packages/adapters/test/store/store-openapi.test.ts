import { expect, layer } from "@effect/vitest"
import {
  CohortSignupRow,
  CustomerFeedRow,
  FirstPaymentRow,
  MembershipChangeRow,
  RefundFeedRow,
  RenewalPaymentRow,
  SaleFeedRow,
  StoreCohorts
} from "@svc/core/store"
import { StoreBadRequest } from "@svc/core/store-api"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { exactly, StoreTest } from "./support.js"

type Call = StoreTest["Type"]["call"]

const request = (call: Call, token: string, method: string, path: string, body?: unknown) =>
  Effect.promise(() => call(token, method, path, body))

interface Document {
  readonly paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
  readonly components: { readonly schemas: Record<string, unknown> }
}

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store feed rows and OpenAPI file (${engineName})`,
  (it) => {
    it.effect("answers each feed with exactly the fields of its named row schema", () =>
      Effect.gen(function* () {
        const { call, seller, setUp } = yield* StoreTest
        const s = yield* seller({ cardProcessor: "connected" })
        const created = yield* request(call, s.token, "POST", "/products", {
          custom_ai_id: s.customAiId,
          price_cents: 2900,
          billing: "monthly"
        })
        const product = (created.body.product as { id: string }).id
        yield* request(call, s.token, "POST", `/products/${product}/publish`)
        const event = (body: Record<string, unknown>) =>
          request(call, s.token, "POST", "/sales", { product, email: "m@example.com", ...body })
        expect((yield* event({ event: "sale", order_id: "s-1", name: "Mo" })).body.status).toBe("granted")
        expect((yield* event({ event: "renewal", order_id: "r-1", paid_until: "2030-01-01" })).body.status).toBe(
          "renewed"
        )
        expect((yield* event({ event: "cancel", ends_at: "2030-01-01" })).body.status).toBe("cancelled")
        expect((yield* event({ event: "end" })).body.status).toBe("revoked")
        expect((yield* event({ event: "sale", order_id: "s-2" })).body.status).toBe("restored")
        expect((yield* event({ event: "refund", order_id: "s-2" })).body.status).toBe("revoked")
        yield* request(call, s.token, "POST", "/customers", { product, email: "gift@example.com", send_email: false })
        const cohort = yield* setUp(
          Effect.flatMap(StoreCohorts, (c) => c.create(s.workspaceId, { productId: product, name: "May" }))
        )
        yield* request(call, s.token, "POST", "/customers/cohort", {
          product,
          email: "gift@example.com",
          cohort: cohort.id
        })

        const feed = (path: string, key: string) =>
          Effect.map(request(call, s.token, "GET", path), (answer) => {
            expect(answer.status).toBe(200)
            expect(Object.keys(answer.body).sort()).toEqual(["ok", key].sort())
            return answer.body[key] as Array<Record<string, unknown>>
          })
        const sales = yield* feed("/sales/recent", "sales")
        expect(sales).toHaveLength(2)
        for (const row of sales) exactly(SaleFeedRow, row)
        expect(sales[0]).toMatchObject({
          order_id: "s-2",
          how: "own_checkout",
          event_id: expect.stringMatching(/^evt_/)
        })

        const customers = yield* feed("/customers/recent", "customers")
        expect(customers.map((r) => [r.email, r.how])).toEqual([
          ["gift@example.com", "added"],
          ["m@example.com", "own_checkout"]
        ])
        for (const row of customers) exactly(CustomerFeedRow, row)

        const payments = yield* feed("/memberships/payments", "payments")
        expect(payments.map((r) => r.payment)).toEqual(["first", "renewal", "first"])
        exactly(FirstPaymentRow, payments[0])
        exactly(RenewalPaymentRow, payments[1])
        expect(payments[1]).toMatchObject({ order_id: "r-1", paid_until: "2030-01-01T00:00:00.000Z" })

        const changes = yield* feed("/memberships/changes", "changes")
        expect(changes.map((r) => r.change)).toEqual(["ended", "cancelled"])
        for (const row of changes) exactly(MembershipChangeRow, row)

        const refunds = yield* feed("/refunds/recent", "refunds")
        expect(refunds).toHaveLength(1)
        expect(exactly(RefundFeedRow, refunds[0])).toMatchObject({ order_id: "s-2", status: "paid" })

        const signups = yield* feed("/cohort-signups/recent", "signups")
        expect(signups).toHaveLength(1)
        expect(exactly(CohortSignupRow, signups[0])).toMatchObject({ cohort_id: cohort.id, email: "gift@example.com" })
      })
    )

    it.effect("documents one named row per feed and the 400 body the API really sends", () =>
      Effect.gen(function* () {
        const { call, raw, seller } = yield* StoreTest
        const response = yield* Effect.promise(() => raw(new Request("http://store.test/store-app/v1/openapi.json")))
        const text = yield* Effect.promise(() => response.text())
        const document = JSON.parse(text) as Document
        const { Validator } = yield* Effect.promise(() => import("@seriousme/openapi-schema-validator"))
        const result = yield* Effect.promise(() => new Validator().validate(JSON.parse(text)))
        expect(result.errors ?? []).toEqual([])

        const rowOf = (path: string, key: string) => {
          const ok = document.paths[`/store-app/v1${path}`]?.get?.responses["200"] as {
            content: { "application/json": { schema: { properties: Record<string, { items: unknown }> } } }
          }
          return ok.content["application/json"].schema.properties[key]?.items
        }
        const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
        expect(rowOf("/sales/recent", "sales")).toEqual(ref("SaleFeedRow"))
        expect(rowOf("/customers/recent", "customers")).toEqual(ref("CustomerFeedRow"))
        expect(rowOf("/memberships/payments", "payments")).toEqual(ref("MembershipPaymentRow"))
        expect(rowOf("/memberships/changes", "changes")).toEqual(ref("MembershipChangeRow"))
        expect(rowOf("/refunds/recent", "refunds")).toEqual(ref("RefundFeedRow"))
        expect(rowOf("/cohort-signups/recent", "signups")).toEqual(ref("CohortSignupRow"))
        expect(rowOf("/paid-questions/recent", "questions")).toEqual(ref("PaidQuestionFeedRow"))
        expect(rowOf("/products/{id}/cohorts", "cohorts")).toEqual(ref("CohortRow"))
        const saleRow = document.components.schemas.SaleFeedRow as { required: Array<string> }
        expect(saleRow.required).toEqual(expect.arrayContaining(["id", "buyer_email", "how", "event_id"]))

        // No operation offers the platform's decode-error body; every 400 is StoreBadRequest.
        expect(text).not.toContain("HttpApiDecodeError")
        const operations = Object.values(document.paths).flatMap((item) => Object.values(item))
        expect(operations.length).toBeGreaterThan(20)
        // Every route needs the key: no operation overrides the document's bearer requirement with `[]`.
        expect((document as unknown as { security: unknown }).security).toEqual([{ bearer: [] }])
        for (const operation of operations) {
          expect(operation).not.toHaveProperty("security")
          expect(operation.responses["400"]).toMatchObject({
            content: { "application/json": { schema: ref("StoreBadRequest") } }
          })
        }

        // And that is what a 400 is: a wrong query parameter, a wrong path-less body.
        const s = yield* seller()
        const wrongLimit = yield* request(call, s.token, "GET", "/sales?limit=0")
        expect(wrongLimit.status).toBe(400)
        exactly(StoreBadRequest, wrongLimit.body)
        const unknownParam = yield* request(call, s.token, "GET", "/customers?colour=red")
        expect(unknownParam.status).toBe(400)
        exactly(StoreBadRequest, unknownParam.body)
        const notJson = yield* request(call, s.token, "POST", "/customers/cohort", "{not json")
        expect(notJson.status).toBe(400)
        exactly(StoreBadRequest, notJson.body)
      })
    )
  }
)
