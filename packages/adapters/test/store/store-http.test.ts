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

    it.effect(
      "refuses the NUL character or half a surrogate pair anywhere in a body with invalid_field, naming each place",
      () =>
        Effect.gen(function* () {
          const app = yield* TestApp
          const user = yield* app.signUp()
          const post = (path: string, body: string, token: string | null = user.token) =>
            Effect.promise(() =>
              fetch(`${app.url}/store-app/v1${path}`, {
                method: "POST",
                headers: {
                  "content-type": "application/json",
                  ...(token === null ? {} : { authorization: `Bearer ${token}` })
                },
                body
              }).then(async (r) => ({ status: r.status, body: await r.json() }))
            )
          const refused = yield* post("/customers", '{"product":"p\\u0000","email":"a@example.com"}')
          expect(refused).toEqual({
            status: 422,
            body: {
              ok: false,
              error: "invalid_field",
              message: "product: must not contain the NUL character (\\u0000)",
              errors: [{ path: "product", message: "must not contain the NUL character (\\u0000)" }]
            }
          })
          // An escaped backslash before "u0000" is plain text, not a NUL: the route looks the product up as usual.
          const plain = yield* post("/customers", '{"product":"p\\\\u0000","email":"a@example.com"}')
          expect(plain.body).toMatchObject({
            ok: false,
            reason: "product_not_found",
            message: "no product p\\u0000 in this store"
          })
          // Half a surrogate pair alone, as JSON carries it, is refused the same way; a whole pair is text like any.
          const half = yield* post("/customers", '{"product":"p\\uD800","email":"a@example.com"}')
          expect(half.status).toBe(422)
          expect(half.body).toMatchObject({ error: "invalid_field", errors: [{ path: "product" }] })
          const pair = yield* post("/customers", '{"product":"p\\ud83d\\ude80","email":"a@example.com"}')
          expect(pair.body).toMatchObject({ reason: "product_not_found" })
          // The credential is still checked first.
          const anonymous = yield* post("/customers", '{"product":"p\\u0000","email":"a@example.com"}', null)
          expect(anonymous.status).toBe(401)
        })
    )

    it.effect("refuses a NUL character (%00) in the path or a query parameter with bad_request, not a 500", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        const get = (path: string, token: string | null = user.token) =>
          Effect.promise(() =>
            fetch(`${app.url}/store-app/v1${path}`, {
              headers: token === null ? {} : { authorization: `Bearer ${token}` }
            }).then(async (r) => ({ status: r.status, body: await r.json() }))
          )
        for (const path of [
          "/products/prod_%00",
          "/sales/sale%00",
          "/customers/a%00%40example.com",
          "/products/p%00/cohorts"
        ]) {
          expect(yield* get(path)).toEqual({
            status: 400,
            body: {
              ok: false,
              error: "bad_request",
              message: "the URL path must not contain the NUL character (\\u0000)"
            }
          })
        }
        expect(yield* get("/customers/find?email=a%00%40example.com")).toEqual({
          status: 400,
          body: {
            ok: false,
            error: "bad_request",
            message: "the query parameter email must not contain the NUL character (\\u0000)"
          }
        })
        // A percent sign that is not a NUL is left to the route: an unknown product is still a 404.
        expect((yield* get("/products/prod_%2500")).status).toBe(404)
        expect((yield* get("/products/prod_%00", null)).status).toBe(401)
      })
    )
  }
)
