import { expect, layer } from "@effect/vitest"
import { ApiKeys } from "@svc/core/auth"
import { StoreCohorts, StoreTagging } from "@svc/core/store"
import { Effect, Exit } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Call = StoreTest["Type"]["call"]

const live = (call: Call, token: string, customAiId: string, fields: Record<string, unknown> = {}) =>
  Effect.promise(async () => {
    const created = await call(token, "POST", "/products", { custom_ai_id: customAiId, ...fields })
    const id = (created.body.product as { id: string }).id
    const published = await call(token, "POST", `/products/${id}/publish`)
    if (published.status !== 200) throw new Error(JSON.stringify(published.body))
    return id
  })

const request = (call: Call, token: string, method: string, path: string, body?: unknown) =>
  Effect.promise(() => call(token, method, path, body))

const newCohort = (
  workspaceId: string,
  productId: string,
  name: string,
  options: { capacity?: number; startsOn?: string } = {}
) =>
  Effect.flatMap(StoreCohorts, (cohorts) =>
    cohorts.create(workspaceId, {
      productId,
      name,
      capacity: options.capacity ?? null,
      startsOn: options.startsOn ?? null
    })
  )

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(`store cohorts (${engineName})`, (it) => {
  it.effect("lists a product's cohorts and moves buyers with access in, refusing a full cohort unless over_cap", () =>
    Effect.gen(function* () {
      const { call, seller, setUp } = yield* StoreTest
      const s = yield* seller()
      const product = yield* live(call, s.token, s.customAiId)
      const spring = yield* setUp(newCohort(s.workspaceId, product, "Spring", { capacity: 1, startsOn: "2026-03-02" }))
      const open = yield* setUp(newCohort(s.workspaceId, product, "Open"))
      const early = yield* setUp(newCohort(s.workspaceId, product, "Winter", { startsOn: "2026-01-05" }))
      expect(spring).toMatchObject({
        id: expect.stringMatching(/^coh_/),
        capacity: 1,
        startsOn: "2026-03-02",
        members: 0
      })

      const listed = yield* request(call, s.token, "GET", `/products/${product}/cohorts`)
      expect(listed.status).toBe(200)
      expect((listed.body.cohorts as Array<{ id: string }>).map((c) => c.id)).toEqual([early.id, spring.id, open.id])
      expect((listed.body.cohorts as Array<unknown>)[1]).toEqual({
        id: spring.id,
        product_id: product,
        name: "Spring",
        capacity: 1,
        starts_on: "2026-03-02",
        members: 0,
        spots_left: 1,
        full: false,
        created_at: expect.any(String)
      })

      for (const email of ["ann@example.com", "bo@example.com"]) {
        const sale = yield* request(call, s.token, "POST", "/sales", { event: "sale", product, email, name: "N" })
        expect(sale.body).toEqual({ ok: true, status: "granted" })
      }
      const move = (email: string, cohort: string, extra: Record<string, unknown> = {}) =>
        request(call, s.token, "POST", "/customers/cohort", { product, email, cohort, ...extra })

      const first = yield* move("ann@example.com", spring.id)
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({
        ok: true,
        status: "moved",
        cohort: { id: spring.id, members: 1, spots_left: 0, full: true }
      })
      expect((yield* move("ann@example.com", spring.id)).body).toMatchObject({ ok: true, status: "already_in_cohort" })

      const full = yield* move("bo@example.com", spring.id)
      expect(full.status).toBe(422)
      expect(full.body).toMatchObject({ ok: false, error: "invalid_field", errors: [{ path: "cohort" }] })
      expect(full.body.message).toMatch(/is full: 1 of 1 .*over_cap: true/)
      const forced = yield* move("bo@example.com", spring.id, { over_cap: true })
      expect(forced.body).toMatchObject({
        ok: true,
        status: "moved",
        cohort: { members: 2, spots_left: 0, full: true }
      })

      const moved = yield* move("ann@example.com", open.id)
      expect(moved.body).toMatchObject({
        ok: true,
        status: "moved",
        cohort: { id: open.id, members: 1, capacity: null }
      })
      const after = yield* request(call, s.token, "GET", `/products/${product}/cohorts`)
      expect((after.body.cohorts as Array<{ name: string; members: number }>).map((c) => [c.name, c.members])).toEqual([
        ["Winter", 0],
        ["Spring", 1],
        ["Open", 1]
      ])

      // Only buyers with access, only the product's own cohorts, only this store's ids.
      const stranger = yield* move("nobody@example.com", open.id)
      expect(stranger.status).toBe(404)
      expect(stranger.body.message).toMatch(/no access/)
      yield* request(call, s.token, "POST", "/customers/remove-access", { product, email: "bo@example.com" })
      expect((yield* move("bo@example.com", open.id)).status).toBe(404)
      expect((yield* move("ann@example.com", "coh_nope")).status).toBe(404)
      const other = yield* live(call, s.token, yield* s.newCustomAi())
      const otherCohort = yield* setUp(newCohort(s.workspaceId, other, "Other"))
      expect((yield* move("ann@example.com", otherCohort.id)).status).toBe(404)
      const elsewhere = yield* seller()
      const foreign = yield* request(call, elsewhere.token, "POST", "/customers/cohort", {
        product,
        email: "ann@example.com",
        cohort: open.id
      })
      expect(foreign.status).toBe(404)
      expect((yield* request(call, elsewhere.token, "GET", `/products/${product}/cohorts`)).status).toBe(404)
      const missing = yield* request(call, s.token, "POST", "/customers/cohort", { product, email: "ann@example.com" })
      expect(missing.status).toBe(422)
      const unknownField = yield* move("ann@example.com", open.id, { seats: 2 })
      expect(unknownField.status).toBe(422)

      // Every move is a New Cohort Signup, newest first; the product filter narrows it.
      const feed = yield* request(call, s.token, "GET", "/cohort-signups/recent")
      const signups = feed.body.signups as Array<Record<string, unknown>>
      expect(signups.map((r) => [r.email, r.cohort_name, r.over_cap])).toEqual([
        ["ann@example.com", "Open", false],
        ["bo@example.com", "Spring", true],
        ["ann@example.com", "Spring", false]
      ])
      expect(signups[0]).toEqual({
        id: expect.stringMatching(/^evt_/),
        product_id: product,
        product_title: "Coach",
        cohort_id: open.id,
        cohort_name: "Open",
        starts_on: null,
        email: "ann@example.com",
        name: "N",
        previous_cohort_id: spring.id,
        over_cap: false,
        created_at: expect.any(String)
      })
      expect(new Set(signups.map((r) => r.id)).size).toBe(3)
      const filtered = yield* request(call, s.token, "GET", `/cohort-signups/recent?product=${other}`)
      expect(filtered.body).toEqual({ ok: true, signups: [] })
      const theirs = yield* request(call, elsewhere.token, "GET", "/cohort-signups/recent")
      expect(theirs.body).toEqual({ ok: true, signups: [] })
    })
  )

  it.effect("lets a read key of the store list cohorts but not move buyers", () =>
    Effect.gen(function* () {
      const { call, seller, setUp } = yield* StoreTest
      const s = yield* seller()
      const product = yield* live(call, s.token, s.customAiId)
      const cohort = yield* setUp(newCohort(s.workspaceId, product, "One"))
      const reader = yield* setUp(
        Effect.gen(function* () {
          const keys = yield* ApiKeys
          const owner = yield* keys.authenticate(s.token)
          return yield* keys.create(owner.accountId, { access: { kind: "custom", parts: { store: "read" } } })
        })
      )
      const listed = yield* request(call, reader.token, "GET", `/products/${product}/cohorts`)
      expect(listed.status).toBe(200)
      expect(listed.body.cohorts).toHaveLength(1)
      const write = yield* request(call, reader.token, "POST", "/customers/cohort", {
        product,
        email: "a@example.com",
        cohort: cohort.id
      })
      expect(write.status).toBe(403)
      expect(write.body).toMatchObject({ ok: false, error: "forbidden", code: "api_key_access" })
    })
  )

  it.effect("fills a cohort's last places once under concurrent moves", () =>
    Effect.gen(function* () {
      const { call, seller, setUp } = yield* StoreTest
      const s = yield* seller()
      const product = yield* live(call, s.token, s.customAiId)
      const cohort = yield* setUp(newCohort(s.workspaceId, product, "Small", { capacity: 2 }))
      const emails = Array.from({ length: 6 }, (_, i) => `racer${i}@example.com`)
      for (const email of emails) {
        yield* request(call, s.token, "POST", "/customers", { product, email, send_email: false })
      }
      const answers = yield* Effect.all(
        emails.map((email) =>
          request(call, s.token, "POST", "/customers/cohort", { product, email, cohort: cohort.id })
        ),
        { concurrency: "unbounded" }
      )
      expect(answers.filter((a) => a.status === 200)).toHaveLength(2)
      expect(answers.filter((a) => a.status === 422)).toHaveLength(4)
      const listed = yield* request(call, s.token, "GET", `/products/${product}/cohorts`)
      expect(listed.body.cohorts).toMatchObject([{ members: 2, full: true }])
      const feed = yield* request(call, s.token, "GET", "/cohort-signups/recent")
      expect(feed.body.signups).toHaveLength(2)
    })
  )

  it.effect("checks a new cohort's fields (svc cohorts create)", () =>
    Effect.gen(function* () {
      const { call, seller, setUp } = yield* StoreTest
      const s = yield* seller()
      const product = yield* live(call, s.token, s.customAiId)
      const refused = (input: { name: string; capacity?: number; startsOn?: string }, path: string) =>
        Effect.gen(function* () {
          const exit = yield* Effect.exit(setUp(newCohort(s.workspaceId, product, input.name, input)))
          expect(Exit.isFailure(exit)).toBe(true)
          if (Exit.isFailure(exit)) expect(JSON.stringify(exit.cause)).toContain(path)
        })
      yield* refused({ name: " " }, "name")
      yield* refused({ name: "A", capacity: 0 }, "capacity")
      yield* refused({ name: "A", capacity: 1.5 }, "capacity")
      yield* refused({ name: "A", startsOn: "2026-02-30" }, "starts_on")
      yield* refused({ name: "A", startsOn: "next week" }, "starts_on")
      const unknown = yield* Effect.exit(setUp(newCohort(s.workspaceId, "prod_nope", "A")))
      expect(JSON.stringify(unknown)).toContain("NotFound")
      const other = yield* seller()
      const foreign = yield* Effect.exit(setUp(newCohort(other.workspaceId, product, "A")))
      expect(JSON.stringify(foreign)).toContain("NotFound")
    })
  )

  it.effect("filters customers by tag, by name in any case or by id", () =>
    Effect.gen(function* () {
      const { call, seller, setUp } = yield* StoreTest
      const s = yield* seller()
      const product = yield* live(call, s.token, s.customAiId)
      for (const email of ["vip1@example.com", "plain@example.com", "vip2@example.com"]) {
        yield* request(call, s.token, "POST", "/customers", { product, email, send_email: false })
      }
      const tag = (email: string, names: ReadonlyArray<string>) =>
        setUp(Effect.flatMap(StoreTagging, (t) => t.tagPerson(s.workspaceId, email, names)))
      const first = yield* tag("VIP1@example.com", ["VIP", "Spring cohort"])
      expect(first.email).toBe("vip1@example.com")
      expect(first.tags.map((t) => t.name)).toEqual(["Spring cohort", "VIP"])
      const second = yield* tag("vip2@example.com", ["vip", "vip"])
      expect(second.tags.map((t) => t.name)).toEqual(["VIP"])
      const vipId = second.tags[0]?.id ?? ""
      expect(vipId).toMatch(/^tag_/)
      expect(JSON.stringify(yield* Effect.exit(tag("vip2@example.com", [" "])))).toContain("InvalidInput")

      const emails = (body: Record<string, unknown>) => (body.data as Array<{ email: string }>).map((c) => c.email)
      const byName = yield* request(call, s.token, "GET", "/customers?tag=vip")
      expect(byName.status).toBe(200)
      expect(emails(byName.body)).toEqual(["vip2@example.com", "vip1@example.com"])
      expect(emails((yield* request(call, s.token, "GET", `/customers?tag=${vipId}`)).body)).toEqual([
        "vip2@example.com",
        "vip1@example.com"
      ])
      const spring = yield* request(call, s.token, "GET", `/customers?tag=${encodeURIComponent("SPRING COHORT")}`)
      expect(spring.body.data).toMatchObject([{ email: "vip1@example.com", tags: ["Spring cohort", "VIP"] }])
      const paged = yield* request(call, s.token, "GET", "/customers?tag=VIP&limit=1&has_access=true")
      expect(paged.body).toMatchObject({ has_more: true, data: [{ email: "vip2@example.com", tags: ["VIP"] }] })
      const next = yield* request(
        call,
        s.token,
        "GET",
        `/customers?tag=VIP&limit=1&has_access=true&starting_after=${paged.body.next_cursor}`
      )
      expect(next.body).toMatchObject({ has_more: false, data: [{ email: "vip1@example.com" }] })
      expect((yield* request(call, s.token, "GET", "/customers?tag=nobody")).body).toMatchObject({ data: [] })
      const plain = yield* request(call, s.token, "GET", "/customers/plain@example.com")
      expect(plain.body).toMatchObject({ customer: { tags: [] } })
      // Tags are per store: another store's tag name or id matches none of its people.
      const other = yield* seller()
      expect((yield* request(call, other.token, "GET", `/customers?tag=${vipId}`)).body).toMatchObject({ data: [] })
    })
  )
})
