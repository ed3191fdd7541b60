import { expect, layer } from "@effect/vitest"
import { ApiKeys } from "@svc/core/auth"
import { resolveStoreCaller, StoreCohorts } from "@svc/core/store"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Seller = Effect.Effect.Success<ReturnType<Harness["seller"]>>
type Row = Record<string, unknown>

/** A published product of the seller (a new Custom AI each time), made through the store API. */
const liveProduct = (h: Harness, s: Seller) => h.liveProduct(s)

const api = (h: Harness, s: Seller, method: string, path: string, body?: unknown) =>
  Effect.promise(() => h.call(s.token, method, path, body))

const withoutIds = (cohort: unknown) => {
  const { id, product_id, created_at, ...rest } = cohort as Row
  return { ...rest, id: typeof id, product_id: typeof product_id, created_at: typeof created_at }
}

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store cohort tools (${engineName})`,
  (it) => {
    it.effect("creates a cohort through the tool as POST /products/<id>/cohorts does, and lists them alike", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const product = yield* liveProduct(h, s)
        const events0 = (yield* h.events(s.workspaceId)).length

        const viaTool = yield* h.tool(s.token, "svc_manage_cohorts", {
          action: "create",
          productId: product,
          name: " Spring ",
          capacity: 20,
          startsOn: "2026-03-02"
        })
        expect(viaTool).toMatchObject({ ok: true, status: "created", cohort: { name: "Spring", members: 0 } })
        const viaApi = yield* api(h, s, "POST", `/products/${product}/cohorts`, {
          name: " Spring ",
          capacity: 20,
          starts_on: "2026-03-02"
        })
        expect(viaApi.status).toBe(201)
        expect(viaApi.body.ok).toBe(true)
        expect(withoutIds(viaTool.cohort)).toEqual(withoutIds(viaApi.body.cohort))
        expect(withoutIds(viaTool.cohort)).toEqual({
          id: "string",
          product_id: "string",
          created_at: "string",
          name: "Spring",
          capacity: 20,
          starts_on: "2026-03-02",
          members: 0,
          spots_left: 20,
          full: false
        })
        const open = yield* api(h, s, "POST", `/products/${product}/cohorts`, { name: "Open" })
        expect(open.body.cohort).toMatchObject({ capacity: null, starts_on: null, spots_left: null })
        // Creating a cohort records no event, on either face.
        expect((yield* h.events(s.workspaceId)).length).toBe(events0)

        const listed = yield* h.tool(s.token, "svc_manage_cohorts", { action: "list", productId: product })
        expect(listed.cohorts).toEqual((yield* api(h, s, "GET", `/products/${product}/cohorts`)).body.cohorts)
        expect(listed.cohorts).toHaveLength(3)

        // Bad input on both faces, nothing created.
        const tool = (args: Row) => h.tool(s.token, "svc_manage_cohorts", args)
        expect(yield* tool({ action: "create", productId: product })).toMatchObject({
          status: "invalid",
          errors: [{ path: "name" }]
        })
        expect(yield* tool({ action: "create", productId: product, name: "X", capacity: 0 })).toMatchObject({
          status: "invalid",
          errors: [{ path: "capacity" }]
        })
        expect(yield* tool({ action: "create", productId: product, name: "X", startsOn: "2026-02-30" })).toMatchObject({
          status: "invalid",
          errors: [{ path: "startsOn" }]
        })
        expect(yield* tool({ action: "create", productId: "prod_nope", name: "X" })).toMatchObject({
          status: "not-found"
        })
        expect(yield* tool({ action: "list" })).toMatchObject({ status: "invalid", errors: [{ path: "productId" }] })
        expect((yield* api(h, s, "POST", `/products/${product}/cohorts`, { name: "X", capacity: 0 })).status).toBe(422)
        expect((yield* api(h, s, "POST", `/products/${product}/cohorts`, { name: "X", seats: 2 })).status).toBe(422)
        expect((yield* api(h, s, "POST", "/products/prod_nope/cohorts", { name: "X" })).status).toBe(404)

        // Another store's product is not-found, never forbidden.
        const other = yield* h.seller()
        expect(
          yield* h.tool(other.token, "svc_manage_cohorts", { action: "create", productId: product, name: "X" })
        ).toMatchObject({ status: "not-found" })
        expect((yield* api(h, other, "POST", `/products/${product}/cohorts`, { name: "X" })).status).toBe(404)
        expect(
          (yield* h.tool(s.token, "svc_manage_cohorts", { action: "list", productId: product })).cohorts
        ).toHaveLength(3)
      })
    )

    it.effect("updates a cohort (cap, name, start) and moves buyers in, with over_cap as the API", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const product = yield* liveProduct(h, s)
        const tool = (args: Row) => h.tool(s.token, "svc_manage_cohorts", args)
        const created = yield* tool({ action: "create", productId: product, name: "Small", capacity: 1 })
        const cohortId = (created.cohort as Row).id as string
        for (const email of ["ann@example.com", "bob@example.com"]) {
          expect(
            (yield* api(h, s, "POST", "/sales", { event: "sale", product, email, order_id: `o-${email}` })).body
          ).toEqual({ ok: true, status: "granted" })
        }
        const move = (email: string, extra: Row = {}) =>
          tool({ action: "move", productId: product, cohortId, email, ...extra })

        expect(yield* move("Ann@Example.com")).toMatchObject({
          ok: true,
          status: "moved",
          cohort: { id: cohortId, members: 1, full: true }
        })
        expect(yield* move("ann@example.com")).toMatchObject({ ok: true, status: "already_in_cohort" })
        const full = yield* move("bob@example.com")
        expect(full).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "cohortId" }] })
        expect(full.message).toMatch(/is full: 1 of 1 .*over_cap: true/)
        expect(yield* move("bob@example.com", { overCap: true })).toMatchObject({
          status: "moved",
          cohort: { members: 2, spots_left: 0, full: true }
        })
        expect(yield* move("nobody@example.com")).toMatchObject({ status: "not-found" })
        const signups = (yield* h.events(s.workspaceId)).filter((e) => e.type === "cohort_signup.created")
        expect(signups.map((e) => [e.data.email, e.data.over_cap])).toEqual([
          ["ann@example.com", false],
          ["bob@example.com", true]
        ])

        // A cap below the people already in it is refused; null removes it.
        expect(yield* tool({ action: "update", cohortId, capacity: 1 })).toMatchObject({
          status: "invalid",
          errors: [{ path: "capacity" }]
        })
        expect(
          yield* tool({ action: "update", cohortId, capacity: null, name: "Big", startsOn: "2026-05-04" })
        ).toEqual({
          ok: true,
          status: "updated",
          cohort: expect.objectContaining({
            id: cohortId,
            name: "Big",
            capacity: null,
            starts_on: "2026-05-04",
            members: 2,
            spots_left: null,
            full: false
          })
        })
        expect(yield* tool({ action: "update", cohortId, capacity: 3, startsOn: null })).toMatchObject({
          cohort: { capacity: 3, spots_left: 1, starts_on: null, name: "Big" }
        })
        expect(yield* tool({ action: "update", cohortId })).toMatchObject({ status: "invalid" })
        expect(yield* tool({ action: "update", cohortId, name: "" })).toMatchObject({ status: "invalid" })
        expect(yield* tool({ action: "update", capacity: 4 })).toMatchObject({
          status: "invalid",
          errors: [{ path: "cohortId" }]
        })
        expect(yield* tool({ action: "update", cohortId: "coh_nope", capacity: 4 })).toMatchObject({
          status: "not-found"
        })
        const listed = (yield* api(h, s, "GET", `/products/${product}/cohorts`)).body.cohorts as Array<Row>
        expect(listed[0]).toMatchObject({ id: cohortId, name: "Big", capacity: 3, members: 2 })

        // Another store cannot see or change the cohort.
        const other = yield* h.seller()
        expect(
          yield* h.tool(other.token, "svc_manage_cohorts", { action: "update", cohortId, capacity: 9 })
        ).toMatchObject({ status: "not-found" })
        expect(
          yield* h.tool(other.token, "svc_manage_cohorts", {
            action: "move",
            productId: product,
            cohortId,
            email: "ann@example.com"
          })
        ).toMatchObject({ status: "not-found" })
        expect((yield* api(h, s, "GET", `/products/${product}/cohorts`)).body.cohorts).toEqual(listed)
      })
    )

    it.effect("refuses cohort creation and changes to automation connections, as other product changes", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const product = yield* liveProduct(h, s)
        const existing = yield* h.tool(s.token, "svc_manage_cohorts", {
          action: "create",
          productId: product,
          name: "A"
        })
        const cohortId = (existing.cohort as Row).id as string
        yield* api(h, s, "POST", "/sales", { event: "sale", product, email: "ann@example.com", order_id: "o-1" })
        const outcome = yield* h.setUp(
          Effect.gen(function* () {
            const principal = yield* (yield* ApiKeys).authenticate(s.token)
            const automation = yield* resolveStoreCaller(
              { ...principal, credential: { kind: "oauth", id: "tok_1" }, reach: "account" },
              true
            )
            const cohorts = yield* StoreCohorts
            return {
              create: yield* Effect.flip(cohorts.createFor(automation, { productId: product, name: "B" })),
              update: yield* Effect.flip(cohorts.update(automation, cohortId, { name: "C" })),
              // Moving a buyer is managing customers, which automation connections may do.
              move: yield* cohorts.move(automation, { productId: product, email: "ann@example.com", cohortId })
            }
          })
        )
        expect(outcome.create).toMatchObject({ _tag: "StoreAccessDenied", code: "automation_connection" })
        expect(outcome.update).toMatchObject({ _tag: "StoreAccessDenied", code: "automation_connection" })
        expect(outcome.move).toMatchObject({ status: "moved" })
        const listed = (yield* api(h, s, "GET", `/products/${product}/cohorts`)).body.cohorts as Array<Row>
        expect(listed.map((c) => [c.name, c.members])).toEqual([["A", 1]])
      })
    )

    it.effect("lets a Store-read key list cohorts through the API but not create them on either face", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const reader = yield* h.seller({ access: { kind: "custom", parts: { store: "read" } } })
        const refused = yield* h.tool(reader.token, "svc_manage_cohorts", {
          action: "create",
          productId: "prod_x",
          name: "X"
        })
        expect(refused).toMatchObject({ ok: false, status: "forbidden" })
        const posted = yield* api(h, reader, "POST", "/products/prod_x/cohorts", { name: "X" })
        expect(posted.status).toBe(403)
        expect((yield* api(h, reader, "GET", "/products/prod_x/cohorts")).status).toBe(404)
      })
    )
  }
)
