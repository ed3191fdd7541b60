import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { ContentLinksRepo } from "@svc/core/store"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Seller = Effect.Effect.Success<ReturnType<Harness["seller"]>>
type Link = { readonly id: string; readonly title: string; readonly url: string; readonly position: number }

/** A published product of the seller (a new Custom AI each time), made through the store API. */
const liveProduct = (h: Harness, s: Seller, customAiId?: string) => h.liveProduct(s, { customAiId })

const linksOf = (answer: Record<string, unknown>) => answer.links as ReadonlyArray<Link>

/** The access emails' bodies sent to `to`, oldest first. */
const mailBodies = (h: Harness, workspaceId: string, to: string) =>
  h.setUp(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ body: string }>`SELECT body FROM mail_outbox
                 WHERE workspace_id = ${workspaceId} AND recipient = ${to} AND kind = 'store.access'
                 ORDER BY created_at, id`
    ).pipe(
      Effect.map((rows) => rows.map((r) => r.body)),
      Effect.orDie
    )
  )

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store content links (${engineName})`,
  (it) => {
    it.effect("adds, lists, reorders and removes a product's links", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const productId = yield* liveProduct(h, s, s.customAiId)
        const manage = (args: Record<string, unknown>) =>
          h.tool(s.token, "svc_manage_content_links", { productId, ...args })

        expect(yield* manage({ action: "list" })).toEqual({ ok: true, links: [] })
        yield* manage({ action: "add", title: "Workbook", url: "https://example.com/workbook.pdf" })
        yield* manage({ action: "add", title: " Videos ", url: "http://example.com/videos" })
        const three = linksOf(yield* manage({ action: "add", title: "Community", url: "https://example.com/chat" }))
        expect(three.map((l) => [l.title, l.url, l.position])).toEqual([
          ["Workbook", "https://example.com/workbook.pdf", 0],
          ["Videos", "http://example.com/videos", 1],
          ["Community", "https://example.com/chat", 2]
        ])
        expect(three.every((l) => l.id.startsWith("link_"))).toBe(true)
        const [workbook, videos, community] = three.map((l) => l.id)

        const reordered = linksOf(yield* manage({ action: "reorder", linkIds: [community, workbook, videos] }))
        expect(reordered.map((l) => [l.id, l.position])).toEqual([
          [community, 0],
          [workbook, 1],
          [videos, 2]
        ])
        expect(linksOf(yield* manage({ action: "list" }))).toEqual(reordered)

        const removed = linksOf(yield* manage({ action: "remove", linkId: workbook }))
        expect(removed.map((l) => [l.id, l.position])).toEqual([
          [community, 0],
          [videos, 1]
        ])
        expect(yield* manage({ action: "remove", linkId: workbook })).toMatchObject({ ok: false, status: "not-found" })
        const added = linksOf(yield* manage({ action: "add", title: "Bonus", url: "https://example.com/bonus" }))
        expect(added.map((l) => [l.title, l.position])).toEqual([
          ["Community", 0],
          ["Videos", 1],
          ["Bonus", 2]
        ])
      })
    )

    it.effect("refuses bad links, wrong orders, unknown and other stores' products, and a 51st link", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const other = yield* h.seller()
        const productId = yield* liveProduct(h, s, s.customAiId)
        const foreign = yield* liveProduct(h, other, other.customAiId)
        const manage = (args: Record<string, unknown>) =>
          h.tool(s.token, "svc_manage_content_links", { productId, ...args })
        const refusedOn = (args: Record<string, unknown>, path: string) =>
          Effect.map(manage(args), (answer) => {
            expect(answer).toMatchObject({ ok: false, status: "invalid" })
            expect((answer.errors as ReadonlyArray<{ path: string }>).map((e) => e.path)).toContain(path)
          })

        yield* refusedOn({ action: "add", title: "  ", url: "https://example.com" }, "title")
        yield* refusedOn({ action: "add", title: "x".repeat(201), url: "https://example.com" }, "title")
        yield* refusedOn({ action: "add", title: "Files", url: "ftp://example.com/files" }, "url")
        yield* refusedOn({ action: "add", title: "Files", url: "not a link" }, "url")
        yield* refusedOn({ action: "add", title: "Files", url: `https://example.com/${"a".repeat(2000)}` }, "url")
        yield* refusedOn({ action: "add", url: "https://example.com" }, "title")
        yield* refusedOn({ action: "list", linkId: "link_x" }, "linkId")
        yield* refusedOn({ action: "reorder" }, "linkIds")
        yield* refusedOn({ action: "remove" }, "linkId")
        expect(linksOf(yield* manage({ action: "list" }))).toEqual([])

        const one = linksOf(yield* manage({ action: "add", title: "One", url: "https://example.com/1" }))
        const two = linksOf(yield* manage({ action: "add", title: "Two", url: "https://example.com/2" }))
        const [a, b] = two.map((l) => l.id)
        yield* refusedOn({ action: "reorder", linkIds: [a] }, "linkIds")
        yield* refusedOn({ action: "reorder", linkIds: [a, a] }, "linkIds")
        yield* refusedOn({ action: "reorder", linkIds: [a, b, a] }, "linkIds")
        expect(yield* manage({ action: "reorder", linkIds: [b, "link_nope"] })).toMatchObject({
          ok: false,
          status: "not-found"
        })
        expect(linksOf(yield* manage({ action: "list" }))).toEqual(two)
        expect(one).toHaveLength(1)

        expect(yield* manage({ action: "list", productId: "prod_nope" })).toMatchObject({
          ok: false,
          status: "not-found"
        })
        expect(
          yield* manage({ action: "add", productId: foreign, title: "Spy", url: "https://example.com" })
        ).toMatchObject({ ok: false, status: "not-found" })
        expect(yield* manage({ action: "remove", productId: foreign, linkId: a })).toMatchObject({
          ok: false,
          status: "not-found"
        })

        // Fill the product to one short of the limit through the repository; of three adds at once one gets the
        // last place, then the tool refuses any more.
        const now = new Date()
        yield* h.setUp(
          Effect.flatMap(ContentLinksRepo, (repo) =>
            Effect.forEach(
              Array.from({ length: 47 }, (_, i) => i),
              (i) =>
                repo.insert({
                  id: `link_fill${i}`,
                  workspaceId: s.workspaceId,
                  productId,
                  title: `Fill ${i}`,
                  url: `https://example.com/fill/${i}`,
                  position: i + 2,
                  createdAt: now,
                  updatedAt: now
                }),
              { discard: true }
            )
          )
        )
        const racing = yield* Effect.all(
          [1, 2, 3].map((n) => manage({ action: "add", title: `Race ${n}`, url: `https://example.com/race/${n}` })),
          { concurrency: "unbounded" }
        )
        expect(racing.filter((answer) => answer.ok === true)).toHaveLength(1)
        expect(racing.filter((answer) => answer.status === "invalid")).toHaveLength(2)
        const filled = linksOf(yield* manage({ action: "list" }))
        expect(filled).toHaveLength(50)
        expect(new Set(filled.map((l) => l.position)).size).toBe(50)
        const full = yield* manage({ action: "add", title: "More", url: "https://example.com/more" })
        expect(full).toMatchObject({ ok: false, status: "invalid" })
        expect(full.message).toContain("50")
        expect(linksOf(yield* manage({ action: "list" }))).toHaveLength(50)

        const reader = yield* h.seller({ access: { kind: "custom", parts: { store: "read" } } })
        expect(yield* h.tool(reader.token, "svc_manage_content_links", { action: "list", productId })).toMatchObject({
          ok: false,
          status: "forbidden"
        })
      })
    )

    it.effect("shows the links in the access email and in the record of people with access only", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const course = yield* liveProduct(h, s, s.customAiId)
        const extra = yield* liveProduct(h, s)
        const manage = (productId: string, args: Record<string, unknown>) =>
          h.tool(s.token, "svc_manage_content_links", { productId, ...args })
        yield* manage(course, { action: "add", title: "Workbook", url: "https://example.com/workbook" })
        yield* manage(course, { action: "add", title: "Videos", url: "https://example.com/videos" })
        yield* manage(extra, { action: "add", title: "Extra", url: "https://example.com/extra" })

        // A grant through the API and one through the tool send the same email, links included.
        yield* Effect.promise(() =>
          h.call(s.token, "POST", "/customers", { product: course, email: "api@example.com" })
        )
        yield* h.tool(s.token, "svc_manage_customer_access", {
          action: "grant",
          productId: course,
          email: "tool@example.com"
        })
        const [viaApi] = yield* mailBodies(h, s.workspaceId, "api@example.com")
        const [viaTool] = yield* mailBodies(h, s.workspaceId, "tool@example.com")
        expect(viaApi).toBe(
          "You have been given access to Coach.\nWorkbook: https://example.com/workbook\nVideos: https://example.com/videos"
        )
        expect(viaTool).toBe(viaApi)

        // The person had `extra` and lost it: its line shows no links.
        yield* Effect.promise(() => h.call(s.token, "POST", "/customers", { product: extra, email: "api@example.com" }))
        yield* Effect.promise(() =>
          h.call(s.token, "POST", "/customers/remove-access", { product: extra, email: "api@example.com" })
        )
        const record = (yield* h.tool(s.token, "svc_get_customer", { email: "api@example.com" })).customer as {
          products: ReadonlyArray<{
            product_id: string
            has_access: boolean
            content_links: unknown
            bundle_id: unknown
          }>
        }
        const line = (id: string) => record.products.find((p) => p.product_id === id)
        expect(line(course)).toMatchObject({
          has_access: true,
          bundle_id: null,
          content_links: [
            { title: "Workbook", url: "https://example.com/workbook" },
            { title: "Videos", url: "https://example.com/videos" }
          ]
        })
        expect(line(extra)).toMatchObject({ has_access: false, content_links: [] })
        const api = yield* Effect.promise(() => h.call(s.token, "GET", "/customers/api@example.com"))
        expect(api.body.customer).toEqual(record)
        const found = yield* Effect.promise(() => h.call(s.token, "GET", "/customers/find?email=api@example.com"))
        expect((found.body.customers as ReadonlyArray<{ access: unknown }>)[0]?.access).toEqual(record.products)
        const listed = yield* h.tool(s.token, "svc_list_customers", { productId: course })
        expect(listed.customers).toContainEqual(record)

        // A resend carries the links as they are now.
        yield* manage(course, {
          action: "reorder",
          linkIds: linksOf(yield* manage(course, { action: "list" }))
            .map((l) => l.id)
            .reverse()
        })
        yield* h.tool(s.token, "svc_manage_customer_access", {
          action: "resend_email",
          productId: course,
          email: "tool@example.com"
        })
        const bodies = yield* mailBodies(h, s.workspaceId, "tool@example.com")
        expect(bodies[1]).toBe(
          "Here is your access to Coach again.\nVideos: https://example.com/videos\nWorkbook: https://example.com/workbook"
        )
      })
    )
  }
)
