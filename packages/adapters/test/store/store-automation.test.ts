import { expect, layer } from "@effect/vitest"
import { CustomAis } from "@svc/core/custom-ai"
import { resolveStoreCaller, StoreCatalog, StoreSales, StoreSetup } from "@svc/core/store"
import { Effect } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

// OAuth connections (scope `store`) arrive later; this checks the hook they will go through today.
layer(testCoreLayer(), { timeout: "60 seconds" })(`store automation connections (${engineName})`, (it) => {
  it.effect("may record sales but never change products", () =>
    Effect.gen(function* () {
      const user = yield* signUp()
      yield* (yield* StoreSetup).set(user.workspace.id, { supportEmail: "help@example.com" })
      const customAi = yield* (yield* CustomAis).create(user.workspace.id, { name: "Coach" })
      const catalog = yield* StoreCatalog
      const owner = yield* resolveStoreCaller(user.principal, true)
      const created = yield* catalog.create(owner, customAi.id, {})
      yield* catalog.publish(owner, created.product.id)

      const automation = yield* resolveStoreCaller(
        { ...user.principal, credential: { kind: "oauth", id: "tok_1" }, reach: "account" },
        true
      )
      expect(automation.automation).toBe(true)
      const refused = yield* Effect.flip(catalog.patch(automation, created.product.id, { title: "New" }))
      expect(refused).toMatchObject({ _tag: "StoreAccessDenied", code: "automation_connection" })
      const publish = yield* Effect.flip(catalog.unpublish(automation, created.product.id))
      expect(publish).toMatchObject({ code: "automation_connection" })
      const sale = yield* (yield* StoreSales).recordSale(automation, {
        event: "sale",
        productId: created.product.id,
        email: "buyer@example.com"
      })
      expect(sale).toEqual({ status: "granted" })
    })
  )
})
