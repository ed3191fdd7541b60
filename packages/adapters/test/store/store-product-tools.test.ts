import { expect, layer } from "@effect/vitest"
import { ApiKeys } from "@svc/core/auth"
import { StoreSetup } from "@svc/core/store"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Call = StoreTest["Type"]["call"]

const request = (call: Call, token: string, method: string, path: string, body?: unknown) =>
  Effect.promise(() => call(token, method, path, body))

const fields = {
  title: "Coaching Club",
  price_cents: 2900,
  billing: "monthly",
  tagline: "Weekly answers",
  whats_included: ["Unlimited chat", "Weekly calls"],
  quantity_limit: 50,
  quantity_show_left: true
}

/** An answer with what differs between two products of equal fields (ids, Custom AI, times) left out. */
const comparable = (answer: Record<string, unknown>) => {
  const { ok: _ok, created: _created, product, ...rest } = answer
  const {
    id: _id,
    custom_ai_id: _customAi,
    created_at,
    updated_at,
    published_at,
    ...shown
  } = product as Record<string, unknown>
  return { ...rest, product: { ...shown, timed: [typeof created_at, typeof updated_at, typeof published_at] } }
}

const problemPaths = (answer: Record<string, unknown>) =>
  (answer.errors as ReadonlyArray<{ path: string }>).map((problem) => problem.path)

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `Custom AI product tools (${engineName})`,
  (it) => {
    it.effect("create and publish a product as POST /products and /publish do: same answer, same events", () =>
      Effect.gen(function* () {
        const { call, seller, tool, events } = yield* StoreTest
        const byTool = yield* seller({ cardProcessor: "connected" })
        const byApi = yield* seller({ cardProcessor: "connected" })

        const saved = yield* tool(byTool.token, "svc_save_custom_ai_product", { customAIId: byTool.customAiId, fields })
        expect(saved).toMatchObject({ ok: true, created: true, can_publish: true, publish_checklist: [] })
        expect(saved.product).toMatchObject({ custom_ai_id: byTool.customAiId, status: "draft", live: false })
        const published = yield* tool(byTool.token, "svc_publish_custom_ai_product", {
          customAIId: byTool.customAiId,
          live: true
        })
        expect(published).toMatchObject({ ok: true, product: { status: "live", live: true }, quantity_left: 50 })

        const created = yield* request(call, byApi.token, "POST", "/products", {
          custom_ai_id: byApi.customAiId,
          ...fields
        })
        expect(created.status).toBe(201)
        expect(comparable(saved)).toEqual(comparable(created.body))
        const id = (created.body.product as { id: string }).id
        const apiPublished = yield* request(call, byApi.token, "POST", `/products/${id}/publish`)
        expect(comparable(published)).toEqual(comparable(apiPublished.body))

        const read = yield* tool(byTool.token, "svc_get_custom_ai_product", { customAIId: byTool.customAiId })
        const productId = (read.product as { id: string }).id
        const apiRead = yield* request(call, byTool.token, "GET", `/products/${productId}`)
        expect(read).toEqual(apiRead.body)
        const types = (workspaceId: string) => Effect.map(events(workspaceId), (rows) => rows.map((row) => row.type))
        expect(yield* types(byTool.workspaceId)).toEqual(yield* types(byApi.workspaceId))
      })
    )

    it.effect(
      "change an existing product with the same rules as PATCH, and saving the same again changes nothing",
      () =>
        Effect.gen(function* () {
          const { call, seller, tool } = yield* StoreTest
          const s = yield* seller({ cardProcessor: "connected" })
          const first = yield* tool(s.token, "svc_save_custom_ai_product", { customAIId: s.customAiId })
          expect(first).toMatchObject({ ok: true, created: true, product: { title: "Coach", price_cents: 0 } })
          const changed = yield* tool(s.token, "svc_save_custom_ai_product", {
            customAIId: s.customAiId,
            fields: { price_cents: 4900, tagline: "Now paid" }
          })
          expect(changed).toMatchObject({
            ok: true,
            created: false,
            product: { price_cents: 4900, tagline: "Now paid" }
          })
          const id = (changed.product as { id: string }).id
          expect((first.product as { id: string }).id).toBe(id)
          const again = yield* tool(s.token, "svc_save_custom_ai_product", {
            customAIId: s.customAiId,
            fields: { price_cents: 4900, tagline: "Now paid" }
          })
          expect(comparable(again)).toEqual(comparable(changed))
          const cleared = yield* tool(s.token, "svc_save_custom_ai_product", {
            customAIId: s.customAiId,
            fields: { tagline: null }
          })
          expect(cleared).toMatchObject({ ok: true, product: { tagline: null, price_cents: 4900 } })
          const listed = yield* request(call, s.token, "GET", "/products?limit=100")
          expect((listed.body.data as ReadonlyArray<unknown>).length).toBe(1)
        })
    )

    it.effect("refuse bad fields as invalid under fields.<name>, with the products' caps, leaving nothing behind", () =>
      Effect.gen(function* () {
        const { seller, tool } = yield* StoreTest
        const s = yield* seller()
        const save = (given: Record<string, unknown>) =>
          tool(s.token, "svc_save_custom_ai_product", { customAIId: s.customAiId, fields: given })

        const unknownField = yield* save({ title: "Fine", colour: "red" })
        expect(unknownField).toMatchObject({ ok: false, status: "invalid" })
        expect(problemPaths(unknownField)).toEqual(["fields.colour"])
        const badType = yield* save({ price_cents: "lots", billing: "weekly" })
        expect(problemPaths(badType).sort()).toEqual(["fields.billing", "fields.price_cents"])
        const tooSmall = yield* save({ price_cents: 50 })
        expect(tooSmall).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "fields.price_cents" }] })
        const overCap = yield* save({ price_cents: 100_000_000 })
        expect(overCap).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "fields.price_cents" }] })
        const notObject = yield* tool(s.token, "svc_save_custom_ai_product", { customAIId: s.customAiId, fields: 3 })
        expect(notObject).toMatchObject({ ok: false, status: "invalid" })

        const nothing = yield* tool(s.token, "svc_get_custom_ai_product", { customAIId: s.customAiId })
        expect(nothing).toMatchObject({ ok: false, status: "not-found" })
        expect(nothing.message).toContain("svc_save_custom_ai_product")

        const created = yield* save({ price_cents: 1900 })
        expect(created).toMatchObject({ ok: true, created: true })
        const broken = yield* save({ trial_days: 7 })
        expect(broken).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "fields.trial_days" }] })
        const kept = yield* tool(s.token, "svc_get_custom_ai_product", { customAIId: s.customAiId })
        expect(kept).toMatchObject({ ok: true, product: { trial_days: null, price_cents: 1900 } })
      })
    )

    it.effect("answer not-found for unknown Custom AIs, another store's Custom AI and a product not made yet", () =>
      Effect.gen(function* () {
        const { seller, tool } = yield* StoreTest
        const s = yield* seller({ cardProcessor: "connected" })
        const other = yield* seller({ cardProcessor: "connected" })
        expect(
          yield* tool(other.token, "svc_save_custom_ai_product", { customAIId: other.customAiId, fields: {} })
        ).toMatchObject({ ok: true })

        for (const name of ["svc_get_custom_ai_product", "svc_publish_custom_ai_product"]) {
          const args = name === "svc_publish_custom_ai_product" ? { live: true } : {}
          expect(yield* tool(s.token, name, { customAIId: "cai_nope", ...args })).toMatchObject({
            ok: false,
            status: "not-found"
          })
          expect(yield* tool(s.token, name, { customAIId: other.customAiId, ...args })).toMatchObject({
            ok: false,
            status: "not-found"
          })
          const notYet = yield* tool(s.token, name, { customAIId: s.customAiId, ...args })
          expect(notYet).toMatchObject({ ok: false, status: "not-found" })
          expect(notYet.message).toContain("svc_save_custom_ai_product")
        }
        const foreignSave = yield* tool(s.token, "svc_save_custom_ai_product", {
          customAIId: other.customAiId,
          fields: { title: "Taken over" }
        })
        expect(foreignSave).toMatchObject({ ok: false, status: "not-found" })
        const untouched = yield* tool(other.token, "svc_get_custom_ai_product", { customAIId: other.customAiId })
        expect(untouched).toMatchObject({ ok: true, product: { title: "Coach" } })
        const unknownStore = yield* tool(s.token, "svc_get_custom_ai_product", {
          customAIId: s.customAiId,
          storeHandle: "no-such-store"
        })
        expect(unknownStore).toMatchObject({ ok: false, status: "not-found" })
      })
    )

    it.effect(
      "refuse publishing with a conflict listing the checklist; unpublishing stops sales, buyers keep access",
      () =>
        Effect.gen(function* () {
          const { call, seller, tool, setUp } = yield* StoreTest
          const s = yield* seller({ supportEmail: null })
          yield* tool(s.token, "svc_save_custom_ai_product", {
            customAIId: s.customAiId,
            fields: { price_cents: 1900 }
          })
          const refused = yield* tool(s.token, "svc_publish_custom_ai_product", {
            customAIId: s.customAiId,
            live: true
          })
          expect(refused).toMatchObject({ ok: false, status: "conflict" })
          expect(refused.message).toContain("support email")
          // An agent cannot run the command line: the tools say who can do each item, and where.
          expect(refused.message).not.toContain("svc store set")
          expect(refused.message).toContain("No tool sets the store's support email: ask the store's owner")
          expect(refused.message).toContain("signed in on /settings")
          expect(refused.message).toContain("through PATCH /store-app/v1/settings with support_email")
          expect(refused.message).toContain("fields.checkout_mode external with fields.checkout_url")
          const stillDraft = yield* tool(s.token, "svc_get_custom_ai_product", { customAIId: s.customAiId })
          expect(stillDraft).toMatchObject({ product: { status: "draft" }, can_publish: false })
          for (const entry of stillDraft.publish_checklist as ReadonlyArray<{ message: string }>) {
            expect(entry.message).not.toContain("svc store set")
          }
          expect((stillDraft.publish_checklist as ReadonlyArray<{ item: string }>).map((c) => c.item).sort()).toEqual([
            "payment",
            "support_email"
          ])

          yield* setUp(
            Effect.flatMap(StoreSetup, (setup) =>
              setup.set(s.workspaceId, { supportEmail: "help@example.com", cardProcessor: "connected" })
            )
          ).pipe(Effect.orDie)
          const live = yield* tool(s.token, "svc_publish_custom_ai_product", { customAIId: s.customAiId, live: true })
          expect(live).toMatchObject({ ok: true, can_publish: true, product: { status: "live", live: true } })
          const productId = (live.product as { id: string }).id
          const sale = yield* request(call, s.token, "POST", "/sales", {
            event: "sale",
            product: productId,
            email: "buyer@example.com"
          })
          expect(sale.status).toBe(200)

          const off = yield* tool(s.token, "svc_publish_custom_ai_product", { customAIId: s.customAiId, live: false })
          expect(off).toMatchObject({ ok: true, product: { status: "off", live: false } })
          const again = yield* tool(s.token, "svc_publish_custom_ai_product", { customAIId: s.customAiId, live: false })
          expect(comparable(again)).toEqual(comparable(off))
          const customer = yield* request(call, s.token, "GET", "/customers/buyer@example.com")
          expect(customer.body).toMatchObject({ ok: true, customer: { has_access: true } })
          const turnedAway = yield* request(call, s.token, "POST", "/sales", {
            event: "sale",
            product: productId,
            email: "late@example.com"
          })
          expect(turnedAway.body).toMatchObject({ ok: false, status: "rejected" })
        })
    )

    it.effect("let a Store-read key read and refuse it changes; refuse sellers below Starter", () =>
      Effect.gen(function* () {
        const { seller, tool, setUp } = yield* StoreTest
        const owner = yield* seller()
        yield* tool(owner.token, "svc_save_custom_ai_product", {
          customAIId: owner.customAiId,
          fields: { title: "Mine" }
        })
        const reader = yield* setUp(
          Effect.gen(function* () {
            const keys = yield* ApiKeys
            const principal = yield* keys.authenticate(owner.token)
            return yield* keys.create(principal.accountId, { access: { kind: "custom", parts: { store: "read" } } })
          })
        ).pipe(Effect.orDie)
        const read = yield* tool(reader.token, "svc_get_custom_ai_product", { customAIId: owner.customAiId })
        expect(read).toMatchObject({ ok: true, product: { title: "Mine" } })
        const save = yield* tool(reader.token, "svc_save_custom_ai_product", {
          customAIId: owner.customAiId,
          fields: { title: "Theirs" }
        })
        expect(save).toMatchObject({ ok: false, status: "forbidden" })
        const publish = yield* tool(reader.token, "svc_publish_custom_ai_product", {
          customAIId: owner.customAiId,
          live: true
        })
        expect(publish).toMatchObject({ ok: false, status: "forbidden" })
        const after = yield* tool(owner.token, "svc_get_custom_ai_product", { customAIId: owner.customAiId })
        expect(after).toMatchObject({ ok: true, product: { title: "Mine", status: "draft" } })

        const free = yield* seller({ plan: "free" })
        const refused = yield* tool(free.token, "svc_get_custom_ai_product", { customAIId: free.customAiId })
        expect(refused).toMatchObject({ ok: false, status: "forbidden" })
        expect(String(refused.message)).toMatch(/Starter/i)
      })
    )
  }
)
