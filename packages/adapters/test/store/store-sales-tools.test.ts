import { expect, layer } from "@effect/vitest"
import { RANDOM_CODE_ALPHABET } from "@svc/core/store"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { STORE_PUBLIC_BASE as PUBLIC_BASE } from "../webhooks/support.js"
import { StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Seller = Effect.Effect.Success<ReturnType<Harness["seller"]>>
type Row = Record<string, unknown>

/** A published product of the seller (a new Custom AI each time), made through the store API. */
const liveProduct = (h: Harness, s: Seller, fields: Row = {}) => h.liveProduct(s, { fields })

const api = (h: Harness, s: Seller, method: string, path: string, body?: unknown) =>
  Effect.promise(() => h.call(s.token, method, path, body))

const RANDOM_CODE = new RegExp(`^[${RANDOM_CODE_ALPHABET}]{8}$`)

/** A draft product with a price, at the service's checkout (a discount code does not need it live). */
const pricedDraft = (h: Harness, s: Seller, fields: Row = { price_cents: 4900 }) =>
  Effect.gen(function* () {
    const created = yield* api(h, s, "POST", "/products", { custom_ai_id: yield* s.newCustomAi(), ...fields })
    if (created.status !== 201) return yield* Effect.dieMessage(`POST /products: ${JSON.stringify(created.body)}`)
    return (created.body.product as { id: string }).id
  })

// What an event says apart from the ids and times each face makes afresh.
const comparable = (events: ReadonlyArray<{ type: string; data: Row }>) =>
  events.map(({ type, data }) => {
    const { id, sale_id, product_id, created_at, refunded_at, ...rest } = data
    return {
      type,
      ...rest,
      ids: [id, sale_id, product_id].filter((v) => v !== undefined).map((v) => typeof v),
      times: [created_at, refunded_at].filter((v) => v !== undefined).map((v) => typeof v)
    }
  })

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store sales tools (${engineName})`,
  (it) => {
    it.effect("records a sale and refunds it as POST /sales does: same statuses, same single events", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const viaTool = yield* h.seller({ cardProcessor: "connected" })
        const viaApi = yield* h.seller({ cardProcessor: "connected" })
        const toolProduct = yield* liveProduct(h, viaTool, { price_cents: 2500 })
        const apiProduct = yield* liveProduct(h, viaApi, { price_cents: 2500 })
        const toolEvents0 = (yield* h.events(viaTool.workspaceId)).length
        const apiEvents0 = (yield* h.events(viaApi.workspaceId)).length

        const record = () =>
          h.tool(viaTool.token, "svc_manage_sales", {
            action: "record",
            event: "sale",
            productId: toolProduct,
            email: " Ann@Example.com ",
            name: "Ann",
            orderId: "order-1"
          })
        const post = () =>
          api(h, viaApi, "POST", "/sales", {
            event: "sale",
            product: apiProduct,
            email: " Ann@Example.com ",
            name: "Ann",
            order_id: "order-1"
          })
        expect(yield* record()).toEqual({ ok: true, status: "granted" })
        expect((yield* post()).body).toEqual({ ok: true, status: "granted" })
        // The same order id again counts once, on either face.
        expect(yield* record()).toEqual({ ok: true, status: "duplicate" })
        expect((yield* post()).body).toEqual({ ok: true, status: "duplicate" })

        const toolSales = yield* h.tool(viaTool.token, "svc_manage_sales", { action: "list" })
        const toolSale = (toolSales.sales as Array<Row>)[0] as Row
        expect(toolSales.sales).toHaveLength(1)
        expect(toolSale).toMatchObject({ buyer_email: "ann@example.com", amount_cents: 2500, status: "paid" })

        const refunded = yield* h.tool(viaTool.token, "svc_manage_sales", { action: "refund", saleId: toolSale.id })
        expect(refunded).toMatchObject({ ok: true, status: "revoked", sale: { id: toolSale.id } })
        const apiRefund = yield* api(h, viaApi, "POST", "/sales", {
          event: "refund",
          product: apiProduct,
          email: "ann@example.com",
          order_id: "order-1"
        })
        expect(apiRefund.body).toEqual({ ok: true, status: "revoked" })
        // A second refund, through either face, changes nothing.
        expect(
          yield* h.tool(viaTool.token, "svc_manage_sales", { action: "refund", saleId: toolSale.id })
        ).toMatchObject({ ok: true, status: "duplicate" })
        const apiSale = ((yield* api(h, viaApi, "GET", "/sales")).body.data as Array<Row>)[0] as Row
        expect(yield* h.tool(viaApi.token, "svc_manage_sales", { action: "refund", saleId: apiSale.id })).toMatchObject(
          {
            ok: true,
            status: "duplicate"
          }
        )
        expect(
          (yield* api(h, viaTool, "POST", "/sales", {
            event: "refund",
            product: toolProduct,
            email: "ann@example.com",
            order_id: "order-1"
          })).body
        ).toEqual({ ok: true, status: "duplicate" })

        const toolEvents = (yield* h.events(viaTool.workspaceId)).slice(toolEvents0)
        const apiEvents = (yield* h.events(viaApi.workspaceId)).slice(apiEvents0)
        expect(toolEvents.map((e) => e.type)).toEqual(["customer.created", "purchase.created", "purchase.refunded"])
        expect(comparable(toolEvents)).toEqual(comparable(apiEvents))

        // The access is gone on both faces.
        for (const [s, product] of [
          [viaTool, toolProduct],
          [viaApi, apiProduct]
        ] as const) {
          const customer = (yield* api(h, s, "GET", "/customers/ann@example.com")).body.customer as {
            products: Array<{ product_id: string; has_access: boolean; state: string }>
          }
          expect(customer.products).toEqual([
            expect.objectContaining({ product_id: product, has_access: false, state: "refunded" })
          ])
        }
      })
    )

    it.effect("lists and reads sales as GET /sales and GET /sales/<id>, with filters and paging", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller({ cardProcessor: "connected" })
        const paid = yield* liveProduct(h, s, { price_cents: 1200 })
        const free = yield* liveProduct(h, s)
        for (const [product, email, orderId] of [
          [paid, "ann@example.com", "a-1"],
          [free, "bob@example.com", "b-1"],
          [paid, "cid@example.com", "c-1"]
        ] as const) {
          expect(
            yield* h.tool(s.token, "svc_manage_sales", {
              action: "record",
              event: "sale",
              productId: product,
              email,
              orderId
            })
          ).toEqual({ ok: true, status: "granted" })
        }
        const first = yield* h.tool(s.token, "svc_manage_sales", { action: "list", limit: 2 })
        expect(first.sales).toHaveLength(2)
        expect(typeof first.nextCursor).toBe("string")
        const second = yield* h.tool(s.token, "svc_manage_sales", {
          action: "list",
          limit: 2,
          cursor: first.nextCursor
        })
        expect(second.sales).toHaveLength(1)
        expect(second.nextCursor).toBeUndefined()
        const all = (yield* api(h, s, "GET", "/sales?limit=10")).body.data as Array<Row>
        expect([...(first.sales as Array<Row>), ...(second.sales as Array<Row>)]).toEqual(all)

        const byProduct = yield* h.tool(s.token, "svc_manage_sales", { action: "list", productId: paid })
        expect((byProduct.sales as Array<Row>).map((r) => r.buyer_email).sort()).toEqual([
          "ann@example.com",
          "cid@example.com"
        ])
        const freeOnes = yield* h.tool(s.token, "svc_manage_sales", { action: "list", status: "free" })
        expect((freeOnes.sales as Array<Row>).map((r) => r.buyer_email)).toEqual(["bob@example.com"])
        const byEmail = yield* h.tool(s.token, "svc_manage_sales", { action: "list", email: "CID@example.com" })
        expect((byEmail.sales as Array<Row>).map((r) => r.order_id)).toEqual(["c-1"])
        const none = yield* h.tool(s.token, "svc_manage_sales", { action: "list", createdBefore: "2000-01-01" })
        expect(none.sales).toEqual([])

        const one = all[0] as Row
        const got = yield* h.tool(s.token, "svc_manage_sales", { action: "get", saleId: one.id })
        expect(got.sale).toEqual((yield* api(h, s, "GET", `/sales/${String(one.id)}`)).body.sale)

        // Bad input: missing fields for the action, unknown or other stores' ids, a wrong filter or cursor.
        const failure = (args: Row) => h.tool(s.token, "svc_manage_sales", args)
        expect(yield* failure({ action: "get" })).toMatchObject({
          ok: false,
          status: "invalid",
          errors: [{ path: "saleId" }]
        })
        expect(yield* failure({ action: "record", productId: paid, email: "x@example.com" })).toMatchObject({
          ok: false,
          status: "invalid",
          errors: [{ path: "event" }]
        })
        expect(yield* failure({ action: "refund" })).toMatchObject({ status: "invalid", errors: [{ path: "saleId" }] })
        expect(
          yield* failure({ action: "record", event: "sale", productId: paid, email: "not-an-email" })
        ).toMatchObject({ status: "invalid", errors: [{ path: "email" }] })
        expect(yield* failure({ action: "get", saleId: "purchase:nope" })).toMatchObject({ status: "not-found" })
        expect(yield* failure({ action: "refund", saleId: "purchase:nope" })).toMatchObject({ status: "not-found" })
        expect(
          yield* failure({ action: "record", event: "sale", productId: "prod_nope", email: "x@example.com" })
        ).toMatchObject({ status: "not-found" })
        expect(yield* failure({ action: "list", cursor: "bad" })).toMatchObject({ status: "invalid" })
        expect(yield* failure({ action: "list", status: "lost" })).toMatchObject({ status: "invalid" })
        expect(yield* failure({ action: "list", salesman: "x" })).toMatchObject({ status: "invalid" })
        expect(
          yield* failure({ action: "record", event: "renewal", productId: paid, email: "ann@example.com" })
        ).toMatchObject({ status: "conflict", message: expect.stringContaining("not_a_membership") })

        const other = yield* h.seller()
        expect(yield* h.tool(other.token, "svc_manage_sales", { action: "get", saleId: one.id })).toMatchObject({
          status: "not-found"
        })
        expect(yield* h.tool(other.token, "svc_manage_sales", { action: "refund", saleId: one.id })).toMatchObject({
          status: "not-found"
        })
        expect(
          yield* h.tool(other.token, "svc_manage_sales", {
            action: "record",
            event: "sale",
            productId: paid,
            email: "x@example.com"
          })
        ).toMatchObject({ status: "not-found" })
        // Nothing of those failures was written.
        expect((yield* api(h, s, "GET", "/sales?limit=10")).body.data).toEqual(all)
      })
    )

    it.effect("records memberships through the same state machine (renew, cancel, end)", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller({ cardProcessor: "connected" })
        const club = yield* liveProduct(h, s, { price_cents: 900, billing: "monthly" })
        const event = (name: string, extra: Row = {}) =>
          h.tool(s.token, "svc_manage_sales", {
            action: "record",
            event: name,
            productId: club,
            email: "dan@example.com",
            ...extra
          })
        expect(yield* event("sale", { orderId: "m-1", subscriptionId: "sub-1" })).toEqual({
          ok: true,
          status: "granted"
        })
        expect(yield* event("renewal", { orderId: "m-2", paidUntil: "2027-01-01" })).toEqual({
          ok: true,
          status: "renewed"
        })
        expect(yield* event("renewal", { orderId: "m-2" })).toEqual({ ok: true, status: "duplicate" })
        expect(yield* event("cancel", { endsAt: "2027-01-01" })).toEqual({ ok: true, status: "cancelled" })
        expect(yield* event("end")).toEqual({ ok: true, status: "revoked" })
        expect(yield* event("cancel", { paidUntil: "soon" })).toMatchObject({
          status: "invalid",
          errors: [{ path: "paidUntil" }]
        })
        const types = (yield* h.events(s.workspaceId)).map((e) => e.type)
        expect(types.filter((t) => t.startsWith("membership.") || t.startsWith("purchase."))).toEqual([
          "purchase.created",
          "membership.renewed",
          "membership.cancelled",
          "purchase.membership_ended"
        ])
      })
    )

    it.effect("makes, lists, reads and turns off discount codes as the store API does, with their checkout links", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const product = yield* pricedDraft(h, s)
        const other = yield* pricedDraft(h, s)
        const codes = (args: Row) => h.tool(s.token, "svc_manage_sales", args)

        const expiresAt = "2099-12-31T23:59:59.000Z"
        const chosen = yield* codes({
          action: "create_code",
          productId: product,
          kind: "percent",
          value: 25,
          code: "Spring-25",
          maxUses: 100,
          expiresAt
        })
        expect(chosen).toEqual({
          ok: true,
          discountCode: {
            id: expect.stringMatching(/^dsc_/),
            product_id: product,
            code: "Spring-25",
            kind: "percent",
            value: 25,
            percent_off: 25,
            amount_off_cents: null,
            max_uses: 100,
            uses: 0,
            uses_left: 100,
            expires_at: expiresAt,
            active: true,
            disabled_at: null,
            created_at: expect.any(String),
            checkout_url: `${PUBLIC_BASE}/c/${product}?code=Spring-25`
          }
        })
        const spring = chosen.discountCode as Row

        // No code: a random one; dollars off become whole cents.
        const random = (yield* codes({ action: "create_code", productId: other, kind: "amount", value: 9.99 }))
          .discountCode as Row
        expect(random).toMatchObject({ kind: "amount", value: 9.99, amount_off_cents: 999, max_uses: null })
        expect(random.code).toMatch(RANDOM_CODE)
        expect(random.checkout_url).toBe(`${PUBLIC_BASE}/c/${other}?code=${String(random.code)}`)

        // Pages of one, newest first: the rows GET /discount-codes answers, in its order.
        const all = (yield* api(h, s, "GET", "/discount-codes")).body.data as Array<Row>
        expect(all).toHaveLength(2)
        expect(all).toEqual(expect.arrayContaining([spring, random]))
        const first = yield* codes({ action: "list_codes", limit: 1 })
        expect(first.discountCodes).toEqual([all[0]])
        expect(typeof first.nextCursor).toBe("string")
        const second = yield* codes({ action: "list_codes", limit: 1, cursor: first.nextCursor })
        expect(second).toEqual({ ok: true, discountCodes: [all[1]] })
        expect((yield* codes({ action: "list_codes", productId: product })).discountCodes).toEqual([spring])
        expect((yield* codes({ action: "list_codes", createdBefore: "2000-01-01" })).discountCodes).toEqual([])

        // By id or by the code in any case.
        expect(yield* codes({ action: "get_code", codeId: spring.id })).toEqual({ ok: true, discountCode: spring })
        expect(yield* codes({ action: "get_code", codeId: "spring-25" })).toEqual({ ok: true, discountCode: spring })

        const disabled = yield* codes({ action: "disable_code", codeId: "SPRING-25" })
        expect(disabled.discountCode).toEqual({ ...spring, active: false, disabled_at: expect.any(String) })
        expect((yield* api(h, s, "GET", `/discount-codes/${String(spring.id)}`)).body.discount_code).toEqual(
          disabled.discountCode
        )
        // Turning it off again answers it as it is.
        expect(yield* codes({ action: "disable_code", codeId: spring.id })).toEqual(disabled)
      })
    )

    it.effect("refuses a discount code's broken rules naming the tool's fields, and what is not the store's", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const product = yield* pricedDraft(h, s)
        const codes = (args: Row) => h.tool(s.token, "svc_manage_sales", args)
        const create = (fields: Row) =>
          codes({ action: "create_code", productId: product, kind: "percent", value: 10, ...fields })

        expect(yield* codes({ action: "create_code", productId: product, value: 10 })).toMatchObject({
          ok: false,
          status: "invalid",
          message: "kind is needed for action create_code",
          errors: [{ path: "kind" }]
        })
        expect(yield* codes({ action: "get_code" })).toMatchObject({ status: "invalid", errors: [{ path: "codeId" }] })
        expect(yield* codes({ action: "disable_code" })).toMatchObject({
          status: "invalid",
          errors: [{ path: "codeId" }]
        })

        // Every broken rule at once, each on the tool's own field and in the tool's own words.
        const broken = yield* create({ value: 150, code: "no spaces", expiresAt: "2001-01-01" })
        expect(broken).toMatchObject({ ok: false, status: "invalid" })
        expect((broken.errors as Array<Row>).map((problem) => problem.path)).toEqual(["value", "code", "expiresAt"])
        expect(broken.message).toContain("expiresAt must be in the future")
        expect(broken.message).not.toContain("expires_at")
        // The cap's limits are the tool schema's own.
        expect(yield* create({ maxUses: 0 })).toMatchObject({ status: "invalid", errors: [{ path: "maxUses" }] })

        // A free product needs no code: the refusal names the product field and the tool that changes it.
        const free = yield* pricedDraft(h, s, {})
        const onFree = yield* create({ productId: free })
        expect(onFree).toMatchObject({ status: "invalid", errors: [{ path: "productId" }] })
        expect(onFree.message).toContain("svc_save_custom_ai_product")
        expect(yield* create({ productId: "prod_nope" })).toMatchObject({
          status: "not-found",
          message: expect.stringContaining("svc_get_custom_ai_product")
        })

        expect((yield* create({ code: "Summer" })).ok).toBe(true)
        const taken = yield* create({ code: "SUMMER" })
        expect(taken).toMatchObject({ status: "conflict", message: expect.stringContaining("Summer") })
        expect(yield* codes({ action: "get_code", codeId: "dsc_nope" })).toMatchObject({ status: "not-found" })

        // Another store's codes are not found, by id or by code, and nothing of theirs is listed.
        const otherStore = yield* h.seller()
        const elsewhere = (args: Row) => h.tool(otherStore.token, "svc_manage_sales", args)
        expect(yield* elsewhere({ action: "get_code", codeId: "summer" })).toMatchObject({ status: "not-found" })
        expect(yield* elsewhere({ action: "disable_code", codeId: "summer" })).toMatchObject({ status: "not-found" })
        expect(yield* elsewhere({ action: "list_codes" })).toEqual({ ok: true, discountCodes: [] })
        expect(((yield* codes({ action: "get_code", codeId: "summer" })).discountCode as Row).active).toBe(true)
      })
    )

    it.effect("lets a Store-read key read sales through the API but not change them through the tool", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const reader = yield* h.seller({ access: { kind: "custom", parts: { store: "read" } } })
        const refused = yield* h.tool(reader.token, "svc_manage_sales", {
          action: "record",
          event: "sale",
          productId: "prod_x",
          email: "x@example.com"
        })
        expect(refused).toMatchObject({ ok: false, status: "forbidden" })
        expect(refused.message).toMatch(/may only read/)
        expect(
          yield* h.tool(reader.token, "svc_manage_sales", { action: "refund", saleId: "purchase:x" })
        ).toMatchObject({ ok: false, status: "forbidden" })
        expect((yield* api(h, reader, "GET", "/sales")).status).toBe(200)
        // Discount codes too: the tool is a write tool, so every action of it is refused, as the docs say.
        for (const args of [
          { action: "create_code", productId: "prod_x", kind: "percent", value: 10 },
          { action: "disable_code", codeId: "SPRING" },
          { action: "list_codes" }
        ]) {
          const codeRefusal = yield* h.tool(reader.token, "svc_manage_sales", args)
          expect(codeRefusal).toMatchObject({ ok: false, status: "forbidden" })
          expect(codeRefusal.message).toBe(
            "svc_manage_sales changes data and this credential may only read store; use a key with edit access"
          )
        }
        expect((yield* api(h, reader, "GET", "/discount-codes")).status).toBe(200)
        const free = yield* h.seller({ plan: "free" })
        const plan = yield* h.tool(free.token, "svc_manage_sales", { action: "list" })
        expect(plan).toMatchObject({ ok: false, status: "forbidden" })
        expect(plan.message).toMatch(/Starter plan/)
      })
    )
  }
)
