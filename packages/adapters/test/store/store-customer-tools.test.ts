import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { StoreTagging } from "@svc/core/store"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Seller = Effect.Effect.Success<ReturnType<Harness["seller"]>>

/** A published product of the seller (a new Custom AI each time), made through the store API. */
const liveProduct = (h: Harness, s: Seller, customAiId?: string, fields: Record<string, unknown> = {}) =>
  h.liveProduct(s, { customAiId, fields })

const emailsOf = (answer: Record<string, unknown>) =>
  (answer.customers as ReadonlyArray<{ email: string }>).map((c) => c.email).sort()

const count = (h: Harness, table: "store_customers" | "store_access", workspaceId: string) =>
  h.setUp(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      table === "store_customers"
        ? sql<{ n: number | string }>`SELECT count(*) AS n FROM store_customers WHERE workspace_id = ${workspaceId}`
        : sql<{ n: number | string }>`SELECT count(*) AS n FROM store_access
                                     WHERE workspace_id = ${workspaceId} AND state <> 'none'`
    ).pipe(
      Effect.map((rows) => Number(rows[0]?.n)),
      Effect.orDie
    )
  )

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store customer tools (${engineName})`,
  (it) => {
    it.effect(
      "lists customers with filters and paging as GET /customers, and reads one as GET /customers/<email>",
      () =>
        Effect.gen(function* () {
          const h = yield* StoreTest
          const s = yield* h.seller()
          const a = yield* liveProduct(h, s, s.customAiId)
          const b = yield* liveProduct(h, s)
          for (const [product, email] of [
            [a, "ann@example.com"],
            [b, "bob@example.com"],
            [a, "cid@example.com"]
          ] as const) {
            expect(
              (yield* Effect.promise(() => h.call(s.token, "POST", "/customers", { product, email }))).status
            ).toBe(200)
          }
          yield* Effect.promise(() =>
            h.call(s.token, "POST", "/customers/remove-access", { product: a, email: "cid@example.com" })
          )
          yield* h.setUp(Effect.flatMap(StoreTagging, (t) => t.tagPerson(s.workspaceId, "ann@example.com", ["VIP"])))

          const first = yield* h.tool(s.token, "svc_list_customers", { limit: 2 })
          expect(first.ok).toBe(true)
          expect(first.customers).toHaveLength(2)
          expect(typeof first.nextCursor).toBe("string")
          const second = yield* h.tool(s.token, "svc_list_customers", { limit: 2, cursor: first.nextCursor })
          expect(second.customers).toHaveLength(1)
          expect(second.nextCursor).toBeUndefined()
          const api = yield* Effect.promise(() => h.call(s.token, "GET", "/customers?limit=3"))
          expect([...(first.customers as Array<unknown>), ...(second.customers as Array<unknown>)]).toEqual(
            api.body.data
          )

          expect(emailsOf(yield* h.tool(s.token, "svc_list_customers", { productId: a }))).toEqual([
            "ann@example.com",
            "cid@example.com"
          ])
          expect(emailsOf(yield* h.tool(s.token, "svc_list_customers", { productId: a, hasAccess: true }))).toEqual([
            "ann@example.com"
          ])
          expect(emailsOf(yield* h.tool(s.token, "svc_list_customers", { hasAccess: false }))).toEqual([
            "cid@example.com"
          ])
          expect(emailsOf(yield* h.tool(s.token, "svc_list_customers", { tag: "vip" }))).toEqual(["ann@example.com"])
          expect(
            emailsOf(yield* h.tool(s.token, "svc_list_customers", { createdAfter: "2999-01-01T00:00:00Z" }))
          ).toEqual([])
          expect(emailsOf(yield* h.tool(s.token, "svc_list_customers", { createdBefore: "2999-01-01" }))).toHaveLength(
            3
          )
          expect(yield* h.tool(s.token, "svc_list_customers", { cursor: "not-a-cursor" })).toMatchObject({
            ok: false,
            status: "invalid"
          })

          const got = yield* h.tool(s.token, "svc_get_customer", { email: "Ann@Example.com" })
          const viaApi = yield* Effect.promise(() => h.call(s.token, "GET", "/customers/ann@example.com"))
          expect(got).toEqual({ ok: true, customer: viaApi.body.customer })
          expect(got.customer).toMatchObject({
            email: "ann@example.com",
            tags: ["VIP"],
            products: [{ product_id: a, has_access: true, how: "added", bundle_id: null, content_links: [] }]
          })
          expect(yield* h.tool(s.token, "svc_get_customer", { email: "nobody@example.com" })).toMatchObject({
            ok: false,
            status: "not-found"
          })
          const other = yield* h.seller()
          expect(yield* h.tool(other.token, "svc_get_customer", { email: "ann@example.com" })).toMatchObject({
            ok: false,
            status: "not-found"
          })
        })
    )

    it.effect("grants, removes and resends as the store API does, with the same answers and events", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const viaTool = yield* h.seller()
        const viaApi = yield* h.seller()
        const toolProduct = yield* liveProduct(h, viaTool, viaTool.customAiId)
        const apiProduct = yield* liveProduct(h, viaApi, viaApi.customAiId)
        const grant = (email: string, extra: Record<string, unknown> = {}) =>
          h.tool(viaTool.token, "svc_manage_customer_access", {
            action: "grant",
            productId: toolProduct,
            email,
            ...extra
          })
        const apiAdd = (email: string, extra: Record<string, unknown> = {}) =>
          Effect.promise(() => h.call(viaApi.token, "POST", "/customers", { product: apiProduct, email, ...extra }))

        const granted = yield* grant("gift@example.com", { name: "Gift" })
        const added = yield* apiAdd("gift@example.com", { name: "Gift" })
        expect(granted).toMatchObject({ ok: true, status: "added" })
        expect(added.body).toEqual({ ok: true, status: "added" })
        expect(granted.customer).toMatchObject({ email: "gift@example.com", name: "Gift", has_access: true })
        expect((yield* grant("gift@example.com")).status).toBe("already_has_access")
        expect((yield* apiAdd("gift@example.com")).body.status).toBe("already_has_access")

        const removed = yield* h.tool(viaTool.token, "svc_manage_customer_access", {
          action: "remove",
          productId: toolProduct,
          email: "gift@example.com"
        })
        expect(removed).toMatchObject({ ok: true, status: "removed", customer: { has_access: false } })
        const apiRemoved = yield* Effect.promise(() =>
          h.call(viaApi.token, "POST", "/customers/remove-access", { product: apiProduct, email: "gift@example.com" })
        )
        expect(apiRemoved.body).toEqual({ ok: true, status: "removed" })
        // A switched-off person stays off: the API rejects the grant, the tool answers conflict.
        const off = yield* grant("gift@example.com")
        expect(off).toMatchObject({ ok: false, status: "conflict" })
        expect(off.message).toContain("access_off")
        expect((yield* apiAdd("gift@example.com")).body).toMatchObject({ ok: false, reason: "access_off" })

        expect((yield* grant("pal@example.com", { sendEmail: false })).status).toBe("added")
        expect((yield* apiAdd("pal@example.com", { send_email: false })).body.status).toBe("added")
        const resend = (token: string, productId: string) =>
          h.tool(token, "svc_manage_customer_access", { action: "resend_email", productId, email: "pal@example.com" })
        expect(yield* resend(viaTool.token, toolProduct)).toMatchObject({
          ok: true,
          status: "sent",
          customer: { email: "pal@example.com" }
        })
        const again = yield* resend(viaTool.token, toolProduct)
        expect(again).toMatchObject({ ok: false, status: "conflict" })
        expect(again.message).toMatch(/retry after \d+ s/)
        const apiResend = () =>
          Effect.promise(() =>
            h.call(viaApi.token, "POST", "/customers/access-email", { product: apiProduct, email: "pal@example.com" })
          )
        expect((yield* apiResend()).status).toBe(200)
        expect((yield* apiResend()).status).toBe(429)
        const mails = (s: Seller) => Effect.map(h.outbox(s.workspaceId), (rows) => rows.map((r) => r.recipient))
        expect(yield* mails(viaTool)).toEqual(yield* mails(viaApi))

        const events = (s: Seller, product: string) =>
          Effect.map(h.events(s.workspaceId), (rows) =>
            rows
              .filter((e) => e.type.startsWith("customer."))
              .map((e) => ({
                type: e.type,
                // Each face's own product id and time; everything else must match.
                data: { ...e.data, product_id: e.data.product_id === product, created_at: "" } as Record<
                  string,
                  unknown
                >
              }))
          )
        const toolEvents = yield* events(viaTool, toolProduct)
        expect(toolEvents.map((e) => e.data.email)).toEqual(["gift@example.com", "pal@example.com"])
        expect(toolEvents).toEqual(yield* events(viaApi, apiProduct))

        expect(yield* grant("x@example.com", { productId: apiProduct })).toMatchObject({
          ok: false,
          status: "not-found"
        })
        expect(yield* grant("not-an-email")).toMatchObject({ ok: false, status: "invalid" })
        expect(
          yield* h.tool(viaTool.token, "svc_manage_customer_access", {
            action: "remove",
            productId: toolProduct,
            email: "never@example.com"
          })
        ).toMatchObject({ ok: false, status: "not-found" })
        expect(
          yield* h.tool(viaTool.token, "svc_manage_customer_access", {
            action: "remove",
            productId: toolProduct,
            email: "pal@example.com",
            sendEmail: true
          })
        ).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "sendEmail" }] })
        const draftAi = yield* viaTool.newCustomAi()
        const draft = yield* Effect.promise(() => h.call(viaTool.token, "POST", "/products", { custom_ai_id: draftAi }))
        const notLive = yield* grant("x@example.com", { productId: (draft.body.product as { id: string }).id })
        expect(notLive).toMatchObject({ ok: false, status: "conflict" })
        expect(notLive.message).toContain("product_not_live")
      })
    )

    it.effect(
      "imports 500 customers twice: one event per person the first time, nothing the second",
      () =>
        Effect.gen(function* () {
          const h = yield* StoreTest
          const s = yield* h.seller()
          const a = yield* liveProduct(h, s, s.customAiId)
          const b = yield* liveProduct(h, s)
          const rows = Array.from({ length: 500 }, (_, i) => ({
            email: `person${i}@example.com`,
            name: `Person ${i}`,
            productId: i % 2 === 0 ? a : b,
            tags: i % 5 === 0 ? ["Imported", "fifth"] : ["imported"]
          }))
          const first = yield* h.tool(s.token, "svc_import_customers", { rows })
          expect(first.ok).toBe(true)
          const results = first.results as ReadonlyArray<{ row: number; email: string; status: string }>
          expect(results).toHaveLength(500)
          expect(results.every((r, i) => r.row === i && r.status === "added" && r.email === rows[i]?.email)).toBe(true)
          const created = (yield* h.events(s.workspaceId)).filter((e) => e.type === "customer.created")
          expect(created).toHaveLength(500)
          expect(created.every((e) => e.data.how === "imported")).toBe(true)
          const recent = yield* Effect.promise(() => h.call(s.token, "GET", "/customers/recent"))
          expect(recent.status).toBe(200)
          expect((recent.body.customers as ReadonlyArray<{ how: string }>).every((c) => c.how === "imported")).toBe(
            true
          )
          // Imports send no access email unless asked to.
          expect(yield* h.outbox(s.workspaceId)).toHaveLength(0)

          const second = yield* h.tool(s.token, "svc_import_customers", { rows })
          expect(
            (second.results as ReadonlyArray<{ status: string }>).every((r) => r.status === "already_has_access")
          ).toBe(true)
          expect((yield* h.events(s.workspaceId)).filter((e) => e.type === "customer.created")).toHaveLength(500)
          expect(yield* count(h, "store_customers", s.workspaceId)).toBe(500)
          expect(yield* count(h, "store_access", s.workspaceId)).toBe(500)

          const fifth = yield* h.tool(s.token, "svc_list_customers", { tag: "FIFTH", limit: 100 })
          expect(fifth.customers).toHaveLength(100)
          expect(fifth.nextCursor).toBeUndefined()
          const person = yield* h.tool(s.token, "svc_get_customer", { email: "person5@example.com" })
          expect(person.customer).toMatchObject({
            name: "Person 5",
            tags: ["fifth", "Imported"],
            products: [{ product_id: b, how: "imported", has_access: true }]
          })
        }),
      // 500 people imported twice: 40 s beside three other test files on a busy 2-core CI machine.
      120_000
    )

    it.effect("imports the good rows of an import with bad ones and reports each bad row", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const other = yield* h.seller()
        const product = yield* liveProduct(h, s, s.customAiId)
        const foreign = yield* liveProduct(h, other, other.customAiId)
        const draftAi = yield* s.newCustomAi()
        const draft = (
          (yield* Effect.promise(() => h.call(s.token, "POST", "/products", { custom_ai_id: draftAi }))).body
            .product as { id: string }
        ).id
        const single = yield* liveProduct(h, s, undefined, { quantity_limit: 1 })
        yield* Effect.promise(() =>
          h.call(s.token, "POST", "/customers", { product: single, email: "first@example.com" })
        )
        yield* Effect.promise(() => h.call(s.token, "POST", "/customers", { product, email: "off@example.com" }))
        yield* Effect.promise(() =>
          h.call(s.token, "POST", "/customers/remove-access", { product, email: "off@example.com" })
        )
        const answer = yield* h.tool(s.token, "svc_import_customers", {
          sendEmail: true,
          rows: [
            { email: "good@example.com", productId: product, tags: ["new"] },
            { email: "not an email", productId: product, tags: ["ghost"] },
            { email: "lost@example.com", productId: "prod_nope", tags: ["ghost"] },
            { email: "spy@example.com", productId: foreign },
            { email: "early@example.com", productId: draft },
            { email: "Good@Example.com", productId: product },
            { email: "off@example.com", productId: product },
            { email: "also@example.com", productId: product, name: "Also" },
            { email: "late@example.com", productId: single }
          ]
        })
        expect(answer.ok).toBe(true)
        const lines = answer.results as ReadonlyArray<{ row: number; status: string; reason?: string }>
        expect(lines.map((l) => [l.row, l.status])).toEqual([
          [0, "added"],
          [1, "invalid"],
          [2, "invalid"],
          [3, "invalid"],
          [4, "invalid"],
          [5, "already_has_access"],
          [6, "access_off"],
          [7, "added"],
          [8, "invalid"]
        ])
        expect(lines[1]?.reason).toContain("email")
        expect(lines[2]?.reason).toContain("prod_nope")
        expect(lines[3]?.reason).toContain(foreign)
        expect(lines[4]?.reason).toContain("product_not_live")
        expect(lines[8]?.reason).toContain("sold_out")
        expect(emailsOf(yield* h.tool(s.token, "svc_list_customers", { hasAccess: true }))).toEqual([
          "also@example.com",
          "first@example.com",
          "good@example.com"
        ])
        expect((yield* h.outbox(s.workspaceId)).map((m) => m.recipient)).toEqual([
          "first@example.com",
          "off@example.com",
          "good@example.com",
          "also@example.com"
        ])
        expect(yield* count(h, "store_customers", other.workspaceId)).toBe(0)
        // Refused rows leave no tag behind.
        const tagNames = yield* h.setUp(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) => sql<{ name: string }>`SELECT name FROM store_tags WHERE workspace_id = ${s.workspaceId}`
          ).pipe(Effect.orDie)
        )
        expect(tagNames.map((t) => t.name)).toEqual(["new"])

        const tooMany = Array.from({ length: 1001 }, (_, i) => ({ email: `p${i}@example.com`, productId: product }))
        expect(yield* h.tool(s.token, "svc_import_customers", { rows: tooMany })).toMatchObject({
          ok: false,
          status: "invalid"
        })
        expect(yield* h.tool(s.token, "svc_import_customers", { rows: [] })).toMatchObject({
          ok: false,
          status: "invalid"
        })
        expect(yield* count(h, "store_customers", s.workspaceId)).toBe(4)
      })
    )

    it.effect("lets a Store-read key list and read customers, and refuses it access changes and imports", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const reader = yield* h.seller({ access: { kind: "custom", parts: { store: "read" } } })
        expect(yield* h.tool(reader.token, "svc_list_customers", {})).toEqual({ ok: true, customers: [] })
        expect(yield* h.tool(reader.token, "svc_get_customer", { email: "a@example.com" })).toMatchObject({
          ok: false,
          status: "not-found"
        })
        const args = { action: "grant", productId: "prod_x", email: "a@example.com" }
        expect(yield* h.tool(reader.token, "svc_manage_customer_access", args)).toMatchObject({
          ok: false,
          status: "forbidden"
        })
        expect(
          yield* h.tool(reader.token, "svc_import_customers", { rows: [{ email: "a@example.com", productId: "p" }] })
        ).toMatchObject({ ok: false, status: "forbidden" })
        const free = yield* h.seller({ plan: "free" })
        const refused = yield* h.tool(free.token, "svc_list_customers", {})
        expect(refused).toMatchObject({ ok: false, status: "forbidden" })
        expect(refused.message).toContain("Starter")
      })
    )
  }
)
