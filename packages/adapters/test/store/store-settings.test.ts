/**
 * Store set-up without the command line: the store's settings read and changed through the store API, by the same
 * keys and rules as its other routes, and the publish checklist naming the route and the page that fix each item.
 */
import { expect, layer } from "@effect/vitest"
import { resolveStoreCaller, StoreSetup } from "@svc/core/store"
import { ApiKeys } from "@svc/core/auth"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { caller, StoreTest } from "./support.js"

layer(StoreTest.layer, { timeout: "60 seconds", excludeTestServices: true })(`store settings (${engineName})`, (it) => {
  it.effect("a new store sets itself up through PATCH /settings and publishes its first product", () =>
    Effect.gen(function* () {
      const t = yield* StoreTest
      const owner = yield* t.seller({ supportEmail: null })
      const call = caller(t, owner.token)

      const fresh = yield* call("GET", "/settings")
      expect(fresh.status).toBe(200)
      expect(fresh.body).toEqual({
        ok: true,
        settings: {
          handle: expect.any(String),
          name: expect.any(String),
          support_email: null,
          card_processor: "none",
          email_list_add_buyers: true,
          email_double_opt_in: false,
          stripe: null
        }
      })

      // The checklist says which route and which page fix the missing support email; never a command line.
      const created = yield* call("POST", "/products", { custom_ai_id: owner.customAiId, price_cents: 1900 })
      expect(created.status).toBe(201)
      const checklist = created.body.publish_checklist as ReadonlyArray<{ item: string; message: string }>
      expect(checklist.map((entry) => entry.item)).toEqual(["support_email", "payment"])
      for (const entry of checklist) {
        expect(entry.message).toContain("PATCH /store-app/v1/settings")
        expect(entry.message).toContain("/settings")
        expect(entry.message).not.toContain("svc store")
      }
      const productId = (created.body.product as { id: string }).id
      const refused = yield* call("POST", `/products/${productId}/publish`)
      expect(refused.status).toBe(409)
      expect(String(refused.body.message)).toContain("PATCH /store-app/v1/settings with support_email")

      const changed = yield* call("PATCH", "/settings", {
        name: "  Ada's Shop ",
        support_email: "help@ada.example",
        card_processor: "connected",
        email_double_opt_in: true
      })
      expect(changed.status).toBe(200)
      expect(changed.body).toEqual({
        ok: true,
        settings: {
          handle: (fresh.body.settings as { handle: string }).handle,
          name: "Ada's Shop",
          support_email: "help@ada.example",
          card_processor: "connected",
          email_list_add_buyers: true,
          email_double_opt_in: true,
          stripe: null
        }
      })
      // Kept: a second read answers the same, and the store's identity carries the new name.
      expect((yield* call("GET", "/settings")).body).toEqual(changed.body)
      expect((yield* call("GET", "/me")).body).toMatchObject({ store: { name: "Ada's Shop" } })

      const published = yield* call("POST", `/products/${productId}/publish`)
      expect(published.status).toBe(200)
      expect(published.body).toMatchObject({ product: { status: "live" }, can_publish: true, publish_checklist: [] })

      // null clears the support email; a field left out is kept.
      const cleared = yield* call("PATCH", "/settings", { support_email: null })
      expect(cleared.body).toMatchObject({
        settings: { support_email: null, name: "Ada's Shop", card_processor: "connected" }
      })
    })
  )

  it.effect("refuses bad values with invalid_field naming the field, and keeps the settings as they were", () =>
    Effect.gen(function* () {
      const t = yield* StoreTest
      const owner = yield* t.seller()
      const call = caller(t, owner.token)
      const before = yield* call("GET", "/settings")

      const email = yield* call("PATCH", "/settings", { support_email: "not an address", name: "Kept?" })
      expect(email.status).toBe(422)
      expect(email.body).toMatchObject({ ok: false, error: "invalid_field", errors: [{ path: "support_email" }] })
      const blank = yield* call("PATCH", "/settings", { name: "   " })
      expect(blank.status).toBe(422)
      expect(blank.body).toMatchObject({
        errors: [{ path: "name", message: "the store name must be 1 to 100 characters" }]
      })
      const processor = yield* call("PATCH", "/settings", { card_processor: "stripe" })
      expect(processor.status).toBe(422)
      expect(processor.body).toMatchObject({ errors: [{ path: "card_processor" }] })
      const unknown = yield* call("PATCH", "/settings", { handle: "mine" })
      expect(unknown.status).toBe(422)
      expect(unknown.body).toMatchObject({ errors: [{ path: "handle" }] })
      const nul = yield* call("PATCH", "/settings", { name: "a\u0000b" })
      expect(nul.status).toBe(422)

      // Nothing of a refused change was kept, the name of the first one included.
      expect((yield* call("GET", "/settings")).body).toEqual(before.body)
    })
  )

  it.effect("a Store Read key reads the settings but cannot change them; an automation connection cannot either", () =>
    Effect.gen(function* () {
      const t = yield* StoreTest
      const reader = yield* t.seller({ access: { kind: "custom", parts: { store: "read" } } })
      const read = yield* caller(t, reader.token)("GET", "/settings")
      expect(read.status).toBe(200)
      const write = yield* caller(t, reader.token)("PATCH", "/settings", { support_email: "a@example.com" })
      expect(write.status).toBe(403)
      expect(write.body).toMatchObject({ ok: false, error: "forbidden", code: "api_key_access" })

      // An automation tool's OAuth connection records sales; setting up the store is the owner's or a key's.
      const owner = yield* t.seller()
      const refused = yield* t.setUp(
        Effect.gen(function* () {
          const principal = yield* (yield* ApiKeys).authenticate(owner.token)
          const automation = yield* resolveStoreCaller(
            { ...principal, credential: { kind: "oauth", id: "tok_1" }, reach: "account" },
            true
          )
          return yield* Effect.flip((yield* StoreSetup).changeFor(automation, { supportEmail: null }))
        })
      )
      expect(refused).toMatchObject({ _tag: "StoreAccessDenied", code: "automation_connection" })
      expect((yield* caller(t, owner.token)("GET", "/settings")).body).toMatchObject({
        settings: { support_email: "help@example.com" }
      })
    })
  )
})
