import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"

layer(TestApp.layer, { timeout: "60 seconds", excludeTestServices: true })(
  `store API beside the tool faces (${engineName})`,
  (it) => {
    it.effect("serves /store-app/v1 on the same server as /mcp and /v1/tools", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        const me = yield* Effect.promise(() =>
          fetch(`${app.url}/store-app/v1/me`, { headers: { authorization: `Bearer ${user.token}` } }).then(
            async (r) => ({
              status: r.status,
              body: await r.json()
            })
          )
        )
        expect(me.status).toBe(200)
        expect(me.body).toEqual({
          ok: true,
          id: user.account.id,
          email: user.account.email,
          handle: user.store.handle,
          store: { handle: user.store.handle, name: user.store.name, workspace_id: user.workspace.id }
        })
        const anonymous = yield* Effect.promise(() => fetch(`${app.url}/store-app/v1/products`))
        expect(anonymous.status).toBe(401)
        expect(yield* Effect.promise(() => anonymous.json())).toMatchObject({ ok: false, error: "unauthorized" })
        const plain = yield* Effect.promise(() =>
          fetch(`${app.url}/store-app/v1/products`, { headers: { authorization: `Bearer ${user.token}` } }).then((r) =>
            r.json()
          )
        )
        expect(plain).toEqual({ ok: true, products: [] })
        const health = yield* Effect.promise(() => fetch(`${app.url}/health`))
        expect(health.status).toBe(200)
      })
    )
  }
)
